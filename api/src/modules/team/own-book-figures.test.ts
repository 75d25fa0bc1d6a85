import type { ProducerReport } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Agency,
  addClaim,
  addCustomer,
  addPolicy,
  addTeamMember,
  cover,
} from '../../../test/team-book.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' });
});
afterAll(() => t.close());

type Caller = Agency['as'];

/** The producers' shares over every term of the tests' book. */
const PRODUCERS = '/api/commission-report/producers/?date_from=2025-01-01&date_to=2026-12-31';

/**
 * The figures each report adds up, by path in its answer (`*` sums a list's items). Each is a count
 * or an amount of the book, so two agents who hold the whole book between them add up to it.
 */
const ADDED_UP: Record<string, string[]> = {
  '/api/policies/stats/': [
    'total',
    'by_status.active',
    'active_premium',
    'expected_commission',
    'received_commission',
  ],
  '/api/dashboard/': [
    'policies.active_policies',
    'policies.premium_in_force',
    'policies.by_type.*.policies',
    'commission.this_year.expected',
    'commission.this_year.received',
    'months.*.premium_written',
    'payments.overdue_count',
    'payments.overdue_amount',
    'claims.open_count',
  ],
  '/api/policies/commission_batch/': [
    'summary.total_policies',
    'summary.total_premium',
    'summary.total_expected_commission',
    'summary.total_received_commission',
    'summary.total_paid',
  ],
  '/api/analytics/portfolio/': [
    'in_force.policies',
    'in_force.premium',
    'commission_this_year.expected',
    'commission_this_year.received',
    'overdue.instalments',
    'overdue.amount',
  ],
  '/api/analytics/customers/': ['total_customers', 'active_customers', 'new_customers'],
  [PRODUCERS]: [
    'results.*.policies',
    'results.*.producer_share_expected',
    'results.*.producer_share_received',
    'totals.policies',
    'totals.expected_commission',
    'totals.producer_share_expected',
    'totals.received_commission',
    'totals.producer_share_received',
  ],
  '/api/analytics/portfolio-history/': [
    'results.*.new_policies',
    'results.*.premium_in_force',
    'results.*.expected_commission',
    'results.*.received_commission',
  ],
};

/** A figure of an answer in cents (or a count), summing the items of a list at `*`. */
function figure(body: unknown, path: string): number {
  const [head, ...rest] = path.split('.');
  if (head === undefined) return Math.round(Number(body) * 100);
  if (head === '*')
    return (body as unknown[]).reduce<number>((sum, item) => sum + figure(item, rest.join('.')), 0);
  const next = (body as Record<string, unknown>)[head];
  return rest.length ? figure(next, rest.join('.')) : Math.round(Number(next) * 100);
}

