import { addDays, type ExpiringCounts, type ExpiringPolicy, type Paged } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { column, day, exportBoth } from '../../../test/export-file.js';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import { addCustomer, addPolicy, addTeamMember, cover } from '../../../test/team-book.js';
import {
  addPlanWithout,
  createTestApp,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The day it is now in a time zone, as the agency there lives it. */
async function todayIn(timeZone: string) {
  const { rows } = await t.database.db.execute<{ day: string }>(
    sql`select (now() at time zone ${timeZone})::date::text as day`,
  );
  return rows[0]?.day ?? '';
}

/**
 * An agency in a time zone with one customer, insurer and type, and a way to add a year-long policy
 * ending `days` from the agency's today (negative: in the past).
 */
async function setUp(time_zone = 'Europe/London', names?: Parameters<typeof addPolicyParties>[1]) {
  const agency = await signedInAgency(t.app, { time_zone });
  const tenantId = agency.user.tenant_id;
  const today = await todayIn(time_zone);
  const parties = await addPolicyParties(agency.as, names);
  const endingIn = async (days: number, terms: { total_premium?: string; policy_number?: string } = {}) => {
    const end_date = addDays(today, days);
    const { id } = await insertPolicy(t, tenantId, parties, {
      policy_number: terms.policy_number ?? `END${days}`,
      start_date: addDays(end_date, -364),
      end_date,
      ...terms,
    });
    return id;
  };
  return { ...agency, tenantId, today, parties, endingIn };
}

type Caller = Awaited<ReturnType<typeof setUp>>['as'];

async function list(as: Caller, query = ''): Promise<Paged<ExpiringPolicy>> {
  const answer = await as.get(`/api/alerts/expiring/?page_size=100&${query}`);
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

const numbers = (page: Paged<ExpiringPolicy>) => page.results.map((row) => row.policy_number);

async function counts(as: Caller, query = ''): Promise<ExpiringCounts> {
  const answer = await as.get(`/api/alerts/expiring/counts/?${query}`);
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

/** The CSV's lines as cells; cells here hold no commas or quotes but the one test that says so. */
function csvLines(body: string) {
  return body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));
}

describe('expiring policies', () => {
  it("keeps each window's edges in the agency's day and lists lapsed policies from the last 30 days", async () => {
    const { as, endingIn } = await setUp('Pacific/Kiritimati');
    for (const days of [-31, -30, -1, 0, 30, 31, 60, 61, 90, 91]) await endingIn(days);

    expect(numbers(await list(as))).toEqual(['END-30', 'END-1', 'END0', 'END30']);
    expect(numbers(await list(as, 'include_lapsed=false'))).toEqual(['END0', 'END30']);
    expect(numbers(await list(as, 'within_days=60&include_lapsed=false'))).toEqual([
      'END0',
      'END30',
      'END31',
      'END60',
    ]);
    expect(numbers(await list(as, 'within_days=90'))).toEqual([
      'END-30',
      'END-1',
      'END0',
      'END30',
      'END31',
      'END60',
      'END61',
      'END90',
    ]);
    const rows = (await list(as, 'within_days=90')).results;
    expect(rows.map((row) => row.days_left)).toEqual([-30, -1, 0, 30, 31, 60, 61, 90]);
    expect(rows.map((row) => row.status)).toEqual([
      'expired',
      'expired',
      'active',
      'active',
      'active',
      'active',
      'active',
      'active',
    ]);
    expect(await counts(as)).toEqual({ within_30: 2, within_60: 4, within_90: 6, lapsed: 2 });
  });

  it("counts days from the agency's own today, not the server's", async () => {
    // Kiritimati (UTC+14) is always a day or two ahead of Pago Pago (UTC-11).
    const kiritimati = await setUp('Pacific/Kiritimati');
    const pagoPago = await setUp('Pacific/Pago_Pago');
    const end = addDays(kiritimati.today, 30);
    for (const agency of [kiritimati, pagoPago]) {
      await insertPolicy(t, agency.tenantId, agency.parties, {
        policy_number: 'TZ',
        start_date: addDays(end, -364),
        end_date: end,
      });
    }
    const [row] = (await list(kiritimati.as, 'within_days=90')).results;
    expect(row?.days_left).toBe(30);
    const [far] = (await list(pagoPago.as, 'within_days=90')).results;
    const behind = Math.round(
      (Date.parse(kiritimati.today) - Date.parse(pagoPago.today)) / (24 * 60 * 60 * 1000),
    );
    expect(behind).toBeGreaterThan(0);
    expect(far?.days_left).toBe(30 + behind);
    expect((await counts(kiritimati.as)).within_30).toBe(1);
    expect((await counts(pagoPago.as)).within_30).toBe(0);
  });

  it('answers the customer, insurer and type with each policy, and agrees with the policy list and stats', async () => {
    const { as, parties, endingIn } = await setUp('UTC', {
      customer: ['Dana', 'Levi'],
      company: 'Harel',
    });
    await as.put(`/api/customers/${parties.customerId}/`, {
      first_name: 'Dana',
      last_name: 'Levi',
      email: 'dana@example.com',
      phone: '+972 54 123 4567',
    });
    const id = await endingIn(12, { total_premium: '1234.50' });
    const [row] = (await list(as)).results;
    expect(row).toEqual({
      id,
      policy_number: 'END12',
      customer_id: parties.customerId,
      customer_name: 'Dana Levi',
      customer_email: 'dana@example.com',
      customer_phone: '+972 54 123 4567',
      company_id: parties.companyId,
      company_name: 'Harel',
      policy_type_name: expect.stringMatching(/^Motor /),
      total_premium: '1234.50',
      end_date: expect.any(String),
      days_left: 12,
      status: 'active',
    });
    await endingIn(45);
    for (const within of [30, 60, 90]) {
      const policies = (await as.get(`/api/policies/?expiring_within_days=${within}`)).json();
      expect((await list(as, `within_days=${within}&include_lapsed=false`)).count).toBe(policies.count);
    }
    const stats = (await as.get('/api/policies/stats/')).json();
    expect((await counts(as)).within_30).toBe(stats.expiring_in_30_days);
  });

  it('leaves out cancelled and renewed policies, and future terms', async () => {
    const { as, tenantId, today, parties, endingIn } = await setUp();
    const cancelled = await endingIn(10, { policy_number: 'CANCELLED' });
    const renewed = await endingIn(20, { policy_number: 'RENEWED' });
    const lapsedRenewed = await endingIn(-5, { policy_number: 'LAPSED-RENEWED' });
    const lapsedCancelled = await endingIn(-6, { policy_number: 'LAPSED-CANCELLED' });
    await endingIn(25, { policy_number: 'KEPT' });
    // Starts next week: pending, not expiring, even though it ends within 90 days.
    await insertPolicy(t, tenantId, parties, {
      policy_number: 'PENDING',
      start_date: addDays(today, 7),
      end_date: addDays(today, 60),
    });
    // Each cancelled within its term: the lapsed one before its end six days ago.
    for (const [id, cancelledAt] of [
      [cancelled, today],
      [lapsedCancelled, addDays(today, -8)],
    ] as const) {
      const answer = await as.post(`/api/policies/${id}/cancel/`, {
        cancelled_at: cancelledAt,
        reason: 'Sold the car',
      });
      expect(answer.statusCode).toBe(200);
    }
    for (const id of [renewed, lapsedRenewed]) {
      expect((await as.post(`/api/policies/${id}/renew/`, {})).statusCode).toBe(201);
    }
    expect(numbers(await list(as))).toEqual(['KEPT']);
    expect(await counts(as)).toEqual({ within_30: 1, within_60: 1, within_90: 1, lapsed: 0 });
  });

  it('sorts by end date or premium either way, and narrows by insurer and search', async () => {
    const { as, tenantId, endingIn } = await setUp();
    await endingIn(5, { policy_number: 'A', total_premium: '300.00' });
    await endingIn(15, { policy_number: 'B', total_premium: '100.00' });
    await endingIn(-3, { policy_number: 'C', total_premium: '200.00' });
    const other = await addPolicyParties(as, { customer: ['Omer', 'Katz'], company: 'Migdal' });
    await insertPolicy(t, tenantId, other, {
      policy_number: 'D',
      start_date: addDays(await todayIn('Europe/London'), -300),
      end_date: addDays(await todayIn('Europe/London'), 8),
      total_premium: '250.00',
    });

    expect(numbers(await list(as))).toEqual(['C', 'A', 'D', 'B']);
    expect(numbers(await list(as, 'ordering=-end_date'))).toEqual(['B', 'D', 'A', 'C']);
    expect(numbers(await list(as, 'ordering=total_premium'))).toEqual(['B', 'C', 'D', 'A']);
    expect(numbers(await list(as, 'ordering=-total_premium'))).toEqual(['A', 'D', 'C', 'B']);
    expect(numbers(await list(as, `company_id=${other.companyId}`))).toEqual(['D']);
    expect(numbers(await list(as, 'search=katz'))).toEqual(['D']);
    expect(await counts(as, 'search=katz')).toEqual({ within_30: 1, within_60: 1, within_90: 1, lapsed: 0 });

    // Pages follow the order without repeating a row.
    const first = (await as.get('/api/alerts/expiring/?page_size=2&ordering=-total_premium')).json();
    expect(numbers(first)).toEqual(['A', 'D']);
    expect(first.count).toBe(4);
    const second = (await as.get(first.next)).json();
    expect(numbers(second)).toEqual(['C', 'B']);
  });

  it('keeps the policies assigned to one member with Mine, in the list, its counts and its export', async () => {
    const agency = await setUp();
    const { as, today, endingIn } = agency;
    const avi = await addTeamMember(t.app, agency, 'agent', 'Avi');
    const bea = await addTeamMember(t.app, agency, 'agent', 'Bea');
    // Another insurer than the agency's first, whose name is taken.
    const parties = await cover(as, 'Clal');
    const customer = await addCustomer(as);
    const endingOn = (days: number) => ({
      start_date: addDays(today, days - 364),
      end_date: addDays(today, days),
    });
    await addPolicy(as, parties, customer.id, {
      policy_number: 'AVI-5',
      assigned_to: avi.id,
      ...endingOn(5),
    });
    await addPolicy(as, parties, customer.id, {
      policy_number: 'AVI-45',
      assigned_to: avi.id,
      ...endingOn(45),
    });
    await addPolicy(as, parties, customer.id, {
      policy_number: 'BEA-10',
      assigned_to: bea.id,
      ...endingOn(10),
    });
    // Written straight to the database: a policy no one looks after, which no one's Mine holds.
    await endingIn(3, { policy_number: 'NOBODY' });

    expect(numbers(await list(as, 'within_days=60'))).toEqual(['NOBODY', 'AVI-5', 'BEA-10', 'AVI-45']);
    // The owner looking at each member's book, and each member at their own.
    for (const caller of [as, avi.as]) {
      expect(numbers(await list(caller, `within_days=60&assigned_to=${avi.id}`))).toEqual([
        'AVI-5',
        'AVI-45',
      ]);
      expect(await counts(caller, `assigned_to=${avi.id}`)).toEqual({
        within_30: 1,
        within_60: 2,
        within_90: 2,
        lapsed: 0,
      });
    }
    for (const caller of [as, bea.as]) {
      expect(numbers(await list(caller, `assigned_to=${bea.id}`))).toEqual(['BEA-10']);
    }
    const exported = await as.get(
      `/api/alerts/expiring/export/?format=csv&within_days=60&assigned_to=${bea.id}`,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    expect(csvLines(exported.body).map((line) => line[0])).toEqual(['Policy number', 'BEA-10']);
  });

  it('takes a policy marked as not renewing off the list, shows why on the policy, and undoes it', async () => {
    const { as, endingIn } = await setUp();
    const leaving = await endingIn(10, { policy_number: 'LEAVING' });
    const lapsedId = await endingIn(-2, { policy_number: 'LAPSED' });
    await endingIn(20, { policy_number: 'STAYING' });
    expect(await counts(as)).toEqual({ within_30: 2, within_60: 2, within_90: 2, lapsed: 1 });

    const marked = await as.post(`/api/policies/${leaving}/not-renewing/`, {
      reason: '  Moving abroad; cover ends with the term.  ',
    });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({
      not_renewing_reason: 'Moving abroad; cover ends with the term.',
      status: 'active',
    });
    expect(Date.parse(marked.json().not_renewing_at)).not.toBeNaN();
    expect(
      (await as.post(`/api/policies/${lapsedId}/not-renewing/`, { reason: 'Sold the car' })).statusCode,
    ).toBe(200);

    expect(numbers(await list(as))).toEqual(['STAYING']);
    expect(await counts(as)).toEqual({ within_30: 1, within_60: 1, within_90: 1, lapsed: 0 });
    const policy = (await as.get(`/api/policies/${leaving}/`)).json();
    expect(policy.not_renewing_reason).toBe('Moving abroad; cover ends with the term.');
    expect(policy.not_renewing_at).toBe(marked.json().not_renewing_at);
    // The policy list still shows it, mark and all, as it shows every policy.
    const inList = (await as.get('/api/policies/?search=LEAVING')).json().results[0];
    expect(inList).toMatchObject({
      not_renewing_reason: policy.not_renewing_reason,
      not_renewing_at: policy.not_renewing_at,
    });

    const undone = await as.delete(`/api/policies/${leaving}/not-renewing/`);
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({ not_renewing_reason: '', not_renewing_at: null });
    // The lapsed policy keeps its mark.
    expect(numbers(await list(as))).toEqual(['LEAVING', 'STAYING']);
    // Undoing again changes nothing.
    expect((await as.delete(`/api/policies/${leaving}/not-renewing/`)).json().not_renewing_at).toBeNull();
  });

  it('lets a policy marked as not renewing be renewed after all, which clears the mark', async () => {
    const { as, endingIn } = await setUp();
    const id = await endingIn(10);
    await as.post(`/api/policies/${id}/not-renewing/`, { reason: 'Customer found a cheaper quote' });
    const renewal = await as.post(`/api/policies/${id}/renew/`, {});
    expect(renewal.statusCode).toBe(201);
    const renewed = (await as.get(`/api/policies/${id}/`)).json();
    // Renewed ten days before its end: active to its end, with its renewal agreed.
    expect(renewed).toMatchObject({ status: 'active', not_renewing_reason: '', not_renewing_at: null });
    expect(renewed.renewed_to_id).toBe(renewal.json().id);
    expect(numbers(await list(as))).not.toContain(renewed.policy_number);
    // A renewed or cancelled term is not up for renewal, so it cannot be marked.
    const again = await as.post(`/api/policies/${id}/not-renewing/`, { reason: 'Changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('This policy has already been renewed.');
    const cancelledId = await endingIn(11);
    await as.post(`/api/policies/${cancelledId}/cancel/`, { cancelled_at: '2026-01-02', reason: 'Sold' });
    const cancelled = await as.post(`/api/policies/${cancelledId}/not-renewing/`, { reason: 'Sold' });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().detail).toBe('A cancelled policy is not up for renewal.');
  });

  it('asks for a reason a policy will not renew, as every text field does', async () => {
    const { as, endingIn } = await setUp();
    const id = await endingIn(10);
    const url = `/api/policies/${id}/not-renewing/`;
    const refused = async (body: unknown) => {
      const answer = await as.post(url, body);
      expect(answer.statusCode).toBe(400);
      return answer.json();
    };
    expect(await refused({})).toEqual({ reason: ['This field is required.'] });
    expect(await refused({ reason: '   ' })).toEqual({ reason: ['This field may not be blank.'] });
    expect(await refused({ reason: 'x'.repeat(501) })).toEqual({
      reason: ['Ensure this field has no more than 500 characters.'],
    });
    expect(await refused({ reason: 'Leaving\u0000' })).toEqual({
      reason: ['This text contains a character that cannot be saved.'],
    });
    expect((await as.get(`/api/policies/${id}/`)).json().not_renewing_at).toBeNull();

    const badQuery = await as.get('/api/alerts/expiring/?within_days=45&ordering=premium');
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json()).toMatchObject({ within_days: ['Choose 30, 60 or 90 days.'] });
    expect(badQuery.json().ordering).toHaveLength(1);
  });

  it("answers 404 for another agency's policy and never lists it", async () => {
    const owner = await setUp();
    const id = await owner.endingIn(10);
    const other = await setUp();
    expect((await other.as.post(`/api/policies/${id}/not-renewing/`, { reason: 'Mine' })).statusCode).toBe(
      404,
    );
    expect((await other.as.delete(`/api/policies/${id}/not-renewing/`)).statusCode).toBe(404);
    expect((await list(other.as)).count).toBe(0);
    expect(await counts(other.as)).toEqual({ within_30: 0, within_60: 0, within_90: 0, lapsed: 0 });
    expect((await owner.as.get(`/api/policies/${id}/`)).json().not_renewing_at).toBeNull();
    expect(numbers(await list(owner.as))).toEqual(['END10']);
  });

  it('exports the rows the list shows, in its order, with formulas defused', async () => {
    const { as, tenantId, endingIn } = await setUp('UTC');
    await endingIn(5, { policy_number: 'A', total_premium: '300.00' });
    await endingIn(-3, { policy_number: 'B', total_premium: '200.00' });
    await endingIn(70, { policy_number: 'OUTSIDE' });
    const sly = await addPolicyParties(as, { customer: ['=HYPERLINK("x")', 'Cohen, Jr'], company: 'Migdal' });
    await insertPolicy(t, tenantId, sly, {
      policy_number: 'C',
      start_date: addDays(await todayIn('UTC'), -300),
      end_date: addDays(await todayIn('UTC'), 9),
      total_premium: '50.00',
    });

    const query = 'ordering=-total_premium&within_days=30';
    const answer = await as.get(`/api/alerts/expiring/csv/?${query}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="expiring-policies-${await todayIn('UTC')}.csv"`,
    );
    expect(
      answer.body.startsWith(
        '\uFEFFPolicy number,Customer,Email,Phone,Insurer,Policy type,Premium,End date,Days left,Status\r\n',
      ),
    ).toBe(true);
    expect(answer.body).toContain(`C,"'=HYPERLINK(""x"") Cohen, Jr",`);

    const shown = (await list(as, query)).results;
    const lines = csvLines(answer.body.replace(`"'=HYPERLINK(""x"") Cohen, Jr"`, 'SLY'));
    expect(lines.slice(1)).toEqual(
      shown.map((row) => [
        row.policy_number,
        row.customer_name.startsWith('=') ? 'SLY' : row.customer_name,
        row.customer_email,
        row.customer_phone,
        row.company_name,
        row.policy_type_name,
        row.total_premium,
        row.end_date,
        String(row.days_left),
        row.status,
      ]),
    );
    expect(shown.map((row) => row.policy_number)).toEqual(['A', 'B', 'C']);
    expect(lines.at(-2)?.[8]).toBe('-3');

    const { xlsx } = await exportBoth(as, '/api/alerts/expiring/export/', query);
    expect(column(xlsx, 'Policy number')).toEqual(['A', 'B', 'C']);
    expect(column(xlsx, 'Customer').at(-1)).toBe('=HYPERLINK("x") Cohen, Jr');
    expect(column(xlsx, 'Premium')).toEqual([300, 200, 50]);
    expect(column(xlsx, 'Days left')).toEqual([5, -3, 9]);
    expect(column(xlsx, 'End date')).toEqual(shown.map((row) => day(row.end_date)));
  });

  it('holds the plan gate: 403 without Expiring Policies in the plan, 402 without a subscription', async () => {
    const { as, tenantId } = await setUp();
    const paths = [
      '/api/alerts/expiring/',
      '/api/alerts/expiring/counts/',
      '/api/alerts/expiring/csv/',
      '/api/alerts/expiring/export/?format=xlsx',
    ];
    await setSubscription(t, tenantId, { plan: await addPlanWithout(t, 'module_alerts') });
    for (const path of paths) {
      const answer = await as.get(path);
      expect(answer.statusCode).toBe(403);
      expect(answer.json().detail).toMatch(/does not include Expiring Policies/);
    }
    await setSubscription(t, tenantId, { status: 'expired' });
    for (const path of paths) expect((await as.get(path)).statusCode).toBe(402);
    expect((await t.app.inject({ method: 'GET', url: paths[0] })).statusCode).toBe(401);
  });
});
