import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { type Document, LEAD_STATUSES, POLICY_STATUSES } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../test/book-parties.js';
import { SAMPLES, uploadDocument } from '../../../test/document-files.js';
import { apiAs, createTestApp, type TestApp } from '../../../test/test-app.js';
import type { Database } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { findDemoUser } from '../accounts/queries.js';
import { documents } from '../documents/tables.js';
import { resetDemoAgency } from './account.js';
import { claimRun, DEMO_RESET_JOB, nextResetAt, scheduleDemoReset } from './schedule.js';
import { scheduledRuns } from './tables.js';

let t: TestApp;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApp({}, { demoAgency: true });
  const demo = await findDemoUser(t.database.db);
  if (!demo) throw new Error('no demo agency');
  tenantId = demo.tenantId;
});
afterAll(() => t.close());

type Measures = Record<
  | 'policies'
  | 'customers'
  | 'companies'
  | 'policy_types'
  | 'installments'
  | 'payout_methods'
  | 'businesses'
  | 'schedules_off'
  | 'totals_off'
  | 'overdue'
  | 'partially_paid'
  | 'paid_on_past_dues'
  | 'past_dues'
  | 'cancelled_without_reason'
  | 'frequencies',
  number
>;

/** One row of numbers about the demo agency, read the way the app reads it: inside its tenant. */
const measure = (db: Database) =>
  withTenant(db, tenantId, async (tx) => {
    const { rows } = await tx.execute<Measures>(sql`select
      (select count(*)::int from policies) as policies,
      (select count(*)::int from customers) as customers,
      (select count(*)::int from companies) as companies,
      (select count(*)::int from policy_types) as policy_types,
      (select count(*)::int from installments) as installments,
      (select count(distinct commission_payment_method)::int from companies) as payout_methods,
      (select count(*)::int from customers where customer_type = 'business') as businesses,
      (select count(*)::int from policies p
        where p.total_premium <> (select sum(i.amount_due) from installments i where i.policy_id = p.id)
      ) as schedules_off,
      (select count(*)::int from policies p
        where p.amount_paid <> (select sum(i.amount_paid) from installments i where i.policy_id = p.id)
          or p.installments_paid <> (select count(*) from installments i where i.policy_id = p.id and i.status = 'paid')
          or p.total_installments <> (select count(*) from installments i where i.policy_id = p.id)
      ) as totals_off,
      (select count(*)::int from installments where status <> 'paid' and due_date < current_date) as overdue,
      (select count(*)::int from installments where status = 'partially_paid') as partially_paid,
      (select count(*)::int from installments where status = 'paid' and due_date < current_date) as paid_on_past_dues,
      (select count(*)::int from installments where due_date < current_date) as past_dues,
      (select count(*)::int from policies where cancelled_at is not null and cancellation_reason = '') as cancelled_without_reason,
      (select count(distinct payment_frequency)::int from policies) as frequencies`);
    return rows[0] as Measures;
  });

