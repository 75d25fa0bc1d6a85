import { addDays, type CommissionReport, commissionReport } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPolicyParties, type PolicyParties } from '../../../test/insert-policy.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { companies } from '../companies/tables.js';
import { policies } from '../policies/tables.js';

// Whatever the book, the report's totals are the sums of its rows over all pages, to the cent, for
// the agency and for each insurer: a broker adding up the table gets the figures on the cards.

let t: TestApp;
let as: Awaited<ReturnType<typeof signedInAgency>>['as'];
let tenantId: string;
let parties: PolicyParties[];
beforeAll(async () => {
  t = await createTestApp();
  const agency = await signedInAgency(t.app);
  as = agency.as;
  tenantId = agency.user.tenant_id;
  parties = [
    await addPolicyParties(as, { customer: ['Dana', 'Levi'], company: 'Harel' }),
    await addPolicyParties(as, { customer: ['Avi', 'Cohen'], company: 'Migdal' }),
  ];
  // One insurer of each kind of commission payout.
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .update(companies)
      .set({ commissionPaymentMethod: 'pro_rata' })
      .where(eq(companies.id, parties[1]?.companyId ?? '')),
  );
});
afterAll(() => t.close());

const cents = (amount: string) => BigInt(amount.replace('.', ''));
const money = (value: bigint) => {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};
/** part / whole x 100 to two decimals, half-up, from cents; 0.00 when the whole is 0. */
const percent = (part: bigint, whole: bigint) =>
  whole === 0n ? '0.00' : money((part * 20_000n + whole) / (2n * whole));

const policy = fc
  .record({
    party: fc.integer({ min: 0, max: 1 }),
    start: fc.integer({ min: -400, max: 200 }),
    days: fc.integer({ min: 30, max: 730 }),
    totalCents: fc.integer({ min: 1, max: 5_000_000 }),
    netShare: fc.integer({ min: 0, max: 100 }),
    rateHundredths: fc.integer({ min: 0, max: 10_000 }),
    paidShare: fc.integer({ min: 0, max: 100 }),
    instalments: fc.integer({ min: 1, max: 12 }),
    cancelled: fc.boolean(),
  })
  .map((drawn) => {
    const total = BigInt(drawn.totalCents);
    const paid = drawn.paidShare === 100 ? total : (total * BigInt(drawn.paidShare)) / 100n;
    return { ...drawn, total, net: (total * BigInt(drawn.netShare)) / 100n, paid };
  });

type Drawn = typeof policy extends fc.Arbitrary<infer Value> ? Value : never;

async function replaceBook(book: Drawn[]) {
  const today = new Date().toISOString().slice(0, 10);
  await withTenant(t.database.db, tenantId, async (tx) => {
    await tx.delete(policies).where(eq(policies.tenantId, tenantId));
    if (book.length === 0) return;
    await tx.insert(policies).values(
      book.map((drawn, index) => {
        const party = parties[drawn.party] as PolicyParties;
        const start = addDays(today, drawn.start);
        return {
          tenantId,
          policyNumber: `P-${index}`,
          customerId: party.customerId,
          companyId: party.companyId,
          policyTypeId: party.policyTypeId,
          startDate: start,
          endDate: addDays(start, drawn.days),
          totalPremium: money(drawn.total),
          netPremium: money(drawn.net),
          commissionPercentage: money(BigInt(drawn.rateHundredths)),
          paymentFrequency: 'custom' as const,
          customInstallments: drawn.instalments,
          amountPaid: money(drawn.paid),
          installmentsPaid: drawn.paid === drawn.total ? drawn.instalments : 0,
          totalInstallments: drawn.instalments,
          cancelledAt: drawn.cancelled ? today : null,
        };
      }),
    );
  });
}

async function everyPage(query: string, pageSize: number) {
  const pages: CommissionReport[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await as.get(
      `/api/policies/commission_batch/?${query}&page_size=${pageSize}&page=${page}`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const body = commissionReport.parse(answer.json());
    pages.push(body);
    if (!body.pagination.has_next) return pages;
  }
}

/** The totals a broker would get adding up these rows. */
function added(rows: CommissionReport['commission_data']) {
  const sum = (
    field: 'total_premium' | 'net_premium' | 'expected_commission' | 'received_commission' | 'amount_paid',
  ) => rows.reduce((total, row) => total + cents(row[field]), 0n);
  const [premium, net, expected, received, paid] = [
    sum('total_premium'),
    sum('net_premium'),
    sum('expected_commission'),
    sum('received_commission'),
    sum('amount_paid'),
  ];
  return {
    total_policies: rows.length,
    total_premium: money(premium),
    total_expected_commission: money(expected),
    total_received_commission: money(received),
    outstanding_commission: money(expected - received),
    commission_received_percentage: percent(received, expected),
    net,
    paid,
  };
}

describe('the summary', () => {
  it('is the sum of the rows over all pages, for the agency and each insurer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(policy, { maxLength: 14 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('', `start_date=${new Date().toISOString().slice(0, 10)}`, 'payment_status=Paid'),
        async (book, pageSize, filter) => {
          await replaceBook(book);
          const pages = await everyPage(filter, pageSize);
          const rows = pages.flatMap((page) => page.commission_data);
          expect(new Set(rows.map((row) => row.policy_id)).size).toBe(rows.length);
          const { summary, company_summary } = pages[0] as CommissionReport;
          for (const page of pages) expect(page.summary).toEqual(summary);

          const { net, paid, ...sums } = added(rows);
          expect(summary).toMatchObject(sums);
          expect(summary).toMatchObject({
            total_commission: sums.total_expected_commission,
            total_earned: sums.total_received_commission,
            total_paid: money(paid),
            total_pending: money(cents(sums.total_premium) - paid),
            average_commission_percentage: percent(cents(sums.total_expected_commission), net),
          });
          const insurers = [...new Set(rows.map((row) => row.company_id))];
          expect(company_summary.map((company) => company.company_id).sort()).toEqual(insurers.sort());
          for (const company of company_summary) {
            const {
              net: _net,
              paid: _paid,
              ...own
            } = added(rows.filter((row) => row.company_id === company.company_id));
            expect(company).toMatchObject(own);
          }
        },
      ),
      { numRuns: 25, seed: 20_261_123 },
    );
  });
});
