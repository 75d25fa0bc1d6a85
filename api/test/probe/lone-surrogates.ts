import type { z } from 'zod';
import { shapeOf, takesText } from './arbitraries.js';

/** Half of a surrogate pair: JSON can carry it ("\ud800"), UTF-8 cannot write it, so PostgreSQL cannot store it. */
const LONE_SURROGATE = '\ud800';

/** A body with a lone surrogate in one string field, named as a 400 answer names it ("tags.0"). */
export interface SurrogateCase {
  field: string;
  body: Record<string, unknown>;
}

type Path = (string | number)[];

/** Inside the text, so it still meets the field's other rules (required, not blank, its length). */
const withSurrogate = (text: string) => `${text.slice(0, 1)}${LONE_SURROGATE}${text.slice(1)}`;

/** Every string in a value, at any depth, with the path to it. */
function stringsIn(value: unknown, path: Path = []): { path: Path; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsIn(item, [...path, index]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([name, item]) => stringsIn(item, [...path, name]));
  }
  return [];
}

/** The value with the one at `path` replaced, the rest untouched. */
function replacedAt(value: unknown, path: Path, next: unknown): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return next;
  if (Array.isArray(value))
    return value.map((item, index) => (index === step ? replacedAt(item, rest, next) : item));
  const record = value as Record<string, unknown>;
  return { ...record, [step]: replacedAt(record[step], rest, next) };
}

/**
 * One body per string field, each with a lone surrogate in that field only: every string of the
 * valid examples, at any depth, and every text field of the schema the examples leave out, sent
 * beside the first example (or alone, for an operation without one).
 */
export function loneSurrogateCases(schema: z.ZodType, examples: Record<string, unknown>[]): SurrogateCase[] {
  const cases = new Map<string, Record<string, unknown>>();
  for (const example of examples) {
    for (const { path, text } of stringsIn(example)) {
      const field = path.join('.');
      if (!cases.has(field)) {
        cases.set(field, replacedAt(example, path, withSurrogate(text)) as Record<string, unknown>);
      }
    }
  }
  const base = examples[0] ?? {};
  for (const [name, field] of Object.entries(shapeOf(schema))) {
    if (!cases.has(name) && takesText(field))
      cases.set(name, { ...base, [name]: withSurrogate('Dana Levi') });
  }
  return [...cases].map(([field, body]) => ({ field, body }));
}