describe('demo agency', () => {
  it('holds a realistic book within the Professional limits', async () => {
    const numbers = await measure(t.database.db);
    expect(numbers.policies).toBeGreaterThanOrEqual(250);
    expect(numbers.policies).toBeLessThanOrEqual(500);
    expect(numbers.customers).toBeGreaterThanOrEqual(90);
    expect(numbers.customers).toBeLessThanOrEqual(1000);
    expect(numbers.companies).toBeGreaterThanOrEqual(4);
    expect(numbers.policy_types).toBeGreaterThanOrEqual(5);
    expect(numbers.payout_methods).toBe(2);
    expect(numbers.businesses).toBeGreaterThan(0);
    expect(numbers.frequencies).toBe(5);
    expect(numbers.cancelled_without_reason).toBe(0);
    // Instalments split each premium exactly, and the policies' copies of the totals agree with them.
    expect(numbers.schedules_off).toBe(0);
    expect(numbers.totals_off).toBe(0);
    // Most past instalments were paid; some only in part, some not at all.
    expect(numbers.overdue).toBeGreaterThan(0);
    expect(numbers.partially_paid).toBeGreaterThan(0);
    expect(numbers.paid_on_past_dues / numbers.past_dues).toBeGreaterThan(0.8);
  });

  it('shows every status and renewals due soon to the demo visitor', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    expect(login.statusCode).toBe(200);
    const as = apiAs(t.app, login.json().access_token);
    const stats = await as.get('/api/policies/stats/');
    expect(stats.statusCode).toBe(200);
    const body = stats.json();
    for (const status of POLICY_STATUSES) expect(body.by_status[status], status).toBeGreaterThan(0);
    expect(body.expiring_in_30_days).toBeGreaterThanOrEqual(3);

    const renewal = await as.get('/api/policies/?status=renewed&page_size=1');
    const [renewed] = renewal.json().results;
    const next = await as.get(`/api/policies/${renewed.renewed_to_id}/`);
    expect(next.json()).toMatchObject({
      renewed_from_id: renewed.id,
      policy_number: renewed.policy_number,
      start_date: expect.any(String),
    });
  });

  it('has an owner, an agent with a third of the book and a viewer to try it as', async () => {
    const as = async (role: string) => {
      const login = await t.app.inject({ method: 'POST', url: `/api/accounts/login/demo/?role=${role}` });
      expect(login.statusCode, login.body).toBe(200);
      expect(login.json().user.role).toBe(role);
      return apiAs(t.app, login.json().access_token);
    };
    const members = (await (await as('owner')).get('/api/team/members/')).json().results;
    expect(members.map((member: { role: string }) => member.role)).toEqual(['owner', 'agent', 'viewer']);
    const agent = members[1].id;
    const { rows } = await t.database.pool.query<{ mine: number; all: number }>(
      'select count(*) filter (where assigned_to = $1)::int as mine, count(*)::int as all from customers where tenant_id = $2',
      [agent, tenantId],
    );
    expect(rows[0]?.mine).toBe(Math.floor((rows[0]?.all ?? 0) / 3));
    const viewer = await as('viewer');
    expect((await viewer.get('/api/customers/')).statusCode).toBe(200);
    expect((await viewer.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' })).statusCode).toBe(
      403,
    );
    expect(
      (await (await as('agent')).post('/api/team/invitations/', { email: 'x@example.com', role: 'agent' }))
        .statusCode,
    ).toBe(403);
  });

  it('has a pipeline of leads in every status, with follow-ups due and two converted into customers', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const as = apiAs(t.app, login.json().access_token);
    const stats = (await as.get('/api/leads/stats/')).json();
    expect(stats.total).toBeGreaterThanOrEqual(25);
    for (const status of LEAD_STATUSES) expect(stats.by_status[status], status).toBeGreaterThan(0);
    for (const due of ['overdue', 'today', 'this_week']) {
      expect((await as.get(`/api/leads/?follow_up=${due}`)).json().count, due).toBeGreaterThan(0);
    }
    const won = (await as.get('/api/leads/?status=won&page_size=100')).json().results;
    const converted = won.filter((lead: { customer_id: string | null }) => lead.customer_id);
    expect(converted).toHaveLength(2);
    for (const lead of converted) {
      const customer = (await as.get(`/api/customers/${lead.customer_id}/`)).json();
      expect(customer).toMatchObject({
        first_name: lead.first_name,
        last_name: lead.last_name,
        email: lead.email,
      });
    }
    const timeline = (await as.get(`/api/leads/${converted[0].id}/activities/`)).json().results;
    expect(timeline.map((row: { to_status: string | null }) => row.to_status).filter(Boolean)).toEqual([
      'won',
      'quoted',
      'qualified',
      'contacted',
      'new',
    ]);
    expect(timeline.some((row: { activity_type: string }) => row.activity_type !== 'status_change')).toBe(
      true,
    );
    expect(new Set(timeline.map((row: { user_name: string }) => row.user_name))).toEqual(
      new Set(['Dana Demo']),
    );
  });

  it('has policies to renew in every window, and one marked as not renewing', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const as = apiAs(t.app, login.json().access_token);
    const counts = (await as.get('/api/alerts/expiring/counts/')).json();
    expect(counts.within_30).toBeGreaterThan(0);
    expect(counts.within_60).toBeGreaterThan(counts.within_30);
    expect(counts.within_90).toBeGreaterThan(counts.within_60);
    const soon = (await as.get('/api/policies/?expiring_within_days=90&page_size=100')).json();
    const marked = soon.results.filter(
      (policy: { not_renewing_at: string | null }) => policy.not_renewing_at,
    );
    expect(marked).toHaveLength(1);
    expect(marked[0].not_renewing_reason).toBe('Customer is moving abroad and will insure there.');
    expect(soon.count).toBe(counts.within_90 + 1);
  });

  it("has an insurer's statement accepted and last month's in review, showing what reconciling finds", async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const as = apiAs(t.app, login.json().access_token);
    const list = (await as.get('/api/commission-statements/')).json();
    expect(list.results.map((each: { status: string }) => each.status)).toEqual(['review', 'accepted']);
    const statement = (await as.get(`/api/commission-statements/${list.results[0].id}/`)).json();
    expect(statement.lines_total).toBe(statement.total_amount);
    expect(statement.counts).toMatchObject({ short_paid: 1, over_paid: 1, unmatched: 1 });
    expect(statement.counts.matched).toBeGreaterThanOrEqual(2);
    expect(statement.unconfirmed).toBe(1);
    // The accepted one reconciles its insurer: the short payment is still owed, by age. The other
    // insurers owed commission are listed too, as not reconciled yet.
    const owed = (await as.get('/api/commission-report/insurers-owed/')).json();
    const reconciled = owed.results.filter((each: { reconciled: boolean }) => each.reconciled);
    expect(reconciled.map((each: { company_id: string }) => each.company_id)).toEqual([
      list.results[1].company_id,
    ]);
    expect(Number(owed.totals.owed_by_insurer)).toBeGreaterThan(0);
    expect(Number(owed.totals.insurer_paid)).toBeGreaterThan(0);
  });

  it('is the same agency for the same day, and a reset replaces it rather than adding to it', async () => {
    const before = await measure(t.database.db);
    const day = new Date();
    const started = Date.now();
    expect(await resetDemoAgency(t.database.db, t.files, day)).toBe(true);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(15_000);
    expect(await measure(t.database.db)).toEqual(before);

    // Another day: still within the limits and still whole.
    const later = new Date(day.getTime() + 40 * 86_400_000);
    await resetDemoAgency(t.database.db, t.files, later);
    const other = await measure(t.database.db);
    expect(other.policies).toBeLessThanOrEqual(500);
    expect(other.schedules_off).toBe(0);
    expect(other.totals_off).toBe(0);
    await resetDemoAgency(t.database.db, t.files, day);
  });
});

