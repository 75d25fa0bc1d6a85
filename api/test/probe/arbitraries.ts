import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Values no form sends but anyone can: NUL bytes, 100 KB of text, the largest doubles, dates at the
 * ends of the calendar, text that reads right to left or joins emoji, and the characters SQL and
 * LIKE patterns treat specially.
 */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'Dana\u0000Levi',
  'x'.repeat(100_000),
  '%',
  '_',
  '\\',
  "'",
  "%_\\'",
  "' OR '1'='1",
  '"; DROP TABLE customers; --',
  '😀'.repeat(300),
  '👩‍👩‍👧‍👦🏳️‍🌈🇮🇱',
  'Z̷̢̛a̵̗͠l̶͇̈́g̷̱̓o̸̙͐',
  '\u202Egnp.exe',
  'שלום עולם',
  'مرحبا بالعالم',
  '\uFEFF',
  '\ud800',
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '2026-02-30',
  '+275760-09-13',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '-1e308',
  '__proto__',
  '<script>alert(1)</script>',
  '../../etc/passwd',
] as const;

export const HOSTILE_NUMBERS = [1e308, -1e308, 0, -1, 2 ** 53 + 2, 1.5, -0.001, 5e-324] as const;

/** Wrong kinds of value: arrays where objects are expected, objects where strings are. */
const HOSTILE_SHAPES = [null, true, [], ['a', 'b'], {}, { nested: { deeper: [1] } }, [{}]];

export const hostileValue: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  ...HOSTILE_STRINGS,
  ...HOSTILE_NUMBERS,
  ...HOSTILE_SHAPES,
);

/** Path segments as they arrive, already percent-encoded (or deliberately not). */
export const HOSTILE_PATH_SEGMENTS = [
  'not-an-id',
  '00000000-0000-0000-0000-000000000000',
  '%00',
  "1'%20OR%20'1'%3D'1",
  '..%2F..%2Fetc%2Fpasswd',
  '%F0%9F%98%80',
  '%E0%A4%A',
  '-1',
  '1e308',
  'x'.repeat(150),
] as const;

/** Query-string pieces a browser would never write. */
const RAW_QUERY_PIECES = [
  '%',
  '%zz',
  '%ED%A0%80',
  'search=%00',
  'page=1&page=2',
  'page[]=1',
  '__proto__[x]=1',
  '&&=&',
];

/** Where values for id fields come from: mostly the caller's own rows, sometimes another agency's. */
export interface IdSource {
  own(field: string | undefined): string[];
  others(field: string | undefined): string[];
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
}

/** The parts of a zod v4 schema's definition the walk reads. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  element?: z.ZodType;
  format?: string;
  coerce?: boolean;
  checks?: { _zod: { def: CheckDef } }[];
}

interface Internals {
  _zod: { def: SchemaDef; optin?: 'optional' };
}

const defOf = (schema: z.ZodType) => (schema as unknown as Internals)._zod.def;
const isOptionalInput = (schema: z.ZodType) => (schema as unknown as Internals)._zod.optin === 'optional';
const checksOf = (def: SchemaDef) => (def.checks ?? []).map((check) => check._zod.def);

/** Mostly values of the right kind, one in ten hostile: a request with a dozen fields still often gets through. */
const orHostile = (arbitrary: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 9, arbitrary }, { weight: 1, arbitrary: hostileValue });

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const dates = fc.date({ min: new Date('1950-01-01'), max: new Date('2150-12-31'), noInvalidDate: true });

