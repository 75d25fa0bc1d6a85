import { addDays, POLICY_ORDERINGS, POLICY_STATUSES, policyListQuery } from '@coverdesk/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addPolicyParties, insertPolicy, type PolicyParties } from '../../../test/insert-policy.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { listPolicies } from './queries.js';

let t: TestApp;
let tenantId: string;
let parties: PolicyParties[];
beforeAll(async () => {
  t = await createTestApp();
  const { as, user } = await signedInAgency(t.app);
  tenantId = user.tenant_id;
  parties = [
    await addPolicyParties(as, { customer: ['Dana', 'Levi'], company: 'Harel' }),
    await addPolicyParties(as, { customer: ['Avi', 'Cohen'], company: 'Migdal' }),
  ];
  const terms = [
    { start_date: day(-400), end_date: day(-36) },
    { start_date: day(-345), end_date: day(20) },
    { start_date: day(-100), end_date: day(264) },
    { start_date: day(-5), end_date: day(359) },
    { start_date: day(10), end_date: day(374) },
  ];
  for (const [index, term] of terms.entries()) {
    for (const [side, party] of parties.entries()) {
      const { id } = await insertPolicy(t, tenantId, party, {
        ...term,
        policy_number: `POL-${side}${index}`,
        total_premium: `${(index + 1) * 100 + side}.00`,
      });
      if (index === 2 && side === 1) {
        await as.post(`/api/policies/${id}/cancel/`, { cancelled_at: day(0), reason: 'Sold' });
      }
    }
  }
});
afterAll(() => t.close());

/** The date `days` from today, in UTC as the seeded agency's day. */
function day(days: number) {
  return addDays(new Date().toISOString().slice(0, 10), days);
}

type Query = Parameters<typeof listPolicies>[2];

/** A page as the cache of built statements answers it, shared by every case run before. */
const listed = (query: Query) =>
  withTenant(t.database.db, tenantId, (tx) => listPolicies(tx, tenantId, query));

/** A page as a freshly loaded module answers it: its statement built for this query alone. */
async function listedFresh(query: Query) {
  vi.resetModules();
  const fresh = await import('./queries.js');
  return withTenant(t.database.db, tenantId, (tx) => fresh.listPolicies(tx, tenantId, query));
}

const decoded = (page: { count: number; resultsJson: string }) => ({
  count: page.count,
  results: JSON.parse(page.resultsJson),
});

/** Mostly left out, as most requests leave most filters out, so that cases share statements. */
const sometimes = <Value>(...values: Value[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...values) },
  );

describe('the policy list statement built once per shape', () => {
  it('answers from the cache exactly what a statement built for the request answers', async () => {
    const ids = (key: keyof PolicyParties) => parties.map((party) => party[key]);
    // A query string as a browser sends it: each filter empty, blank, absent or set.
    const fields = {
      search: fc.constantFrom(undefined, '', '  ', 'pol-1', 'cohen', 'zzzz'),
      status: sometimes(...POLICY_STATUSES),
      company_id: sometimes(...ids('companyId')),
      policy_type_id: sometimes(...ids('policyTypeId')),
      customer_id: sometimes(...ids('customerId')),
      start_date_from: sometimes(day(-200), day(0)),
      start_date_to: sometimes(day(-200), day(0)),
      end_date_from: sometimes(day(0), day(300)),
      end_date_to: sometimes(day(0), day(300)),
      expiring_within_days: sometimes('0', '30', '400'),
      ordering: sometimes(...POLICY_ORDERINGS, ...POLICY_ORDERINGS.map((field) => `-${field}`)),
      page: sometimes('1', '2', '3'),
      page_size: sometimes('1', '3', '7', '100'),
    };
    // A broker's next request changes one thing about the last: the search typed, a filter, the page.
    const change = fc.oneof(
      ...Object.entries(fields).map(([field, given]) =>
        given.map((value): Record<string, string | undefined> => ({ [field]: value })),
      ),
    );
    const requests = fc.tuple(fc.record(fields), fc.array(change, { minLength: 1, maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(requests, async ([first, changes]) => {
        let raw: Record<string, string | undefined> = first;
        for (const next of [{}, ...changes]) {
          raw = { ...raw, ...next };
          const query = policyListQuery.parse(raw);
          expect(decoded(await listed(query)), JSON.stringify(raw)).toEqual(
            decoded(await listedFresh(query)),
          );
        }
      }),
      { numRuns: 60 },
    );
    // Each case loads the module afresh: 26 s alone on two cores, past 120 s on a busy machine.
  }, 300_000);
});