describe("the demo agency's documents", () => {
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const demoDocuments = () => withTenant(t.database.db, tenantId, (tx) => tx.select().from(documents));
  /** The files the store keeps for the demo agency. */
  const storedFiles = () => {
    if (t.config.files.kind !== 'disk') throw new Error('these tests keep files on disk');
    return readdirSync(path.join(t.config.files.dir, tenantId)).sort();
  };

  it("holds a claim's paperwork, each file downloading with the hash it lists", async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const as = apiAs(t.app, login.json().access_token);
    const rows = await demoDocuments();
    expect(rows.map((row) => [row.contentType, row.category]).sort()).toEqual([
      ['application/pdf', 'policy_document'],
      ['image/png', 'claim_photo'],
      ['message/rfc822', 'correspondence'],
      ['text/plain', 'correspondence'],
    ]);
    // All on one customer, who lists them with those on the policy and the claim.
    const [customerId] = new Set(rows.map((row) => row.customerId));
    const listed = await ok<{ results: Document[] }>(as.get(`/api/documents/?customer_id=${customerId}`));
    expect(listed.results).toHaveLength(4);
    expect(new Set(listed.results.map((each) => each.uploaded_by_name))).toEqual(new Set(['Dana Demo']));
    for (const row of rows) {
      const download = await as.get(`/api/documents/${row.id}/download/`);
      expect(download.statusCode, row.fileName).toBe(200);
      expect(sha256(download.rawPayload), row.fileName).toBe(row.sha256);
    }
    const schedule = rows.find((row) => row.policyId);
    const policy = await ok<{ policy_number: string; customer_name: string }>(
      as.get(`/api/policies/${schedule?.policyId}/`),
    );
    const pdf = (await as.get(`/api/documents/${schedule?.id}/download/`)).rawPayload.toString('latin1');
    expect(pdf).toContain(`(${policy.policy_number})`);
    expect(pdf).toContain(`(${policy.customer_name})`);
    // What the resets above left unused is released by then.
    await t.app.documentFileReleases.settled();
    expect(storedFiles()).toEqual([...new Set(rows.map((row) => row.sha256))].sort());
  });

  it('keeps no file a reset left unused: yesterday’s schedule, a visitor’s upload', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const [first] = await demoDocuments();
    await ok(
      uploadDocument(t.app, login.json().access_token, { customer_id: first?.customerId ?? '' }, SAMPLES.csv),
      201,
    );
    const day = new Date();
    await resetDemoAgency(t.database.db, t.files, new Date(day.getTime() + 3 * 86_400_000));
    const other = await demoDocuments();
    await resetDemoAgency(t.database.db, t.files, day);
    await t.app.documentFileReleases.settled();
    const rows = await demoDocuments();
    // The photo and the call note are the same bytes every day; the schedule and the email are not.
    expect(other.filter((row) => rows.some((each) => each.sha256 === row.sha256))).toHaveLength(2);
    expect(storedFiles()).toEqual([...new Set(rows.map((row) => row.sha256))].sort());
  });
});