const money = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }),
  fc
    .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
    .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`),
  fc.constantFrom('0', '0.00', '12.345', '-5', '1e3', ' 7 ', '999999999999.99', '1000000000000', '00012.50'),
);
const percentageValue = fc.oneof(
  fc.integer({ min: 0, max: 120 }),
  fc.constantFrom('12.50', '100', '100.01', '0.001', '-1', '12,5'),
);

/**
 * Text fields whose rules live in refinements the walk cannot read: amounts and percentages are
 * checked by pattern, so random text would never get past them to the queries behind.
 */
const FIELD_HINTS: [RegExp, fc.Arbitrary<unknown>][] = [
  [/premium|amount|sum_insured|deductible/, money],
  [/percentage/, percentageValue],
];

function stringArbitrary(def: SchemaDef, field: string | undefined, ids: IdSource): fc.Arbitrary<unknown> {
  const checks = checksOf(def);
  const minimum = checks.find((check) => check.check === 'min_length')?.minimum ?? 0;
  const maximum = checks.find((check) => check.check === 'max_length')?.maximum;
  switch (def.format) {
    case 'uuid':
    case 'guid': {
      const own = ids.own(field);
      const others = ids.others(field);
      return fc.oneof(
        ...(own.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...own) }] : []),
        ...(others.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...others) }] : []),
        { weight: 1, arbitrary: fc.uuid() },
      );
    }
    case 'email':
      return fc.oneof(fc.emailAddress(), fc.constantFrom('A@Example.com', 'a@b', 'dana+%_@example.com'));
    case 'date':
      return fc.oneof(
        { weight: 4, arbitrary: dates.map(isoDay) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('0000-01-01', '9999-12-31', '1899-12-31', '1900-01-01', '2200-12-31'),
        },
      );
    case 'datetime':
      return fc.oneof(
        dates.map((date) => date.toISOString()),
        fc.constantFrom('2026-01-01T00:00:00+14:00', '0000-01-01T00:00:00Z'),
      );
    default: {
      const text = fc.string({
        unit: 'grapheme',
        minLength: minimum,
        maxLength: Math.min(maximum ?? 40, 60),
      });
      if (maximum === undefined) return text;
      // Right at the limit and one past it, where off-by-one mistakes live.
      return fc.oneof(
        { weight: 3, arbitrary: text },
        fc.constantFrom('é'.repeat(maximum), 'a'.repeat(maximum + 1)),
      );
    }
  }
}

function numberArbitrary(def: SchemaDef): fc.Arbitrary<unknown> {
  const checks = checksOf(def);
  const lower = checks.find((check) => check.check === 'greater_than')?.value ?? -5;
  const upper = checks.find((check) => check.check === 'less_than')?.value ?? 1000;
  const integral = checks.some((check) => check.check === 'number_format');
  const within = integral
    ? fc.integer({ min: Math.max(lower, -(2 ** 31)), max: Math.min(upper, 2 ** 31) })
    : fc.double({ min: lower, max: upper, noNaN: true });
  // Mostly within the bounds, so the request goes on to the query; now and then just outside.
  const near = fc.oneof(
    { weight: 7, arbitrary: within },
    { weight: 1, arbitrary: fc.constantFrom(lower - 1, upper + 1) },
  );
  if (!def.coerce) return near;
  // A coerced number usually arrives as text, from a query string or a form.
  return fc.oneof(
    { weight: 3, arbitrary: near },
    { weight: 3, arbitrary: near.map(String) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '0x10', '1e3', '1.0') },
  );
}

/** Values for a schema: shaped like what it accepts, with hostile values mixed in at the leaves. */
export function valuesFor(
  schema: z.ZodType,
  field: string | undefined,
  ids: IdSource,
): fc.Arbitrary<unknown> {
  const hint = field ? FIELD_HINTS.find(([pattern]) => pattern.test(field)) : undefined;
  if (hint) return orHostile(hint[1]);
  const def = defOf(schema);
  const inner = (next: z.ZodType | undefined) => (next ? valuesFor(next, field, ids) : hostileValue);
  switch (def.type) {
    case 'object':
      return field === undefined ? objectValues(def, ids) : orHostile(objectValues(def, ids));
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(def.innerType);
    case 'nullable':
      return fc.oneof(
        { weight: 4, arbitrary: inner(def.innerType) },
        { weight: 1, arbitrary: fc.constant(null) },
      );
    case 'pipe':
      // A transform takes whatever the stage before it accepted; any other stage has its own shape.
      return def.out && defOf(def.out).type !== 'transform'
        ? fc.oneof(inner(def.in), inner(def.out))
        : inner(def.in);
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => valuesFor(option, field, ids)));
    case 'string':
      return orHostile(stringArbitrary(def, field, ids));
    case 'number':
      return orHostile(numberArbitrary(def));
    case 'boolean':
      return orHostile(fc.boolean());
    case 'enum':
      return orHostile(fc.constantFrom(...Object.values(def.entries ?? {})));
    case 'literal':
      return orHostile(fc.constantFrom(...(def.values ?? [])));
    case 'array': {
      const maximum = checksOf(def).find((check) => check.check === 'max_length')?.maximum;
      return orHostile(fc.array(inner(def.element), { maxLength: Math.min((maximum ?? 4) + 1, 25) }));
    }
    case 'null':
      return fc.constant(null);
    default:
      // unknown, any, record values and whatever zod adds later: anything at all.
      return fc.oneof(hostileValue, fc.jsonValue({ maxDepth: 2 }));
  }
}

function objectValues(def: SchemaDef, ids: IdSource): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape ?? {};
  const fields = Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [name, valuesFor(field, name, ids)]),
  );
  // Optional fields are left out more often than not: each one sent is one more chance of a 400
  // that stops the request before the queries behind it.
  const sometimes = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary });
  const chosen = Object.fromEntries(
    Object.entries(fields).map(([name, arbitrary]) => [
      name,
      isOptionalInput(shape[name] as z.ZodType) ? sometimes(arbitrary) : arbitrary,
    ]),
  );
  return fc
    .record(chosen)
    .map((values) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)));
}

/** The object shape behind a body or query schema, through defaults, pipes and refinements. */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape ?? {};
  const next = def.innerType ?? def.in;
  return next ? shapeOf(next) : {};
}

/** Whether a field takes text: a string, or a wrapper, pipe or union with one inside. */
export function takesText(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'string') return true;
  if (def.type === 'union') return (def.options ?? []).some(takesText);
  const next = def.innerType ?? def.in;
  return next ? takesText(next) : false;
}

/** A valid request with one to three fields replaced, removed or added: reaches past validation. */
function mutations(
  schema: z.ZodType,
  examples: Record<string, unknown>[],
  ids: IdSource,
): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(schema);
  const names = [...new Set([...Object.keys(shape), ...examples.flatMap(Object.keys), 'unexpected'])];
  const change = fc.constantFrom(...names).chain((name) => {
    const field = shape[name];
    const value = fc.oneof(
      { weight: 3, arbitrary: field ? valuesFor(field, name, ids) : hostileValue },
      { weight: 1, arbitrary: hostileValue },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    return value.map((next) => [name, next] as const);
  });
  return fc
    .tuple(fc.constantFrom(...examples), fc.array(change, { minLength: 1, maxLength: 3 }))
    .map(([example, changes]) => {
      const mutated = { ...example };
      for (const [name, value] of changes) {
        if (value === undefined) delete mutated[name];
        else mutated[name] = value;
      }
      return mutated;
    });
}

/** Request bodies: generated from the schema, mutated from valid ones, or not an object at all. */
export function bodiesFor(
  schema: z.ZodType,
  examples: Record<string, unknown>[],
  ids: IdSource,
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: valuesFor(schema, undefined, ids) },
    ...(examples.length > 0 ? [{ weight: 4, arbitrary: mutations(schema, examples, ids) }] : []),
    { weight: 1, arbitrary: hostileValue },
  );
}

function appendQueryValue(search: URLSearchParams, name: string, value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value)
      search.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
  } else {
    search.append(name, value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
}

/** Query strings (without the "?"): values as a form would send them, now and then a raw bad piece. */
export function queriesFor(
  schema: z.ZodType,
  examples: Record<string, unknown>[],
  ids: IdSource,
): fc.Arbitrary<string> {
  const values = fc.oneof(
    { weight: 3, arbitrary: valuesFor(schema, undefined, ids) },
    ...(examples.length > 0 ? [{ weight: 3, arbitrary: mutations(schema, examples, ids) }] : []),
  );
  return fc
    .tuple(
      values,
      fc.oneof(
        { weight: 5, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERY_PIECES) },
      ),
    )
    .map(([query, raw]) => {
      const search = new URLSearchParams();
      if (query && typeof query === 'object' && !Array.isArray(query)) {
        for (const [name, value] of Object.entries(query)) appendQueryValue(search, name, value);
      }
      return [search.toString(), raw].filter(Boolean).join('&');
    });
}
