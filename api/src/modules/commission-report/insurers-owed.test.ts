import type { CommissionReport, InsurersOwed } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookParties, type Caller, ok } from '../../../test/book-parties.js';
import { readThrough, uploadStatement } from '../../../test/statement-upload.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' });
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;

/** `day` moved by `days`, as the API writes dates. */
function shifted(day: string, days: number) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const owed = (as: Caller, query = '') =>
  ok<InsurersOwed>(as.get(`/api/commission-report/insurers-owed/${query}`));

/** An accepted statement of `companyId` dated `day`, paying each policy number its amount. */
async function acceptedStatement(agency: Agency, companyId: string, day: string, lines: [string, string][]) {
  const total = lines.reduce((sum, [, amount]) => sum + Math.round(Number(amount) * 100), 0);
  const file = Buffer.from(
    `Policy No.,Commission\r\n${lines.map((line) => line.join(',')).join('\r\n')}\r\n`,
  );
  const { id } = await readThrough(
    agency.as,
    await uploadStatement(
      t.app,
      agency.access,
      { company_id: companyId, statement_date: day, total_amount: (total / 100).toFixed(2) },
      file,
      `statement-${day}.csv`,
    ),
  );
  await ok(agency.as.post(`/api/commission-statements/${id}/accept/`));
}