describe('daily reset', () => {
  it('lets exactly one of several instances claim a day', async () => {
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => claimRun(t.database.db, DEMO_RESET_JOB, '2031-05-06')),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimRun(t.database.db, DEMO_RESET_JOB, '2031-05-07')).toBe(true);
    expect(await claimRun(t.database.db, 'another-job', '2031-05-06')).toBe(true);
  });

  it('rebuilds the demo at 03:00 once the day is claimed', async () => {
    // The clock alone is faked (and keeps running), so the database driver's timers stay real.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(new Date(2031, 4, 8, 2, 59, 59, 800));
      const log = { info: vi.fn(), error: vi.fn() };
      const schedule = scheduleDemoReset(t.database.db, t.files, log as never);
      await vi.waitFor(() => expect(log.info).toHaveBeenCalled(), { timeout: 20_000 });
      await schedule.stop();
      expect(log.error).not.toHaveBeenCalled();
      const claims = await t.database.db
        .select()
        .from(scheduledRuns)
        .where(eq(scheduledRuns.runOn, '2031-05-08'));
      expect(claims.map((claim) => claim.job)).toEqual([DEMO_RESET_JOB]);
      const { rows } = await withTenant(t.database.db, tenantId, (tx) =>
        tx.execute<{ latest: string }>(sql`select max(start_date)::text as latest from policies`),
      );
      expect(rows[0]?.latest.slice(0, 4)).toBe('2031');
    } finally {
      vi.useRealTimers();
      await resetDemoAgency(t.database.db, t.files);
    }
  });

  it('falls due at the next 03:00 on the server clock', () => {
    expect(nextResetAt(new Date(2031, 4, 6, 2, 59))).toEqual(new Date(2031, 4, 6, 3, 0));
    expect(nextResetAt(new Date(2031, 4, 6, 3, 0))).toEqual(new Date(2031, 4, 7, 3, 0));
    expect(nextResetAt(new Date(2031, 4, 6, 23, 30))).toEqual(new Date(2031, 4, 7, 3, 0));
  });
});
