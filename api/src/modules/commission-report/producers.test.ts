import { randomInt } from 'node:crypto';
import {
  commissionReport,
  type ProducerReport,
  producerReport,
  type TeamMember,
  type TeamRole,
} from '@coverdesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookParties, type Caller, ok } from '../../../test/book-parties.js';
import { csvTable } from '../../../test/export-file.js';
import {
  addPlanWithout,
  apiAs,
  createTestApp,
  PASSWORD,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { hashPassword } from '../accounts/passwords.js';
import { users } from '../accounts/tables.js';
import { policies } from '../policies/tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;

/** A member of the agency with a role and a default split, signed in. */
async function memberOf(agency: Agency, names: [string, string], split: string, role: TeamRole = 'agent') {
  const email = `member-${randomInt(1e9)}@example.com`;
  const [row] = await t.database.db
    .insert(users)
    .values({
      tenantId: agency.user.tenant_id,
      email,
      passwordHash: await hashPassword(PASSWORD),
      firstName: names[0],
      lastName: names[1],
      role,
      commissionSplitPercentage: split,
    })
    .returning({ id: users.id });
  if (!row) throw new Error('no member');
  const session = await t.app.inject({
    method: 'POST',
    url: '/api/token/',
    payload: { email, password: PASSWORD },
    remoteAddress: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`,
  });
  expect(session.statusCode, session.body).toBe(200);
  return { id: row.id, as: apiAs(t.app, session.json().access) };
}

async function setSplit(userId: string, split: string) {
  await t.database.db.update(users).set({ commissionSplitPercentage: split }).where(eq(users.id, userId));
}

/**
 * Makes a member (or nobody) the policy's assignee and its producer, as if they had written it: at
 * their share in force today, or its own split.
 */
async function assign(
  tenantId: string,
  policyId: string,
  userId: string | null,
  split: string | null = null,
) {
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .update(policies)
      .set({
        assignedTo: userId,
        producerId: userId,
        producerShare: sql`member_share_on(${userId}, current_date)`,
        producerSplitPercentage: split,
      })
      .where(and(eq(policies.tenantId, tenantId), eq(policies.id, policyId))),
  );
}

/** Pays the policy's instalment number `sequence` (1-based) in full. */
async function pay(as: Caller, policyId: string, sequence: number) {
  const { results } = await ok<{ results: { id: string; sequence: number }[] }>(
    as.get(`/api/policies/${policyId}/installments/`),
  );
  const instalment = results.find((row) => row.sequence === sequence);
  if (!instalment) throw new Error(`no instalment ${sequence}`);
  await ok(as.post(`/api/installments/${instalment.id}/payment/`, { payment_method: 'bank_transfer' }));
}

async function producers(as: Caller, query: string): Promise<ProducerReport> {
  return producerReport.parse(await ok(as.get(`/api/commission-report/producers/?${query}`)));
}

const Q1 = 'date_from=2026-01-01&date_to=2026-03-31';

/**
 * The worked example, for the first quarter of 2026. Harel pays on the full policy (Motor 10 %),
 * Clal pro rata (Motor 12.5 %); net premium = total premium. Noa (the owner) splits 40 %, Avi 25 %.
 *
 * - PR-1 Noa, Harel, Dana, 1234.56 single, 1 Jan - 31 Dec 2026, paid. Expected 123.456 -> 123.46,
 *   received 123.46. Share 40 %: 49.3840 -> 49.38 on both.
 * - PR-2 Noa with her own split of 55.55 %, Clal, Yossi, 1000.00 quarterly, 1 Feb 2026 - 31 Jan
 *   2027, first 250.00 paid. Expected 125.00, received 125.00 x 250 / 1000 = 31.25. Share
 *   69.4375 -> 69.44 and 17.359375 -> 17.36.
 * - PR-3 Avi, Clal, Rina, 333.33 single, 1 Mar 2026 - 28 Feb 2027, unpaid. Expected 41.66625 ->
 *   41.67, received 0.00. Share 10.4175 -> 10.42 and 0.00.
 * - PR-4 Avi, Harel, Dana, 777.77 single, 31 Mar 2026 (the period's last day) - 30 Mar 2027, paid.
 *   Expected 77.777 -> 77.78, received 77.78. Share 19.445 -> 19.45 (a half, rounded up) on both.
 * - PR-5 nobody, Harel, Rina, 500.00 single, 15 Jan 2026 - 14 Jan 2027, paid. Expected and received
 *   50.00; share 0.00.
 * - PR-6 Noa, Harel, Dana, 100.00 single, 1 Apr 2026 - 31 Mar 2027: after the period. Expected
 *   10.00, share 4.00.
 * - PR-7 Avi, Clal, Yossi, 200.00 single, 2 Jan 2025 - 1 Jan 2026 (the period's first day),
 *   unpaid. Expected 25.00, received 0.00, share 6.25 and 0.00.
 *
 * First quarter: Noa PR-1, PR-2: expected 248.46, share 118.82, received 154.71, share 66.74.
 * Avi PR-3, PR-4, PR-7: expected 144.45, share 36.12, received 77.78, share 19.45.
 * Unassigned PR-5: 50.00, 0.00, 50.00, 0.00. Totals: 442.91, 154.94, 282.49, 86.19.
 */
async function workedExample() {
  const agency = await signedInAgency(t.app);
  const { as } = agency;
  const tenantId = agency.user.tenant_id;
  const parties = await addBookParties(as);
  const noa = agency.user.id;
  await setSplit(noa, '40');
  const avi = await memberOf(agency, ['Avi', 'Cohen'], '25');
  const policy = async (
    number: string,
    company: { id: string },
    customerId: string,
    terms: { start: string; end: string; premium: string; frequency?: string },
  ) =>
    (
      await ok<{ id: string }>(
        as.post('/api/policies/', {
          policy_number: number,
          customer_id: customerId,
          company_id: company.id,
          policy_type_id: parties.motor.id,
          start_date: terms.start,
          end_date: terms.end,
          total_premium: terms.premium,
          payment_frequency: terms.frequency ?? 'single',
        }),
        201,
      )
    ).id;
  const { harel, clal, dana, yossi, rina } = parties;
  const pr1 = await policy('PR-1', harel, dana, {
    start: '2026-01-01',
    end: '2026-12-31',
    premium: '1234.56',
  });
  await pay(as, pr1, 1);
  await assign(tenantId, pr1, noa);
  const pr2 = await policy('PR-2', clal, yossi, {
    start: '2026-02-01',
    end: '2027-01-31',
    premium: '1000.00',
    frequency: 'quarterly',
  });
  await pay(as, pr2, 1);
  await assign(tenantId, pr2, noa, '55.55');
  const pr3 = await policy('PR-3', clal, rina, { start: '2026-03-01', end: '2027-02-28', premium: '333.33' });
  await assign(tenantId, pr3, avi.id);
  const pr4 = await policy('PR-4', harel, dana, {
    start: '2026-03-31',
    end: '2027-03-30',
    premium: '777.77',
  });
  await pay(as, pr4, 1);
  await assign(tenantId, pr4, avi.id);
  const pr5 = await policy('PR-5', harel, rina, {
    start: '2026-01-15',
    end: '2027-01-14',
    premium: '500.00',
  });
  await pay(as, pr5, 1);
  await assign(tenantId, pr5, null);
  const pr6 = await policy('PR-6', harel, dana, {
    start: '2026-04-01',
    end: '2027-03-31',
    premium: '100.00',
  });
  await assign(tenantId, pr6, noa);
  const pr7 = await policy('PR-7', clal, yossi, {
    start: '2025-01-02',
    end: '2026-01-01',
    premium: '200.00',
  });
  await assign(tenantId, pr7, avi.id);
  return { agency, as, tenantId, noa, avi, harel, clal };
}

let example: Awaited<ReturnType<typeof workedExample>>;
beforeAll(async () => {
  example = await workedExample();
});

describe('producer shares', () => {
  it("gives each producer the report's commission and their share, half-up per policy, Unassigned last", async () => {
    const report = await producers(example.as, Q1);
    expect(report.results).toEqual([
      {
        user_id: example.avi.id,
        name: 'Avi Cohen',
        policies: 3,
        expected_commission: '144.45',
        producer_share_expected: '36.12',
        received_commission: '77.78',
        producer_share_received: '19.45',
      },
      {
        user_id: example.noa,
        name: 'Noa Peretz',
        policies: 2,
        expected_commission: '248.46',
        producer_share_expected: '118.82',
        received_commission: '154.71',
        producer_share_received: '66.74',
      },
      {
        user_id: null,
        name: 'Unassigned',
        policies: 1,
        expected_commission: '50.00',
        producer_share_expected: '0.00',
        received_commission: '50.00',
        producer_share_received: '0.00',
      },
    ]);
    expect(report.totals).toEqual({
      policies: 6,
      expected_commission: '442.91',
      producer_share_expected: '154.94',
      received_commission: '282.49',
      producer_share_received: '86.19',
    });
  });

  it("adds up to the commission report's own totals for the same period and insurer", async () => {
    for (const [ours, theirs] of [
      [Q1, 'start_date=2026-01-01&end_date=2026-03-31'],
      [
        `${Q1}&company_id=${example.harel.id}`,
        `start_date=2026-01-01&end_date=2026-03-31&company_id=${example.harel.id}`,
      ],
      ['', ''],
    ] as const) {
      const shares = await producers(example.as, ours);
      const report = commissionReport.parse(
        await ok(example.as.get(`/api/policies/commission_batch/?include=summary&${theirs}`)),
      );
      expect(shares.totals.policies).toBe(report.summary.total_policies);
      expect(shares.totals.expected_commission).toBe(report.summary.total_expected_commission);
      expect(shares.totals.received_commission).toBe(report.summary.total_received_commission);
    }
  });

  it("keeps the period's bounds inclusive, as the report does", async () => {
    // From 2 January, PR-7 (ended 1 January) is out: Avi keeps PR-3 and PR-4.
    const later = await producers(example.as, 'date_from=2026-01-02&date_to=2026-03-31');
    expect(later.results.find((row) => row.name === 'Avi Cohen')).toMatchObject({
      policies: 2,
      expected_commission: '119.45',
      producer_share_expected: '29.87',
      received_commission: '77.78',
      producer_share_received: '19.45',
    });
    // To 1 April, PR-6 (starting that day) is in: Noa adds 10.00 and her 4.00 of it.
    const longer = await producers(example.as, 'date_from=2026-01-01&date_to=2026-04-01');
    expect(longer.results.find((row) => row.name === 'Noa Peretz')).toMatchObject({
      policies: 3,
      expected_commission: '258.46',
      producer_share_expected: '122.82',
      received_commission: '154.71',
      producer_share_received: '66.74',
    });
    // A blank bound filters nothing; an end before the start is refused on date_to.
    expect((await producers(example.as, 'date_from=&date_to=')).totals.policies).toBe(7);
    const backwards = await example.as.get(
      '/api/commission-report/producers/?date_from=2026-02-01&date_to=2026-01-01',
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({ date_to: ['The end of the period cannot be before its start.'] });
  });

  it('keeps one insurer with company_id', async () => {
    const harel = await producers(example.as, `${Q1}&company_id=${example.harel.id}`);
    expect(
      harel.results.map((row) => [row.name, row.expected_commission, row.producer_share_expected]),
    ).toEqual([
      ['Avi Cohen', '77.78', '19.45'],
      ['Noa Peretz', '123.46', '49.38'],
      ['Unassigned', '50.00', '0.00'],
    ]);
    expect(harel.totals).toEqual({
      policies: 3,
      expected_commission: '251.24',
      producer_share_expected: '68.83',
      received_commission: '251.24',
      producer_share_received: '68.83',
    });
  });

  it('is a read any member may do, behind the commission report module', async () => {
    const viewer = await memberOf(example.agency, ['Rina', 'Viewer'], '0', 'viewer' as 'agent');
    expect((await viewer.as.get(`/api/commission-report/producers/?${Q1}`)).statusCode).toBe(200);
    const statement = await viewer.as.get(
      `/api/commission-report/producers/${example.avi.id}/statement/?${Q1}&format=csv`,
    );
    expect(statement.statusCode).toBe(200);

    const other = await signedInAgency(t.app);
    await setSubscription(t, other.user.tenant_id, {
      plan: await addPlanWithout(t, 'module_commission_reports'),
    });
    expect((await other.as.get('/api/commission-report/producers/')).statusCode).toBe(403);
    expect(
      (await other.as.get(`/api/commission-report/producers/${other.user.id}/statement/?format=csv`))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/api/commission-report/producers/' })).statusCode).toBe(401);
  });

  it("shows nothing of another agency's, and answers 404 for its members' statements", async () => {
    const other = await signedInAgency(t.app);
    const parties = await addBookParties(other.as);
    const created = await ok<{ id: string }>(
      other.as.post('/api/policies/', {
        policy_number: 'OTHER-1',
        customer_id: parties.dana,
        company_id: parties.harel.id,
        policy_type_id: parties.motor.id,
        start_date: '2026-01-01',
        end_date: '2026-12-31',
        total_premium: '900.00',
      }),
      201,
    );
    await assign(other.user.tenant_id, created.id, other.user.id);

    const theirs = await producers(other.as, Q1);
    expect(theirs.results).toEqual([
      {
        user_id: other.user.id,
        name: 'Noa Peretz',
        policies: 1,
        expected_commission: '90.00',
        producer_share_expected: '0.00',
        received_commission: '0.00',
        producer_share_received: '0.00',
      },
    ]);
    expect((await producers(example.as, Q1)).totals.policies).toBe(6);

    for (const [as, userId] of [
      [example.as, other.user.id],
      [other.as, example.avi.id],
    ] as const) {
      for (const format of ['csv', 'pdf']) {
        const answer = await as.get(`/api/commission-report/producers/${userId}/statement/?format=${format}`);
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toEqual({ detail: 'Not found.' });
      }
    }
    expect((await example.as.get('/api/commission-report/producers/not-an-id/statement/')).statusCode).toBe(
      400,
    );
  });
});

describe('the producer statement', () => {
  it("lists the producer's policies of the period with their share, and the totals, as CSV", async () => {
    const answer = await example.as.get(
      `/api/commission-report/producers/${example.noa}/statement/?${Q1}&format=csv`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="producer-statement_noa-peretz_2026-01-01_2026-03-31.csv"',
    );
    expect(answer.body.startsWith('\uFEFF')).toBe(true);
    expect(csvTable(answer.body)).toEqual([
      [
        'Policy number',
        'Customer',
        'Insurer',
        'Start date',
        'End date',
        'Expected commission',
        'Earned on customer payments',
        'Split %',
        'Share of expected',
        'Share of earned on payments',
      ],
      [
        'PR-1',
        'Dana Levi',
        'Harel',
        '2026-01-01',
        '2026-12-31',
        '123.46',
        '123.46',
        '40.00',
        '49.38',
        '49.38',
      ],
      [
        'PR-2',
        'Yossi Cohen',
        'Clal',
        '2026-02-01',
        '2027-01-31',
        '125.00',
        '31.25',
        '55.55',
        '69.44',
        '17.36',
      ],
      ['Total', '2 policies', '', '', '', '248.46', '154.71', '', '118.82', '66.74'],
    ]);
  });

  it('keeps to one insurer, and has only its totals line when nothing matches', async () => {
    const harel = await example.as.get(
      `/api/commission-report/producers/${example.avi.id}/statement/?${Q1}&company_id=${example.harel.id}&format=csv`,
    );
    expect(csvTable(harel.body).slice(1)).toEqual([
      ['PR-4', 'Dana Levi', 'Harel', '2026-03-31', '2027-03-30', '77.78', '77.78', '25.00', '19.45', '19.45'],
      ['Total', '1 policy', '', '', '', '77.78', '77.78', '', '19.45', '19.45'],
    ]);
    const none = await example.as.get(
      `/api/commission-report/producers/${example.avi.id}/statement/?date_from=2030-01-01&format=csv`,
    );
    expect(none.statusCode).toBe(200);
    expect(csvTable(none.body).slice(1)).toEqual([
      ['Total', '0 policies', '', '', '', '0.00', '0.00', '', '0.00', '0.00'],
    ]);
  });

  it('is a PDF by default', async () => {
    const answer = await example.as.get(`/api/commission-report/producers/${example.noa}/statement/?${Q1}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="producer-statement_noa-peretz_2026-01-01_2026-03-31.pdf"',
    );
    const pdf = answer.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const empty = await example.as.get(
      `/api/commission-report/producers/${example.avi.id}/statement/?date_from=2030-01-01&format=pdf`,
    );
    expect(empty.statusCode).toBe(200);
    expect(empty.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(
      (await example.as.get(`/api/commission-report/producers/${example.noa}/statement/?format=xlsx`))
        .statusCode,
    ).toBe(400);
  });
});

