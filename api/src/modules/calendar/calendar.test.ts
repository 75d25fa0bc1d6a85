import {
  CALENDAR_DAY_DETAIL_LIMIT,
  type CalendarEvent,
  calendarEventList,
  MEETING_END_BEFORE_START,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import {
  addPlanWithout,
  apiAs,
  createTestApp,
  PASSWORD,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { users } from '../accounts/tables.js';
import { tenants } from '../tenants/tables.js';
import { escapeText, foldLine } from './ics.js';

const ADMIN_EMAIL = 'ops@coverdesk.test';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: [ADMIN_EMAIL] });
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;

const eventsOf = async (agency: Agency, query: string): Promise<CalendarEvent[]> => {
  const response = await agency.as.get(`/api/calendar/events/?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  // The database writes the events' JSON: it must be what the contract says, field for field.
  const { results } = response.json();
  expect(calendarEventList.strict().parse({ results }).results).toEqual(results);
  return results;
};

const meetingBody = {
  title: 'Review the fleet cover',
  start: '2026-01-31T10:00:00Z',
  end: '2026-01-31T11:00:00Z',
};

/**
 * An agency with one record of every kind dated in January 2026, the last day's ones at local
 * times whose UTC day is another: 20:00 on the 31st in Honolulu is already February 1st in UTC,
 * 05:00 on the 31st in Kiritimati still January 30th.
 */
async function agencyWithEveryKind(timeZone: string, offset: string, localTime: string) {
  const agency = await signedInAgency(t.app, { time_zone: timeZone });
  const parties = await addPolicyParties(agency.as, { customer: ['Noa', 'Peretz'], company: 'Harel' });
  const policy = await insertPolicy(t, agency.user.tenant_id, parties, {
    policy_number: 'P-1042',
    start_date: '2026-01-15',
    end_date: '2026-01-31',
  });
  const claim = await agency.as.post('/api/claims/', {
    policy_id: policy.id,
    claim_number: 'CLM-2026-0001',
    incident_date: '2026-01-20',
    reported_date: '2026-01-31',
    claim_type: 'accident',
    amount_claimed: '900.00',
  });
  expect(claim.statusCode, claim.body).toBe(201);
  const lead = await agency.as.post('/api/leads/', {
    first_name: 'Maya',
    last_name: 'Golan',
    next_follow_up_at: `2026-01-31T${localTime}${offset}`,
    assigned_user_id: agency.user.id,
  });
  expect(lead.statusCode, lead.body).toBe(201);
  const meeting = await agency.as.post('/api/calendar/meetings/', {
    ...meetingBody,
    start: `2026-01-31T${localTime}${offset}`,
    end: `2026-01-31T23:00:00${offset}`,
    customer_id: parties.customerId,
  });
  expect(meeting.statusCode, meeting.body).toBe(201);
  return {
    agency,
    parties,
    policyId: policy.id,
    installmentId: policy.installmentIds[0],
    claimId: claim.json().id as string,
    leadId: lead.json().id as string,
    meeting: meeting.json(),
  };
}

describe('calendar events', () => {
  for (const [timeZone, offset, localTime] of [
    ['Pacific/Honolulu', '-10:00', '20:00:00'],
    ['Pacific/Kiritimati', '+14:00', '05:00:00'],
  ] as const) {
    it(`shows each kind once on the agency's own days in ${timeZone}`, async () => {
      const made = await agencyWithEveryKind(timeZone, offset, localTime);
      const { agency } = made;
      const month = await eventsOf(agency, 'start=2026-01-01&end=2026-01-31');
      const byKind = (kind: string) => month.filter((event) => event.kind === kind);
      for (const kind of [
        'renewal',
        'installment',
        'follow_up',
        'claim_incident',
        'claim_reported',
        'meeting',
      ]) {
        expect(byKind(kind), kind).toHaveLength(1);
      }
      expect(byKind('renewal')[0]).toMatchObject({
        id: `renewal:${made.policyId}`,
        title: 'Renewal: P-1042 · Noa Peretz',
        all_day: true,
        start: '2026-01-31',
        end: null,
        url: `/policies/${made.policyId}`,
        company_id: made.parties.companyId,
        company_name: 'Harel',
        count: 1,
      });
      // January 2026 is past: the unpaid instalment is overdue.
      expect(byKind('installment')[0]).toMatchObject({
        id: `installment:${made.installmentId}`,
        title: 'Instalment 1: P-1042 · Noa Peretz',
        start: '2026-01-15',
        url: `/payments/policy/${made.policyId}`,
        overdue: true,
        amount: '1200.00',
      });
      expect(byKind('claim_incident')[0]).toMatchObject({
        title: expect.stringMatching(/^Incident: CLM-2026-\d{4} · Noa Peretz$/),
        start: '2026-01-20',
        url: `/claims/${made.claimId}`,
      });
      expect(byKind('claim_reported')[0]).toMatchObject({
        start: '2026-01-31',
        url: `/claims/${made.claimId}`,
      });
      expect(byKind('follow_up')[0]).toMatchObject({
        id: `follow_up:${made.leadId}`,
        title: 'Follow up: Maya Golan',
        all_day: false,
        start: new Date(`2026-01-31T${localTime}${offset}`).toISOString(),
        assignee_id: agency.user.id,
        url: `/leads/${made.leadId}`,
      });
      expect(byKind('meeting')[0]).toMatchObject({
        id: `meeting:${made.meeting.id}`,
        title: meetingBody.title,
        start: new Date(`2026-01-31T${localTime}${offset}`).toISOString(),
        end: new Date(`2026-01-31T23:00:00${offset}`).toISOString(),
        assignee_id: agency.user.id,
        url: `/calendar?meeting=${made.meeting.id}`,
      });

      // The 31st alone holds the renewal, the report, the follow-up and the meeting; the UTC
      // neighbour of that day holds none of them.
      const kindsOn = async (day: string) =>
        (await eventsOf(agency, `start=${day}&end=${day}`)).map((event) => event.kind).sort();
      expect(await kindsOn('2026-01-31')).toEqual(['claim_reported', 'follow_up', 'meeting', 'renewal']);
      expect(await kindsOn(timeZone === 'Pacific/Honolulu' ? '2026-02-01' : '2026-01-30')).toEqual([]);

      // Filters: by kind, by insurer (no follow-ups or meetings), by assignee (only those).
      expect(
        (await eventsOf(agency, 'start=2026-01-01&end=2026-01-31&kinds=meeting,renewal')).map((e) => e.kind),
      ).toEqual(['renewal', 'meeting']);
      const insurer = await eventsOf(
        agency,
        `start=2026-01-01&end=2026-01-31&company=${made.parties.companyId}`,
      );
      expect(insurer.map((event) => event.kind).sort()).toEqual([
        'claim_incident',
        'claim_reported',
        'installment',
        'renewal',
      ]);
      const mine = await eventsOf(agency, `start=2026-01-01&end=2026-01-31&assignee=${agency.user.id}`);
      expect(mine.map((event) => event.kind).sort()).toEqual(['follow_up', 'meeting']);
    });
  }

  it('leaves out paid instalments, cancelled policies and closed leads', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addPolicyParties(agency.as);
    const paid = await insertPolicy(t, agency.user.tenant_id, parties, {
      start_date: '2026-03-01',
      end_date: '2026-03-31',
    });
    const pay = await agency.as.post(`/api/installments/${paid.installmentIds[0]}/payment/`, {
      payment_method: 'cash',
    });
    expect(pay.statusCode, pay.body).toBe(200);
    const cancelled = await insertPolicy(t, agency.user.tenant_id, parties, {
      start_date: '2026-03-01',
      end_date: '2026-03-30',
    });
    const cancel = await agency.as.post(`/api/policies/${cancelled.id}/cancel/`, {
      cancelled_at: '2026-03-02',
      reason: 'Sold the car',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await agency.as.post('/api/leads/', {
      first_name: 'Lost',
      last_name: 'Lead',
      status: 'lost',
      lost_reason: 'Price',
      next_follow_up_at: '2026-03-10T09:00:00Z',
    });
    const events = await eventsOf(agency, 'start=2026-03-01&end=2026-03-31');
    expect(events.map((event) => `${event.kind} ${event.start}`)).toEqual([
      // The cancelled policy's unpaid instalment is still owed.
      'installment 2026-03-01',
      'renewal 2026-03-31',
    ]);
  });

  it(`sums a day with more than ${CALENDAR_DAY_DETAIL_LIMIT} records of a kind into one event`, async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addPolicyParties(agency.as);
    for (let index = 0; index <= CALENDAR_DAY_DETAIL_LIMIT; index++) {
      await insertPolicy(t, agency.user.tenant_id, parties, {
        start_date: '2026-05-04',
        end_date: `2026-05-${index === 0 ? '30' : '31'}`,
        total_premium: '100.50',
      });
    }
    const events = await eventsOf(agency, 'start=2026-05-01&end=2026-05-31');
    const instalments = events.filter((event) => event.kind === 'installment');
    expect(instalments).toEqual([
      expect.objectContaining({
        id: 'installment:day:2026-05-04',
        title: `${CALENDAR_DAY_DETAIL_LIMIT + 1} instalments due`,
        count: CALENDAR_DAY_DETAIL_LIMIT + 1,
        amount: (100.5 * (CALENDAR_DAY_DETAIL_LIMIT + 1)).toFixed(2),
        url: '/payments?status=due&due_date_from=2026-05-04&due_date_to=2026-05-04',
        overdue: true,
      }),
    ]);
    // Renewals: one on the 30th, twenty on the 31st, each shown.
    expect(events.filter((event) => event.kind === 'renewal')).toHaveLength(CALENDAR_DAY_DETAIL_LIMIT + 1);
    // By insurer the day is counted afresh, and its link keeps the insurer.
    const byInsurer = await eventsOf(agency, `start=2026-05-04&end=2026-05-04&company=${parties.companyId}`);
    expect(byInsurer).toEqual([
      expect.objectContaining({
        id: 'installment:day:2026-05-04',
        count: CALENDAR_DAY_DETAIL_LIMIT + 1,
        url: `/payments?status=due&due_date_from=2026-05-04&due_date_to=2026-05-04&company_id=${parties.companyId}`,
      }),
    ]);
  });

  it('answers 400 with field messages for a window that ends first, lasts too long or is not dates', async () => {
    const agency = await signedInAgency(t.app);
    const backwards = await agency.as.get('/api/calendar/events/?start=2026-02-01&end=2026-01-31');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({ end: ['The window must end on or after its first day.'] });
    const long = await agency.as.get('/api/calendar/events/?start=2026-01-01&end=2027-02-05');
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ end: ['Ask for at most 400 days at a time.'] });
    expect((await agency.as.get('/api/calendar/events/?start=2026-01-01&end=2027-02-04')).statusCode).toBe(
      200,
    );
    const junk = await agency.as.get('/api/calendar/events/?start=soon&end=2026-01-01&kinds=renewal,parties');
    expect(junk.statusCode).toBe(400);
    expect(Object.keys(junk.json()).sort()).toEqual(['kinds.1', 'start']);
  });

  it('leaves out the kinds whose module the plan lacks, and refuses a plan without the calendar', async () => {
    const { agency } = await agencyWithEveryKind('UTC', 'Z', '09:00:00');
    await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, 'module_leads') });
    const kinds = (await eventsOf(agency, 'start=2026-01-01&end=2026-01-31')).map((event) => event.kind);
    expect(kinds).not.toContain('follow_up');
    expect(kinds).toContain('renewal');
    // Asking for the kind by name does not bring it back.
    expect(await eventsOf(agency, 'start=2026-01-01&end=2026-01-31&kinds=follow_up')).toEqual([]);

    await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, 'module_calendar') });
    const refused = await agency.as.get('/api/calendar/events/?start=2026-01-01&end=2026-01-31');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/does not include Calendar/);
    expect((await agency.as.post('/api/calendar/meetings/', meetingBody)).statusCode).toBe(403);
  });
});

