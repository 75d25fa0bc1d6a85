import fc from 'fast-check';
import type { Agency } from './agencies.js';
import { bodiesFor, HOSTILE_PATH_SEGMENTS, type IdSource, queriesFor } from './arbitraries.js';
import type { ProbeRequest } from './client.js';
import { validRequests } from './requests.js';
import type { IdKind, Operation } from './route-table.js';

/** Id fields in bodies and queries, by name; an unknown one draws from every kind. */
const FIELD_KINDS: Record<string, IdKind> = {
  customer_id: 'customer',
  exclude_id: 'customer',
  company_id: 'company',
  policy_type_id: 'policyType',
  policy_id: 'policy',
};

const idsOf = (agency: Agency, kind: IdKind | undefined) =>
  kind ? [agency.ids[kind]] : Object.values(agency.ids).filter((id) => id !== agency.ids.tenant);

const idSource = (caller: Agency | undefined, others: Agency[]): IdSource => ({
  own: (field) => (caller ? idsOf(caller, FIELD_KINDS[field ?? '']) : []),
  others: (field) => others.flatMap((agency) => idsOf(agency, FIELD_KINDS[field ?? ''])),
});

/**
 * Requests to one operation from its caller: path ids mostly the caller's own rows, sometimes
 * another agency's, a random id or a hostile segment; a query and a body drawn from the route's
 * own zod schemas.
 */
export function fuzzedRequests(
  operation: Operation,
  caller: Agency | undefined,
  others: Agency[],
): fc.Arbitrary<ProbeRequest> {
  const ids = idSource(caller, others);
  const examples = caller ? validRequests(operation, caller) : validRequests(operation, others[0] as Agency);
  const objects = (values: unknown[]) =>
    values.filter(
      (value): value is Record<string, unknown> =>
        !!value && typeof value === 'object' && !Array.isArray(value),
    );

  const segments = operation.params.map((param) => {
    if (!param.kind) return fc.constant('probe');
    const kind = param.kind;
    const own = caller ? [caller.ids[kind]] : [];
    const theirs = others.map((agency) => agency.ids[kind]);
    return fc.oneof(
      ...(own.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...own) }] : []),
      ...(theirs.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...theirs) }] : []),
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_PATH_SEGMENTS) },
    );
  });
  const query = operation.query
    ? queriesFor(operation.query, objects(examples.map((example) => example.query)), ids)
    : fc.constant('');
  const body = operation.body
    ? bodiesFor(operation.body, objects(examples.map((example) => example.body)), ids)
    : fc.constant(undefined);

  return fc.tuple(fc.tuple(...segments), query, body).map(([values, search, payload]) => {
    let path = operation.path;
    operation.params.forEach((param, index) => {
      path = path.replace(param.name === '*' ? '*' : `:${param.name}`, values[index] as string);
    });
    return {
      method: operation.method,
      url: search ? `${path}?${search}` : path,
      token: caller?.access,
      body: payload,
    };
  });
}