describe('a producer’s credit when the book changes hands', () => {
  it('keeps the report of a past period the same through a reassignment and a deactivation, a share changed mid-year', async () => {
    const agency = await signedInAgency(t.app);
    const { as } = agency;
    const parties = await addBookParties(as);
    const dana = await memberOf(agency, ['Dana', 'Mizrahi'], '30');
    const eli = await memberOf(agency, ['Eli', 'Katz'], '40');
    const vic = await memberOf(agency, ['Vic', 'Shani'], '0', 'viewer');
    // Harel pays 10 % on motor: 1,000.00 earns 100.00, 2,000.00 earns 200.00.
    const written = async (number: string, start: string, end: string, premium: string) =>
      (
        await ok<{ id: string }>(
          as.post('/api/policies/', {
            policy_number: number,
            customer_id: parties.dana,
            company_id: parties.harel.id,
            policy_type_id: parties.motor.id,
            start_date: start,
            end_date: end,
            total_premium: premium,
            payment_frequency: 'single',
            assigned_to: dana.id,
          }),
          201,
        )
      ).id;
    const spring = await written('PC-1', '2026-03-01', '2027-02-28', '1000.00');
    // Dana's share goes from 30 % to 35 % for what she writes from today; a day gone by is refused.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const backdated = await as.patch(`/api/team/members/${dana.id}/`, {
      commission_split_percentage: '35',
      commission_split_effective_from: twoDaysAgo,
    });
    expect(backdated.statusCode, backdated.body).toBe(400);
    expect(backdated.json().commission_split_effective_from).toEqual([
      'A share applies to the policies written from its day on: choose today or a later day.',
    ]);
    const raised = await ok<TeamMember>(
      as.patch(`/api/team/members/${dana.id}/`, { commission_split_percentage: '35' }),
    );
    expect(raised.commission_split_percentage).toBe('35.00');
    expect(raised.commission_split_history).toEqual([
      { effective_from: null, share: '30.00' },
      { effective_from: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), share: '35.00' },
    ]);
    const autumn = await written('PC-2', '2026-09-01', '2027-08-31', '2000.00');
    const year = 'date_from=2026-01-01&date_to=2026-12-31';
    const before = await producers(as, year);
    // 30 % of 100.00 and 35 % of 200.00.
    expect(before.results.map((row) => [row.name, row.policies, row.producer_share_expected])).toEqual([
      ['Dana Mizrahi', 2, '100.00'],
    ]);

    const handed = await ok<{ policies: number }>(
      as.post('/api/team/reassign/', { to: eli.id, policy_ids: [spring] }),
    );
    expect(handed.policies).toBe(1);
    expect(await producers(as, year)).toEqual(before);

    const toViewer = await as.patch(`/api/team/members/${dana.id}/`, {
      is_active: false,
      reassign_to: vic.id,
    });
    expect(toViewer.statusCode, toViewer.body).toBe(400);
    expect(toViewer.json().reassign_to).toEqual([
      'A viewer cannot look after customers: choose another member.',
    ]);

    await ok(as.patch(`/api/team/members/${dana.id}/`, { is_active: false, reassign_to: eli.id }));
    expect(await producers(as, year)).toEqual(before);
    const autumnNow = await ok<{ assigned_to: string | null }>(as.get(`/api/policies/${autumn}/`));
    expect(autumnNow.assigned_to).toBe(eli.id);

    // What Eli writes from now on is his: the autumn term's renewal, at his 40 % of 200.00.
    await ok(as.post(`/api/policies/${autumn}/renew/`, {}), 201);
    const next = await producers(as, 'date_from=2027-09-01&date_to=2027-12-31');
    expect(next.results.map((row) => [row.name, row.policies, row.producer_share_expected])).toEqual([
      ['Eli Katz', 1, '80.00'],
    ]);
    expect(await producers(as, year)).toEqual(before);
  });
});