describe('what insurers owe, by age', () => {
  it('ages each policy’s owed commission from its start or due date, the oldest settled first, to the cent', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    const { as_of: today } = await owed(agency.as);
    const policy = (
      policy_number: string,
      company_id: string,
      start: number,
      body: Record<string, unknown>,
    ) =>
      ok<{ id: string }>(
        agency.as.post('/api/policies/', {
          policy_number,
          customer_id: parties.dana,
          company_id,
          policy_type_id: parties.motor.id,
          start_date: shifted(today, start),
          end_date: shifted(shifted(today, start), 364),
          ...body,
        }),
        201,
      );
    // Harel pays the whole term's 10% from its start, whatever the customer paid.
    const old = await policy('HA-1', parties.harel.id, -100, { total_premium: '1200.00' });
    await policy('HA-2', parties.harel.id, -40, { total_premium: '2400.00' });
    await policy('HA-3', parties.harel.id, 10, { total_premium: '600.00' });
    // Clal pays 12.5% of each quarterly instalment from its due date: 75.00 due 100 days ago, 75.00
    // due three months later (7 to 10 days ago), the rest still to come.
    await policy('CL-1', parties.clal.id, -100, { total_premium: '2400.00', payment_frequency: 'quarterly' });

    // Harel paid 50.00 of HA-1's 120.00, and 30.00 on HA-3, which owes nothing yet; Clal paid 100.00
    // of CL-1's 150.00, which settles the older 75.00 and 25.00 of the newer.
    await acceptedStatement(agency, parties.harel.id, today, [
      ['HA-1', '50.00'],
      ['HA-3', '30.00'],
    ]);
    await acceptedStatement(agency, parties.clal.id, today, [['CL-1', '100.00']]);

    const aged = await owed(agency.as);
    expect(aged.results).toEqual([
      {
        company_id: parties.clal.id,
        company_name: 'Clal',
        commission_payment_method: 'pro_rata',
        reconciled: true,
        insurer_paid: '100.00',
        days_0_30: '50.00',
        days_31_60: '0.00',
        days_61_90: '0.00',
        days_over_90: '0.00',
        overpaid: '0.00',
        owed_by_insurer: '50.00',
      },
      {
        company_id: parties.harel.id,
        company_name: 'Harel',
        commission_payment_method: 'full_policy',
        reconciled: true,
        insurer_paid: '80.00',
        days_0_30: '0.00',
        days_31_60: '240.00',
        days_61_90: '0.00',
        days_over_90: '70.00',
        overpaid: '-30.00',
        owed_by_insurer: '280.00',
      },
    ]);
    expect(aged.totals).toEqual({
      insurer_paid: '180.00',
      days_0_30: '50.00',
      days_31_60: '240.00',
      days_61_90: '0.00',
      days_over_90: '70.00',
      overpaid: '-30.00',
      owed_by_insurer: '330.00',
    });
    expect((await owed(agency.as, `?company_id=${parties.clal.id}`)).totals.owed_by_insurer).toBe('50.00');

    // The report's rows carry the same figure per policy, and add up to the insurer's.
    const report = await ok<CommissionReport>(
      agency.as.get(`/api/policies/commission_batch/?company_id=${parties.harel.id}&ordering=policy_number`),
    );
    expect(
      report.commission_data.map((row) => [
        row.policy_number,
        row.insurer_paid_commission,
        row.owed_by_insurer,
      ]),
    ).toEqual([
      ['HA-1', '50.00', '70.00'],
      ['HA-2', '0.00', '240.00'],
      ['HA-3', '30.00', '-30.00'],
    ]);
    const page = await ok<{ insurer_paid_commission: string }>(agency.as.get(`/api/policies/${old.id}/`));
    expect(page.insurer_paid_commission).toBe('50.00');
  });

  it('owes back, from the day it was taken, a chargeback beyond what was owed', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    const { as_of: today } = await owed(agency.as);
    // Starts next month, so Harel owes nothing on it yet; its statement took 40.00 back.
    await ok(
      agency.as.post('/api/policies/', {
        policy_number: 'HA-9',
        customer_id: parties.rina,
        company_id: parties.harel.id,
        policy_type_id: parties.motor.id,
        start_date: shifted(today, 30),
        end_date: shifted(today, 394),
        total_premium: '1000.00',
      }),
      201,
    );
    await acceptedStatement(agency, parties.harel.id, today, [['HA-9', '-40.00']]);
    expect((await owed(agency.as)).totals).toMatchObject({
      insurer_paid: '-40.00',
      days_0_30: '40.00',
      overpaid: '0.00',
      owed_by_insurer: '40.00',
    });
  });

  it("ages every insurer with commission owed, a never-reconciled one marked so, and is the agency's own", async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addBookParties(agency.as);
    const { as_of: today } = await owed(agency.as);
    const policy = (policy_number: string, company_id: string) =>
      ok(
        agency.as.post('/api/policies/', {
          policy_number,
          customer_id: parties.dana,
          company_id,
          policy_type_id: parties.motor.id,
          start_date: shifted(today, -5),
          end_date: shifted(today, 359),
          total_premium: '1000.00',
        }),
        201,
      );
    await policy('HA-1', parties.harel.id);
    await policy('CL-1', parties.clal.id);
    // Before any statement, what each insurer owes is listed, marked as never reconciled.
    const before = await owed(agency.as);
    expect(
      before.results.map((row) => [row.company_name, row.reconciled, row.insurer_paid, row.days_0_30]),
    ).toEqual([
      ['Clal', false, '0.00', '125.00'],
      ['Harel', false, '0.00', '100.00'],
    ]);
    expect(before.totals.owed_by_insurer).toBe('225.00');
    await acceptedStatement(agency, parties.harel.id, today, [['HA-1', '60.00']]);
    const aged = await owed(agency.as);
    expect(aged.results.map((row) => [row.company_name, row.reconciled, row.owed_by_insurer])).toEqual([
      ['Clal', false, '125.00'],
      ['Harel', true, '40.00'],
    ]);
    expect(aged.totals.owed_by_insurer).toBe('165.00');
    expect((await owed(agency.as, `?company_id=${parties.clal.id}`)).results).toHaveLength(1);

    const other = await signedInAgency(t.app);
    const nothing = await owed(other.as, `?company_id=${parties.harel.id}`);
    expect(nothing.results).toEqual([]);
    expect(nothing.totals.owed_by_insurer).toBe('0.00');
  });
});
