import {
  addDays,
  COMMISSION_PAYMENT_STATUSES,
  COMMISSION_REPORT_ORDERINGS,
  commissionReportQuery,
} from '@coverdesk/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addPolicyParties, insertPolicy, type PolicyParties } from '../../../test/insert-policy.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { commissionReport } from './queries.js';

// The report's statement is built once per shape and kept: whatever a broker's sequence of filters,
// a kept statement answers exactly what one built for the request alone answers.

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
    { start_date: day(-200), end_date: day(164) },
    { start_date: day(-5), end_date: day(359) },
    { start_date: day(10), end_date: day(374) },
  ];
  for (const [index, term] of terms.entries()) {
    for (const [side, party] of parties.entries()) {
      await insertPolicy(t, tenantId, party, {
        ...term,
        policy_number: `POL-${side}${index}`,
        total_premium: `${(index + 1) * 100 + side}.00`,
        payment_frequency: 'quarterly',
      });
    }
  }
});
afterAll(() => t.close());

function day(days: number) {
  return addDays(new Date().toISOString().slice(0, 10), days);
}

type Query = Parameters<typeof commissionReport>[2];

const reported = (query: Query) =>
  withTenant(t.database.db, tenantId, (tx) => commissionReport(tx, tenantId, query));

/** The report as a freshly loaded module answers it: its statement built for this query alone. */
async function reportedFresh(query: Query) {
  vi.resetModules();
  const fresh = await import('./queries.js');
  return withTenant(t.database.db, tenantId, (tx) => fresh.commissionReport(tx, tenantId, query));
}

/** Mostly left out or blank, as most requests leave most filters out, so that cases share statements. */
const sometimes = <Value>(...values: Value[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(undefined, '') },
    { weight: 1, arbitrary: fc.constantFrom(...values) },
  );

describe('the commission report statement built once per shape', () => {
  it('answers from the cache exactly what a statement built for the request answers', async () => {
    const ids = (key: keyof PolicyParties) => parties.map((party) => party[key]);
    const fields = {
      search: fc.constantFrom(undefined, '', '  ', 'pol-1', 'cohen', 'zzzz'),
      start_date: sometimes(day(-300), day(0)),
      end_date: sometimes(day(0), day(300)),
      company_id: sometimes(...ids('companyId')),
      policy_type_id: sometimes(...ids('policyTypeId')),
      payment_status: sometimes(...COMMISSION_PAYMENT_STATUSES),
      ordering: fc.constantFrom(
        undefined,
        ...COMMISSION_REPORT_ORDERINGS,
        ...COMMISSION_REPORT_ORDERINGS.map((field) => `-${field}`),
      ),
      include: fc.constantFrom(undefined, 'commission_data', 'summary'),
      page: fc.constantFrom(undefined, '1', '2'),
      page_size: fc.constantFrom(undefined, '1', '3', '100'),
    };
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
          const query = commissionReportQuery.safeParse(raw);
          if (!query.success) continue;
          expect(JSON.parse(await reported(query.data)), JSON.stringify(raw)).toEqual(
            JSON.parse(await reportedFresh(query.data)),
          );
        }
      }),
      { numRuns: 40 },
    );
    // Each case loads the module afresh, about half a second on a busy machine: the cases take
    // longer than a test's usual 30 s there.
  }, 120_000);
});