async function figures(as: Caller, url: string): Promise<Record<string, number>> {
  const response = await as.get(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  const body: unknown = response.json();
  return Object.fromEntries(ADDED_UP[url]?.map((path) => [path, figure(body, path)]) ?? []);
}

describe("an agent who sees only their own book reads their own book's figures", () => {
  it('on every report: two agents holding the book between them add up to the agency', async () => {
    const agency = await signedInAgency(t.app);
    const ari = await addTeamMember(t.app, agency, 'agent', 'Ari');
    const bea = await addTeamMember(t.app, agency, 'agent', 'Bea');
    // Their shares, set before they write their policies: each term records the share of its day.
    for (const [member, split] of [
      [ari, '40.00'],
      [bea, '25.00'],
    ] as const) {
      const set = await agency.as.patch(`/api/team/members/${member.id}/`, {
        commission_split_percentage: split,
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    const harel = await cover(agency.as);
    const clal = await cover(agency.as, 'Clal');

    // Ari: a monthly policy with its first instalment paid and the rest overdue, a single-payment
    // one with a claim. Bea: a quarterly policy with another insurer and one of last year.
    const ariel = await addCustomer(ari.as, { first_name: 'Ariel' });
    const aviv = await addCustomer(ari.as, { first_name: 'Aviv' });
    const monthly = await addPolicy(ari.as, harel, ariel.id, { payment_frequency: 'monthly' });
    await addPolicy(ari.as, harel, aviv.id, { total_premium: '3000.00' });
    const beatrice = await addCustomer(bea.as, { first_name: 'Beatrice' });
    await addPolicy(bea.as, clal, beatrice.id, { total_premium: '2400.00', payment_frequency: 'quarterly' });
    await addPolicy(bea.as, clal, beatrice.id, {
      start_date: '2025-01-01',
      end_date: '2025-12-31',
      total_premium: '900.00',
    });
    const instalments = (
      await agency.as.get(`/api/installments/?policy_id=${monthly.id}&ordering=due_date`)
    ).json() as {
      results: { id: string }[];
    };
    const first = instalments.results[0];
    expect(first).toBeDefined();
    const paid = await ari.as.post(`/api/installments/${first?.id}/payment/`, { payment_method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(200);
    await addClaim(ari.as, monthly.id);

    expect((await agency.as.patch('/api/team/settings/', { agents_see_own_book: true })).statusCode).toBe(
      200,
    );

    for (const url of Object.keys(ADDED_UP)) {
      const whole = await figures(agency.as, url);
      const aris = await figures(ari.as, url);
      const beas = await figures(bea.as, url);
      for (const path of Object.keys(whole)) {
        expect((aris[path] ?? Number.NaN) + (beas[path] ?? Number.NaN), `${url} ${path}`).toBe(whole[path]);
      }
      // Neither agent's figures are the agency's.
      expect(aris, url).not.toEqual(whole);
      expect(beas, url).not.toEqual(whole);
    }
    // Hand-worked: Ari's book holds his two policies' 4,200.00, Bea's her 2,400.00 in force.
    expect((await figures(ari.as, '/api/policies/stats/')).active_premium).toBe(420_000);
    expect((await figures(bea.as, '/api/policies/stats/')).active_premium).toBe(240_000);

    // The producers' shares of an agent's book are their own row alone: Ari's 12.5% of 1,200.00 and
    // 3,000.00 expected is 525.00, and his 40% of it 210.00.
    const producers = async (as: Caller) =>
      ((await as.get(PRODUCERS)).json() as ProducerReport).results.map((row) => [
        row.user_id,
        row.expected_commission,
        row.producer_share_expected,
      ]);
    expect(await producers(ari.as)).toEqual([[ari.id, '525.00', '210.00']]);
    expect((await producers(bea.as)).map(([id]) => id)).toEqual([bea.id]);
    expect((await producers(agency.as)).map(([id]) => id)).toEqual([ari.id, bea.id]);
    // Nor does Ari's statement, asked for by Bea, list a policy of his.
    const arisStatement = `/api/commission-report/producers/${ari.id}/statement/?format=csv&date_from=2025-01-01`;
    expect((await agency.as.get(arisStatement)).body).toContain('Ariel');
    const statement = await bea.as.get(arisStatement);
    expect(statement.statusCode, statement.body).toBe(200);
    expect(statement.body).not.toContain('Ariel');
    expect(statement.body).not.toContain('Aviv');
  });

  it("counts the agency's whole book against its plan, whatever the agent sees", async () => {
    const agency = await signedInAgency(t.app);
    const ari = await addTeamMember(t.app, agency, 'agent', 'Ari');
    await addCustomer(agency.as, { first_name: 'Owned' });
    await addCustomer(ari.as, { first_name: 'Ariel' });
    await agency.as.patch('/api/team/settings/', { agents_see_own_book: true });
    // The agency's plan allows three customers; it holds two, Ari sees one of them.
    await t.database.db.execute(sql`update plans set limits = jsonb_set(limits, '{customers}', '3')
      where id = (select plan_id from subscriptions where tenant_id = ${agency.user.tenant_id}::uuid)`);
    expect((await addCustomer(ari.as, { first_name: 'Third' })).first_name).toBe('Third');
    const fourth = await ari.as.post('/api/customers/', { first_name: 'Fourth', last_name: 'Levi' });
    expect(fourth.statusCode, fourth.body).toBe(402);
  });

  it("gives an agent's calendar feed their own book's events only", async () => {
    const agency = await signedInAgency(t.app);
    const ari = await addTeamMember(t.app, agency, 'agent', 'Ari');
    const harel = await cover(agency.as);
    const owners = await addPolicy(agency.as, harel, (await addCustomer(agency.as)).id);
    const aris = await addPolicy(ari.as, harel, (await addCustomer(ari.as)).id);
    await agency.as.patch('/api/team/settings/', { agents_see_own_book: true });
    const made = await ari.as.post('/api/calendar/feed/');
    expect(made.statusCode, made.body).toBe(201);
    const feed = await t.app.inject({
      method: 'GET',
      url: new URL((made.json() as { url: string }).url).pathname,
    });
    expect(feed.statusCode).toBe(200);
    // Both renewals fall within the feed's year ahead; only Ari's is his.
    expect(feed.body).toContain(aris.policy_number);
    expect(feed.body).not.toContain(owners.policy_number);
  });
});

/**
 * Rows of a member's kept totals (`table`, with `kept` its test of a group still holding something)
 * that the same groups summed afresh from the agency's policies, instalments or policy months do not have, and the
 * other way round: 0 when every member's kept figures are their own book's.
 */
async function keptAgainstSummed(tenantId: string, table: string, summed: string, kept: string) {
  const changes = (rows: string) =>
    `SELECT ${rows}.*, 1 AS sign FROM ${rows} WHERE tenant_id = '${tenantId}'`;
  const groups: Record<string, string> = {
    policy_book_groups: `policy_book_groups(book_member_changes('policies', $$${changes('policies')}$$), ', member_id')`,
    policy_type_totals_groups: `policy_type_totals_groups(book_member_changes('policies', $$${changes('policies')}$$), ', member_id')`,
    calendar_days: `(calendar_day_totals_groups('policies', book_member_changes('policies', $$${changes('policies')}$$), ', member_id')
      || ' UNION ALL ' || calendar_day_totals_groups('installments',
        book_member_changes('installments', $$${changes('installments')}$$), ', member_id'))`,
    // The history months summed from each policy's months, as book_months_follow sums them.
    history_months: `$$SELECT m.tenant_id, m.company_id, m.month, sum(m.in_force)::integer AS in_force,
        sum(m.premium_in_force) AS premium_in_force, sum(m.new_policies)::integer AS new_policies,
        sum(m.expected_commission) AS expected_commission, sum(m.renewed)::integer AS renewed,
        sum(m.ended_open)::integer AS ended_open, sum(m.cancelled)::integer AS cancelled,
        sum(m.received_full_policy) AS received_full_policy, sum(m.received_pro_rata) AS received_pro_rata,
        c.assigned_to AS member_id
      FROM policy_months m JOIN policies p ON p.id = m.policy_id JOIN customers c ON c.id = p.customer_id
      WHERE m.tenant_id = '${tenantId}' AND c.assigned_to IS NOT NULL
      GROUP BY m.tenant_id, m.company_id, m.month, c.assigned_to$$`,
  };
  const { rows } = await t.database.db.execute<{ query: string }>(
    sql.raw(`SELECT ${groups[summed]} AS query`),
  );
  const fresh = rows[0]?.query ?? '';
  const { rows: differing } = await t.database.db.execute<{ rows: number }>(
    sql.raw(`WITH kept AS (SELECT * FROM ${table} WHERE tenant_id = '${tenantId}' AND ${kept}),
      summed AS (SELECT * FROM (${fresh}) fresh WHERE ${kept})
      SELECT (SELECT count(*) FROM (SELECT * FROM kept EXCEPT ALL SELECT * FROM summed) k)
        + (SELECT count(*) FROM (SELECT * FROM summed EXCEPT ALL SELECT * FROM kept) s) AS rows`),
  );
  return Number(differing[0]?.rows);
}

describe("an agent's kept totals", () => {
  it('stay the sum of their own policies as policies are paid, deleted and customers change hands', async () => {
    const agency = await signedInAgency(t.app);
    const ari = await addTeamMember(t.app, agency, 'agent', 'Ari');
    const bea = await addTeamMember(t.app, agency, 'agent', 'Bea');
    const harel = await cover(agency.as);
    const ariel = await addCustomer(ari.as, { first_name: 'Ariel' });
    const aviv = await addCustomer(ari.as, { first_name: 'Aviv' });
    const monthly = await addPolicy(ari.as, harel, ariel.id, {
      payment_frequency: 'monthly',
      end_date: '2026-12-20',
    });
    await addPolicy(ari.as, harel, ariel.id, { total_premium: '3000.00' });
    const unpaid = await addPolicy(ari.as, harel, aviv.id, { payment_frequency: 'quarterly' });
    const beatrice = await addCustomer(bea.as, { first_name: 'Beatrice' });
    await addPolicy(bea.as, harel, beatrice.id, { total_premium: '2400.00', payment_frequency: 'quarterly' });
    const [first] = (
      (await agency.as.get(`/api/installments/?policy_id=${monthly.id}&ordering=due_date`)).json() as {
        results: { id: string }[];
      }
    ).results;
    expect(
      (await ari.as.post(`/api/installments/${first?.id}/payment/`, { payment_method: 'cash' })).statusCode,
    ).toBe(200);
    expect((await agency.as.patch('/api/team/settings/', { agents_see_own_book: true })).statusCode).toBe(
      200,
    );
    const ariBefore = await figures(ari.as, '/api/policies/stats/');

    // Ariel and his two policies go to Bea; Aviv's unpaid policy, instalments and all, is deleted.
    const moved = await agency.as.post('/api/team/reassign/', { to: bea.id, customer_ids: [ariel.id] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await agency.as.delete(`/api/policies/${unpaid.id}/`)).statusCode).toBe(204);

    const tenantId = agency.user.tenant_id;
    expect(
      await keptAgainstSummed(
        tenantId,
        'member_book_totals',
        'policy_book_groups',
        '(policies, total_premium, expected_commission, received_full_policy, received_pro_rata, net_premium, amount_paid) IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0)',
      ),
    ).toBe(0);
    expect(
      await keptAgainstSummed(
        tenantId,
        'member_type_totals',
        'policy_type_totals_groups',
        '(policies, total_premium) IS DISTINCT FROM (0, 0)',
      ),
    ).toBe(0);
    expect(
      await keptAgainstSummed(
        tenantId,
        'member_book_months',
        'history_months',
        `(in_force, premium_in_force, new_policies, expected_commission, renewed, ended_open, cancelled,
          received_full_policy, received_pro_rata) IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0)`,
      ),
    ).toBe(0);
    expect(
      await keptAgainstSummed(
        tenantId,
        'member_calendar_day_totals',
        'calendar_days',
        '(records, amount) IS DISTINCT FROM (0, 0)',
      ),
    ).toBe(0);

    // Ari keeps nothing in force; Bea holds her own 2,400.00 and Ariel's 4,200.00, and the two add
    // up to the agency on the reports that read the kept totals.
    expect(ariBefore.active_premium).toBe(540_000);
    expect((await figures(ari.as, '/api/policies/stats/')).active_premium).toBe(0);
    expect((await figures(bea.as, '/api/policies/stats/')).active_premium).toBe(660_000);
    for (const url of ['/api/policies/stats/', '/api/dashboard/', '/api/policies/commission_batch/']) {
      const whole = await figures(agency.as, url);
      const aris = await figures(ari.as, url);
      const beas = await figures(bea.as, url);
      for (const path of Object.keys(whole)) {
        expect((aris[path] ?? Number.NaN) + (beas[path] ?? Number.NaN), `${url} ${path}`).toBe(whole[path]);
      }
    }
    // A month of Bea's calendar counts the renewal she was handed; Ari's has none left.
    const december = '/api/calendar/events/?start=2026-12-01&end=2026-12-31&kinds=renewal';
    const renewals = async (as: Caller) =>
      ((await as.get(december)).json() as { results: { id: string }[] }).results.map((event) => event.id);
    expect(await renewals(bea.as)).toContain(`renewal:${monthly.id}`);
    expect(await renewals(ari.as)).toEqual([]);
  });
});