describe('meetings', () => {
  it('are created, read, moved, made all-day and deleted', async () => {
    const agency = await signedInAgency(t.app);
    const lead = (await agency.as.post('/api/leads/', { first_name: 'Maya', last_name: 'Golan' })).json();
    const created = await agency.as.post('/api/calendar/meetings/', {
      ...meetingBody,
      lead_id: lead.id,
      location: 'Their office, Haifa',
      video_url: 'https://meet.example.com/abc',
      notes: 'Bring the renewal quote.',
      reminder_minutes: 30,
    });
    expect(created.statusCode, created.body).toBe(201);
    const meeting = created.json();
    expect(meeting).toMatchObject({
      title: meetingBody.title,
      all_day: false,
      start: '2026-01-31T10:00:00.000Z',
      end: '2026-01-31T11:00:00.000Z',
      lead_id: lead.id,
      lead_name: 'Maya Golan',
      customer_id: null,
      reminder_minutes: 30,
      owner_id: agency.user.id,
    });
    expect((await agency.as.get(`/api/calendar/meetings/${meeting.id}/`)).json()).toEqual(meeting);

    const moved = await agency.as.put(`/api/calendar/meetings/${meeting.id}/`, {
      ...meetingBody,
      start: '2026-02-02T14:00:00+02:00',
      end: '2026-02-02T16:30:00+02:00',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      start: '2026-02-02T12:00:00.000Z',
      end: '2026-02-02T14:30:00.000Z',
      lead_id: null,
    });

    const allDay = await agency.as.put(`/api/calendar/meetings/${meeting.id}/`, {
      ...meetingBody,
      all_day: true,
      start: '2026-02-03',
      end: '2026-02-04',
    });
    expect(allDay.json()).toMatchObject({ all_day: true, start: '2026-02-03', end: '2026-02-04' });
    const [event] = await eventsOf(agency, 'start=2026-02-04&end=2026-02-10');
    expect(event).toMatchObject({ kind: 'meeting', all_day: true, start: '2026-02-03', end: '2026-02-04' });
    const listed = await agency.as.get('/api/calendar/meetings/?start=2026-02-01&end=2026-02-28');
    expect(listed.json().results.map((row: { id: string }) => row.id)).toEqual([meeting.id]);

    expect((await agency.as.delete(`/api/calendar/meetings/${meeting.id}/`)).statusCode).toBe(204);
    expect((await agency.as.get(`/api/calendar/meetings/${meeting.id}/`)).statusCode).toBe(404);
    expect(await eventsOf(agency, 'start=2026-02-01&end=2026-02-28')).toEqual([]);
  });

  it('refuses an end before the start, bad moments and another agency’s customer, field by field', async () => {
    const agency = await signedInAgency(t.app);
    const other = await signedInAgency(t.app);
    const theirCustomer = (
      await other.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' })
    ).json();
    const backwards = await agency.as.post('/api/calendar/meetings/', {
      ...meetingBody,
      end: '2026-01-31T09:00:00Z',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({ end: [MEETING_END_BEFORE_START] });
    const bad = await agency.as.post('/api/calendar/meetings/', {
      title: '',
      all_day: true,
      start: '2026-01-31T10:00:00Z',
      end: '2026-02-31',
      video_url: 'meet.example.com',
      reminder_minutes: -5,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual([
      'end',
      'reminder_minutes',
      'start',
      'title',
      'video_url',
    ]);
    const tooLong = await agency.as.post('/api/calendar/meetings/', {
      ...meetingBody,
      end: '2026-03-15T10:00:00Z',
    });
    expect(tooLong.json()).toEqual({ end: ['A meeting can last at most 31 days.'] });
    const foreign = await agency.as.post('/api/calendar/meetings/', {
      ...meetingBody,
      customer_id: theirCustomer.id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ customer_id: ['No customer with this id.'] });
  });

  it("never shows another agency's events or meetings", async () => {
    const { agency, meeting } = await agencyWithEveryKind('UTC', 'Z', '09:00:00');
    const other = await signedInAgency(t.app);
    expect(await eventsOf(other, 'start=2026-01-01&end=2026-01-31')).toEqual([]);
    expect(
      (await other.as.get('/api/calendar/meetings/?start=2026-01-01&end=2026-01-31')).json().results,
    ).toEqual([]);
    const url = `/api/calendar/meetings/${meeting.id}/`;
    expect((await other.as.get(url)).statusCode).toBe(404);
    expect((await other.as.put(url, meetingBody)).statusCode).toBe(404);
    expect((await other.as.delete(url)).statusCode).toBe(404);
    expect((await agency.as.get(url)).json().title).toBe(meetingBody.title);
  });
});

describe('calendar feed', () => {
  const feedPath = (url: string) => new URL(url).pathname;

  it('serves the agency’s events as iCalendar to the secret address until it is replaced or turned off', async () => {
    const agency = await signedInAgency(t.app);
    expect((await agency.as.get('/api/calendar/feed/')).json()).toEqual({
      active: false,
      created_at: null,
      url: null,
    });
    const today = new Date().toISOString().slice(0, 10);
    await agency.as.post('/api/calendar/meetings/', {
      title: 'Lunch; review, then sign\\file',
      all_day: true,
      start: today,
      end: today,
    });
    await agency.as.post('/api/calendar/meetings/', {
      title: `Call ${'about the fleet cover and its many vehicles '.repeat(3)}ü`,
      start: `${today}T10:00:00Z`,
      end: `${today}T10:30:00Z`,
      location: 'Office, 2nd floor',
      video_url: 'https://meet.example.com/fleet',
      notes: 'Bring the fleet list.\nAsk about the trailer.',
    });
    const created = await agency.as.post('/api/calendar/feed/');
    expect(created.statusCode).toBe(201);
    const { url, active } = created.json();
    expect(active).toBe(true);
    expect(url).toMatch(/\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await agency.as.get('/api/calendar/feed/')).json()).toMatchObject({ active: true, url: null });

    const feed = await t.app.inject({ method: 'GET', url: feedPath(url) });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const text = feed.body;
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    // Every line within 75 octets, folded lines continuing with a space.
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const unfolded = text.replace(/\r\n /g, '');
    const day = today.replaceAll('-', '');
    expect(unfolded).toContain('SUMMARY:Lunch\\; review\\, then sign\\\\file');
    expect(unfolded).toContain(`DTSTART;VALUE=DATE:${day}`);
    expect(unfolded).toContain(`DTSTART:${day}T100000Z\r\nDTEND:${day}T103000Z`);
    expect(unfolded).toContain('ü');
    // A meeting's place, video link and notes travel with it.
    expect(unfolded).toContain('LOCATION:Office\\, 2nd floor\r\n');
    expect(unfolded).toContain(
      'DESCRIPTION:Video call: https://meet.example.com/fleet\\nBring the fleet list.\\nAsk about the trailer.\\nAssigned to:',
    );
    expect(unfolded.match(/LOCATION:/g)).toHaveLength(1);
    expect(unfolded.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    // Ids unique across agencies, as calendar apps merge events by UID.
    expect(unfolded.match(/UID:\S+\.[0-9a-f-]{36}@coverdesk/g)).toHaveLength(2);

    // A new address replaces the old one; turned off, none answers.
    const replaced = (await agency.as.post('/api/calendar/feed/')).json().url;
    expect((await t.app.inject({ method: 'GET', url: feedPath(url) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: feedPath(replaced) })).statusCode).toBe(200);
    expect((await agency.as.delete('/api/calendar/feed/')).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: feedPath(replaced) })).statusCode).toBe(404);

    // A new password turns the address off: whoever knew the old one could have made it.
    const renewed = (await agency.as.post('/api/calendar/feed/')).json().url;
    const changed = await agency.as.patch('/api/user/profile/', {
      current_password: PASSWORD,
      new_password: 'brand new secret',
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: feedPath(renewed) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/feed/nothing.ics' })).statusCode).toBe(
      404,
    );
  });

  /** An agency with a feed address, and how its feed answers now. */
  async function agencyWithFeed() {
    const agency = await signedInAgency(t.app);
    const url = feedPath((await agency.as.post('/api/calendar/feed/')).json().url);
    const feedStatus = async () => (await t.app.inject({ method: 'GET', url })).statusCode;
    expect(await feedStatus()).toBe(200);
    return { agency, feedStatus };
  }

  it('turns a disabled user’s address off for good: enabling the account does not bring it back', async () => {
    const { agency, feedStatus } = await agencyWithFeed();
    const admin = await signedInAgency(t.app, { email: ADMIN_EMAIL });
    const reason = { reason: 'Left the agency' };
    const disabled = await admin.as.post(`/api/admin/users/${agency.user.id}/disable/`, reason);
    expect(disabled.statusCode).toBe(200);
    expect(await feedStatus()).toBe(404);

    const enabled = await admin.as.post(`/api/admin/users/${agency.user.id}/enable/`, reason);
    expect(enabled.statusCode).toBe(200);
    expect(await feedStatus()).toBe(404);
  });

  it('answers 404 to the address of a user disabled before disabling turned feeds off', async () => {
    const { agency, feedStatus } = await agencyWithFeed();
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, agency.user.id));
    expect(await feedStatus()).toBe(404);
  });

  it('answers 404 while the agency has no access to the calendar, and serves it again once it has', async () => {
    const { agency, feedStatus } = await agencyWithFeed();
    const tenantId = agency.user.tenant_id;
    await setSubscription(t, tenantId, { status: 'expired' });
    expect(await feedStatus()).toBe(404);
    await setSubscription(t, tenantId, {
      status: 'active',
      plan: await addPlanWithout(t, 'module_calendar'),
    });
    expect(await feedStatus()).toBe(404);
    await setSubscription(t, tenantId, { plan: 'professional' });
    expect(await feedStatus()).toBe(200);
  });

  it("makes no feed and serves none past the agency's two-step deadline, until the member turns it on", async () => {
    const { agency, feedStatus } = await agencyWithFeed();
    const required = await agency.as.patch('/api/team/settings/', { require_two_step: true });
    expect(required.statusCode, required.body).toBe(200);
    expect(await feedStatus()).toBe(200);
    const signIn = async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: agency.user.email, password: PASSWORD },
      });
      expect(response.statusCode, response.body).toBe(200);
      return apiAs(t.app, response.json().access);
    };
    /** Moves the requirement and the member's joining back, leaving `seconds` of the grace. */
    const graceLeft = async (seconds: number) => {
      const since = new Date(Date.now() - 7 * 86_400_000 + seconds * 1000);
      await t.database.db
        .update(tenants)
        .set({ requireTwoStepSince: since })
        .where(eq(tenants.id, agency.user.tenant_id));
      await t.database.db.update(users).set({ dateJoined: since }).where(eq(users.id, agency.user.id));
    };

    // A token issued a moment before the deadline stops at it.
    await graceLeft(1);
    const before = await signIn();
    expect((await before.get('/api/calendar/feed/')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await before.post('/api/calendar/feed/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'mfa_required' });
    expect(await feedStatus()).toBe(404);

    // Past it: no new address, and the old one silent.
    await graceLeft(-86_400);
    const after = await signIn();
    expect((await after.post('/api/calendar/feed/')).json()).toMatchObject({ code: 'mfa_required' });
    expect(await feedStatus()).toBe(404);

    // Turned on: the same address serves the calendar again.
    const setup = (await after.post('/api/user/mfa/totp/setup/', {})).json();
    const code = new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate();
    expect((await after.post('/api/user/mfa/totp/confirm/', { code })).statusCode).toBe(200);
    expect(await feedStatus()).toBe(200);
    expect((await after.delete('/api/calendar/feed/')).statusCode).toBe(204);
  });

  it('escapes text and folds long lines by octets, never inside a character', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    expect(escapeText('tab\there\u0007bell\u2028next')).toBe('tab here bell\\nnext');
    const line = `SUMMARY:${'é'.repeat(60)}`;
    const folded = foldLine(line);
    const pieces = folded.split('\r\n');
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(75);
    expect(pieces.slice(1).every((piece) => piece.startsWith(' '))).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
  });
});
