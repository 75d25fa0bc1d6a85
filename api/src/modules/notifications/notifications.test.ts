import type { HistoryEntry, Notification, NotificationSetting, NotificationType } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import { decodeQuotedPrintable, startSmtpServer, waitFor } from '../../../test/smtp-server.js';
import {
  addPlanWithout,
  createTestApp,
  databaseCalendar,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { formatDay, startsIn } from './reminders.js';
import { NotificationRunner } from './runner.js';
import { renderTemplate } from './templates.js';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let day: (days: number) => string;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ smtpUrl: smtp.url, notificationRetrySeconds: 1 });
  await t.app.ready();
  ({ day } = await databaseCalendar(t));
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
type Caller = Agency['as'];

/** Noon UTC on a day: agencies registered in tests keep UTC, so this is their noon too. */
const noonOf = (date: string) => new Date(`${date}T12:00:00Z`);
const runOn = (date: string) => t.app.notificationRunner.generate(noonOf(date));

async function settingsOf(as: Caller) {
  const response = await as.get('/api/notifications/settings/');
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { results: NotificationSetting[] }).results;
}

/** One type on with the given changes, the others off, so a test sees only its own reminders. */
async function only(as: Caller, type: NotificationType, changes: Record<string, unknown>) {
  const response = await as.post('/api/notifications/settings/bulk_update/', {
    settings: (['payment_reminder', 'policy_renewal', 'meeting_reminder'] as const).map((each) =>
      each === type
        ? {
            notification_type: each,
            enabled: true,
            quiet_hours_start: null,
            quiet_hours_end: null,
            ...changes,
          }
        : { notification_type: each, enabled: false },
    ),
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function bell(as: Caller, query = '') {
  const response = await as.get(`/api/notifications/dashboard/?page_size=100${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { results: Notification[] }).results;
}

async function history(as: Caller, query = '') {
  const response = await as.get(`/api/notifications/history/?page_size=100${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { results: HistoryEntry[] }).results;
}

/** An agency whose one policy's single instalment falls due on `due`. */
async function withInstalmentDue(due: string, customer: [string, string] = ['Dana', 'Levi']) {
  const agency = await signedInAgency(t.app);
  const parties = await addPolicyParties(agency.as, { customer, company: 'Harel' });
  const policy = await insertPolicy(t, agency.user.tenant_id, parties, {
    policy_number: `P-${due.replaceAll('-', '')}`,
    start_date: due,
    end_date: day(400),
    total_premium: '480.00',
  });
  return { ...agency, policy, installmentId: policy.installmentIds[0] ?? '' };
}

describe('payment reminders', () => {
  it('notifies once, on the day the lead time names, by bell and email, and not again on later runs', async () => {
    // In the past, so the email's moment has come and it goes at once.
    const due = day(-20);
    const agency = await withInstalmentDue(due, ['Dana', "O'Neil <b>&</b>"]);
    await only(agency.as, 'payment_reminder', { channel: 'both', lead_time: 3 });

    await runOn(day(-24));
    expect(await bell(agency.as)).toEqual([]);
    await runOn(day(-23));
    await runOn(day(-23));
    for (const later of [-22, -21, -20]) await runOn(day(later));

    const [only_one, ...more] = await bell(agency.as);
    expect(more).toEqual([]);
    expect(only_one).toMatchObject({
      title: `Payment reminder: P-${due.replaceAll('-', '')}`,
      priority: 'low',
      is_read: false,
      read_at: null,
      notification_type: 'payment_reminder',
      notification_type_display: 'Payment reminder',
      related_policy_number: `P-${due.replaceAll('-', '')}`,
      related_customer_name: "Dana O'Neil <b>&</b>",
    });
    // What is due and when comes first: the bell shows two lines of it.
    expect(only_one?.message).toBe(
      `$480.00 due ${formatDay(due)} — coming up in 3 days · Dana O'Neil <b>&</b> · P-${due.replaceAll('-', '')} · Harel`,
    );

    const deliveries = await history(agency.as);
    expect(deliveries.map((entry) => entry.channel).sort()).toEqual(['email', 'in_app']);
    const inApp = deliveries.find((entry) => entry.channel === 'in_app');
    expect(only_one?.data.notification_history_id).toBe(inApp?.id);
    expect(inApp?.status).toBe('sent');

    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes(agency.email)),
      'the reminder email',
    );
    const raw = decodeQuotedPrintable(mail.raw);
    expect(raw).toContain('multipart/alternative');
    expect(raw).toContain("Dana O'Neil <b>&</b>'s instalment of $480.00");
    expect(raw).toContain('Dana O&#39;Neil &lt;b&gt;&amp;&lt;/b&gt;&#39;s instalment of $480.00');
    expect(raw).not.toContain('<b>&</b>&#39;s');
    expect(raw).toContain('http://coverdesk.test/payments');
    const sent = await waitFor(async () => {
      const email = (await history(agency.as, '&channel=email'))[0];
      return email?.status === 'sent' ? email : undefined;
    }, 'the delivery to read sent');
    expect(sent).toMatchObject({ attempts: 1, failure_reason: '', recipient: agency.email });
  });

  it('reminds of an overdue instalment weekly in its first month, then monthly, more urgently as it ages', async () => {
    const due = day(-90);
    const agency = await withInstalmentDue(due);
    await only(agency.as, 'payment_reminder', { channel: 'in_app', lead_time: 0 });
    for (const age of [0, 1, 2, 8, 9, 29, 36, 59, 60]) await runOn(day(-90 + age));
    const notified = await bell(agency.as, '&ordering=created_at');
    expect(
      notified.map((n) => [n.priority, n.title.split(':')[0], n.message.match(/ — (.*?) · /)?.[1]]),
    ).toEqual([
      ['low', 'Payment reminder', 'due today'],
      ['medium', 'Overdue payment', '1 day overdue'],
      ['high', 'Overdue payment', '8 days overdue'],
      ['high', 'Overdue payment', '29 days overdue'],
      ['critical', 'Overdue payment', '60 days overdue'],
    ]);
  });

  it('cancels an email whose instalment was paid before it went out', async () => {
    // In the future, and inside quiet hours, so the email waits for the end of them.
    const due = day(30);
    const agency = await withInstalmentDue(due);
    await only(agency.as, 'payment_reminder', {
      channel: 'both',
      lead_time: 3,
      quiet_hours_start: '11:00',
      quiet_hours_end: '14:00',
    });
    await runOn(day(27));
    const [pending] = await history(agency.as, '&channel=email');
    expect(pending).toMatchObject({ status: 'pending', scheduled_for: `${day(27)}T14:00:00.000Z` });

    const paid = await agency.as.post(`/api/installments/${agency.installmentId}/payment/`, {
      payment_method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    // What the queued job does when its moment comes.
    await t.app.notificationRunner.deliver({ tenantId: agency.user.tenant_id, historyId: pending?.id ?? '' });

    const [cancelled] = await history(agency.as, '&channel=email');
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      attempts: 0,
      failure_reason: 'The instalment was paid before the reminder went out.',
    });
    expect(smtp.received.some((m) => m.to.includes(agency.email))).toBe(false);
    // Paid: no more reminders of it, overdue or not.
    await runOn(day(31));
    expect(await bell(agency.as)).toHaveLength(1);
  });

  it('writes one reminder when two workers run the same job at once', async () => {
    const due = day(-100);
    const agency = await withInstalmentDue(due);
    await only(agency.as, 'payment_reminder', { channel: 'in_app', lead_time: 3 });
    const second = new NotificationRunner(
      t.database,
      { send: async () => true, deliver: async () => {}, close: () => {} },
      { appUrl: 'http://coverdesk.test', retryDelaySeconds: 1 },
      t.app.log,
    );
    await second.start();
    try {
      await Promise.all([runOn(day(-103)), second.generate(noonOf(day(-103))), runOn(day(-103))]);
    } finally {
      await second.stop();
    }
    expect(await bell(agency.as)).toHaveLength(1);
    expect(await history(agency.as)).toHaveLength(1);
  });
});

describe('renewal and meeting reminders', () => {
  it('reminds of a policy ending after the lead time, and cancels the email once it is renewed', async () => {
    const agency = await signedInAgency(t.app);
    const parties = await addPolicyParties(agency.as);
    const policy = await insertPolicy(t, agency.user.tenant_id, parties, {
      policy_number: 'REN-1',
      start_date: day(-300),
      end_date: day(65),
    });
    await only(agency.as, 'policy_renewal', {
      channel: 'both',
      lead_time: 30,
      quiet_hours_start: '00:00',
      quiet_hours_end: '23:59',
    });
    await runOn(day(34));
    await runOn(day(35));
    await runOn(day(35));
    const [notified, ...more] = await bell(agency.as);
    expect(more).toEqual([]);
    expect(notified).toMatchObject({ title: 'Policy renewal: REN-1', priority: 'medium' });
    expect(notified?.message).toContain('in 30 days');

    const renewed = await agency.as.post(`/api/policies/${policy.id}/renew/`, {});
    expect(renewed.statusCode, renewed.body).toBe(201);
    const [email] = await history(agency.as, '&channel=email');
    await t.app.notificationRunner.deliver({ tenantId: agency.user.tenant_id, historyId: email?.id ?? '' });
    expect((await history(agency.as, '&channel=email'))[0]?.status).toBe('cancelled');
  });

  it('reminds the owner of a meeting within its reminder, once', async () => {
    const agency = await signedInAgency(t.app);
    await only(agency.as, 'meeting_reminder', { channel: 'in_app', lead_time: 30 });
    const starts = new Date(Date.now() + 3 * 86_400_000);
    const created = await agency.as.post('/api/calendar/meetings/', {
      title: 'Quote walkthrough',
      all_day: false,
      start: starts.toISOString(),
      end: new Date(starts.getTime() + 3_600_000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const at = (minutesBefore: number) => new Date(starts.getTime() - minutesBefore * 60_000);
    await t.app.notificationRunner.generate(at(45));
    expect(await bell(agency.as)).toEqual([]);
    await t.app.notificationRunner.generate(at(25));
    await t.app.notificationRunner.generate(at(20));
    const [notified, ...more] = await bell(agency.as);
    expect(more).toEqual([]);
    expect(notified).toMatchObject({ notification_type: 'meeting_reminder', priority: 'high' });
    expect(notified?.message).toContain('Quote walkthrough starts in 25 min');
    // The start reads like every other date and time in Coverdesk: "Nov 25, 2026, 2:30 PM".
    expect(notified?.message).toMatch(/, at [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M\.$/);

    // A meeting with a reminder of its own is reminded of then, whatever the lead time.
    const later = new Date(starts.getTime() + 6 * 3_600_000);
    const own = await agency.as.post('/api/calendar/meetings/', {
      title: 'Fleet cover review',
      start: later.toISOString(),
      end: new Date(later.getTime() + 3_600_000).toISOString(),
      reminder_minutes: 90,
    });
    expect(own.statusCode, own.body).toBe(201);
    await t.app.notificationRunner.generate(new Date(later.getTime() - 80 * 60_000));
    expect((await bell(agency.as))[0]?.message).toContain('Fleet cover review starts in 1 h 20 min');
  });

  it('reminds of a meeting just after midnight once, though its reminder window spans two days', async () => {
    const agency = await signedInAgency(t.app);
    await only(agency.as, 'meeting_reminder', { channel: 'in_app', lead_time: 30 });
    // 00:10 in the agency's time zone (UTC), three days ahead.
    const midnight = new Date(
      `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`,
    );
    const starts = new Date(midnight.getTime() + 10 * 60_000);
    const created = await agency.as.post('/api/calendar/meetings/', {
      title: 'Early call',
      start: starts.toISOString(),
      end: new Date(starts.getTime() + 1_800_000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.notificationRunner.generate(new Date(midnight.getTime() - 15 * 60_000));
    await t.app.notificationRunner.generate(new Date(midnight.getTime() + 5 * 60_000));
    const reminders = await bell(agency.as);
    expect(reminders.map((reminder) => reminder.message)).toEqual([
      expect.stringContaining('Early call starts in 25 min'),
    ]);
  });
});

describe('email delivery', () => {
  it('ends in failed with the server’s reason after the retries', async () => {
    const refusing = await startSmtpServer({ refuse: true });
    const local = await createTestApp({ smtpUrl: refusing.url, notificationRetrySeconds: 1 });
    try {
      const agency = await signedInAgency(local.app);
      const sent = await agency.as.post('/api/notifications/settings/test_notification/', {
        notification_type: 'payment_reminder',
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const email = (sent.json() as { results: HistoryEntry[] }).results.find(
        (entry) => entry.channel === 'email',
      );
      expect(email).toMatchObject({ status: 'pending', is_test: true });
      const failed = await waitFor(
        async () => {
          const response = await agency.as.get('/api/notifications/history/?status=failed');
          return (response.json() as { results: HistoryEntry[] }).results[0];
        },
        'the email to fail',
        50,
      );
      expect(failed).toMatchObject({ id: email?.id, attempts: 4 });
      expect(failed.failure_reason).toBe('The mail server refused the email: 550 Mailbox unavailable');
      expect(refusing.refused()).toBe(4);
    } finally {
      await local.close();
      await refusing.close();
    }
  }, 60_000);

  it('tells the broker the mail server could not be reached, without naming its host or port', async () => {
    const gone = await startSmtpServer();
    await gone.close();
    const local = await createTestApp({ smtpUrl: gone.url, notificationRetrySeconds: 1 });
    try {
      const agency = await signedInAgency(local.app);
      const sent = await agency.as.post('/api/notifications/settings/test_notification/', {
        notification_type: 'payment_reminder',
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const tried = await waitFor(async () => {
        const response = await agency.as.get('/api/notifications/history/?channel=email');
        return (response.json() as { results: HistoryEntry[] }).results.find(
          (entry) => entry.failure_reason !== '',
        );
      }, 'the first attempt');
      expect(tried.failure_reason).toBe('The mail server could not be reached.');
    } finally {
      await local.close();
    }
  }, 60_000);

  it('leaves a placeholder that names an Object member as written, instead of failing', () => {
    const rendered = renderTemplate(
      { subject: '{constructor} {__proto__}', body: '{customer_name} {tostring} {hasownproperty}' },
      { customer_name: 'Dana' },
      { url: 'http://coverdesk.test/payments', label: 'Open payments' },
    );
    expect(rendered.subject).toBe('{constructor} {__proto__}');
    expect(rendered.body).toBe('Dana {tostring} {hasownproperty}');
  });

  it('says how soon a meeting starts in minutes, then hours', () => {
    expect([0, 30, 59, 60, 90, 180, 1072].map(startsIn)).toEqual([
      'in 1 min',
      'in 30 min',
      'in 59 min',
      'in 1 h',
      'in 1 h 30 min',
      'in 3 h',
      'in 18 h',
    ]);
  });

  it('writes the HTML part with every value and the wording escaped, and the text part as written', () => {
    const rendered = renderTemplate(
      { subject: 'For {customer_name}', body: 'Dear <team>,\n\n{customer_name} owes {amount}.\nThanks' },
      { customer_name: '<script>alert(1)</script>', amount: '{agency_name}' },
      { url: 'http://coverdesk.test/payments', label: 'Open payments' },
    );
    expect(rendered.subject).toBe('For <script>alert(1)</script>');
    expect(rendered.text).toContain('<script>alert(1)</script> owes {agency_name}.');
    expect(rendered.html).not.toContain('<script>');
    expect(rendered.html).not.toContain('<team>');
    expect(rendered.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; owes {agency_name}.<br>Thanks');
    expect(rendered.html).toContain('Dear &lt;team&gt;,');
  });
});

describe('the bell', () => {
  async function agencyWithThree() {
    const agency = await withInstalmentDue(day(-200));
    await only(agency.as, 'payment_reminder', { channel: 'in_app', lead_time: 3 });
    for (const age of [-3, 1, 8]) await runOn(day(-200 + age));
    const notes = await bell(agency.as);
    expect(notes).toHaveLength(3);
    return { ...agency, notes };
  }

  it('counts, marks read, marks all read and dismisses', async () => {
    const { as, notes } = await agencyWithThree();
    const [newest, middle] = notes;
    expect((await as.get('/api/notifications/dashboard/stats/')).json()).toEqual({
      total: 3,
      unread: 3,
      read: 0,
    });
    expect((await as.get('/api/notifications/settings/unread_count/')).json()).toEqual({ unread_count: 3 });

    const read = await as.post(`/api/notifications/dashboard/${newest?.id}/mark-read/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: newest?.id, is_read: true });
    expect((await bell(as, '&is_read=false')).map((n) => n.id)).not.toContain(newest?.id);
    expect((await as.get('/api/notifications/history/unread/')).json().results).toHaveLength(2);

    expect((await as.post(`/api/notifications/dashboard/${middle?.id}/dismiss/`)).statusCode).toBe(204);
    expect((await bell(as)).map((n) => n.id)).not.toContain(middle?.id);
    // Dismissed from the bell, still in the history.
    expect(await history(as)).toHaveLength(3);

    const all = await as.post('/api/notifications/dashboard/mark-all-read/', {});
    expect(all.json()).toEqual({ marked: 1 });
    expect((await as.get('/api/notifications/dashboard/stats/')).json()).toEqual({
      total: 2,
      unread: 0,
      read: 2,
    });
    expect((await as.get('/api/notifications/history/stats/')).json()).toMatchObject({
      total: 3,
      unread: 0,
      by_status: { sent: 3, pending: 0, failed: 0, cancelled: 0 },
      by_type: { payment_reminder: 3, policy_renewal: 0, meeting_reminder: 0 },
    });
  });

  it('marks history read, and reads the bell and history through their filters', async () => {
    const { as, notes } = await agencyWithThree();
    const target = notes[2];
    const marked = await as.post(
      `/api/notifications/history/${target?.data.notification_history_id}/mark_as_read/`,
    );
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ is_read: true });
    expect((await bell(as, '&is_read=true')).map((n) => n.id)).toEqual([target?.id]);
    expect(await bell(as, '&priority=high')).toHaveLength(1);
    expect(await bell(as, '&notification_type=policy_renewal')).toEqual([]);
    expect(await history(as, '&status=failed')).toEqual([]);
    expect(await history(as, `&date_from=${day(1)}`)).toEqual([]);
    expect((await as.post('/api/notifications/history/mark_all_as_read/')).json()).toEqual({ marked: 2 });
    const page = (await as.get('/api/notifications/dashboard/?page_size=2')).json();
    expect(page).toMatchObject({ count: 3, previous: null });
    expect(page.next).toContain('page=2');
  });

  it('answers 404 for another agency’s notifications, deliveries and settings', async () => {
    const { notes, as } = await agencyWithThree();
    const other = await signedInAgency(t.app);
    const [note] = notes;
    const [setting] = await settingsOf(as);
    for (const response of [
      await other.as.post(`/api/notifications/dashboard/${note?.id}/mark-read/`),
      await other.as.post(`/api/notifications/dashboard/${note?.id}/dismiss/`),
      await other.as.post(`/api/notifications/history/${note?.data.notification_history_id}/mark_as_read/`),
      await other.as.get(`/api/notifications/settings/${setting?.id}/`),
      await other.as.patch(`/api/notifications/settings/${setting?.id}/`, { enabled: false }),
      await other.as.delete(`/api/notifications/settings/${setting?.id}/`),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    expect(await bell(other.as)).toEqual([]);
    expect((await other.as.post('/api/notifications/dashboard/mark-all-read/', {})).json()).toEqual({
      marked: 0,
    });
    expect((await as.get('/api/notifications/dashboard/stats/')).json()).toMatchObject({ unread: 3 });
  });
});

describe('settings', () => {
  it('starts from defaults, changes, resets and summarises', async () => {
    const { as } = await signedInAgency(t.app);
    const settings = await settingsOf(as);
    expect(
      settings.map((s) => [s.notification_type, s.enabled, s.channel, s.lead_time, s.lead_time_unit]),
    ).toEqual([
      ['payment_reminder', true, 'both', 3, 'days'],
      ['policy_renewal', true, 'both', 30, 'days'],
      ['meeting_reminder', true, 'in_app', 30, 'minutes'],
    ]);
    const [payment] = settings;
    const changed = await as.patch(`/api/notifications/settings/${payment?.id}/`, {
      channel: 'email',
      lead_time: 7,
      quiet_hours_start: null,
      quiet_hours_end: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      id: payment?.id,
      channel: 'email',
      lead_time: 7,
      quiet_hours_start: null,
    });
    expect((await as.get(`/api/notifications/settings/${payment?.id}/`)).json()).toMatchObject({
      lead_time: 7,
    });

    const posted = await as.post('/api/notifications/settings/', {
      notification_type: 'meeting_reminder',
      enabled: false,
      lead_time: 15,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json()).toMatchObject({
      notification_type: 'meeting_reminder',
      enabled: false,
      lead_time: 15,
    });

    expect((await as.get('/api/notifications/settings/summary/')).json()).toMatchObject({
      enabled_types: 2,
      total_types: 3,
      email_enabled: true,
      in_app_enabled: true,
      unread_count: 0,
    });
    expect((await as.delete(`/api/notifications/settings/${payment?.id}/`)).statusCode).toBe(204);
    expect((await settingsOf(as))[0]).toMatchObject({ id: payment?.id, channel: 'both', lead_time: 3 });
  });

  it('sends a test through the user’s channel for the type', async () => {
    const agency = await signedInAgency(t.app);
    const sent = await agency.as.post('/api/notifications/settings/test_notification/', {
      notification_type: 'policy_renewal',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const [note] = await bell(agency.as);
    expect(note).toMatchObject({
      title: 'Policy renewal: TEST-0001',
      related_customer_name: 'Sample Customer',
    });
    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes(agency.email)),
      'the test email',
    );
    expect(decodeQuotedPrintable(mail.raw)).toContain('Sample Customer');
  });

  it('limits tests to five an hour per user, since each one emails their unverified address', async () => {
    const agency = await signedInAgency(t.app);
    const sendTest = () =>
      agency.as.post('/api/notifications/settings/test_notification/', {
        notification_type: 'policy_renewal',
      });
    for (let sent = 0; sent < 5; sent += 1) expect((await sendTest()).statusCode).toBe(201);
    const refused = await sendTest();
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((refused.json() as { detail: string }).detail).toMatch(
      /^You can send 5 test notifications an hour/,
    );
    expect((await history(agency.as, '&channel=email')).length).toBe(5);
  });

  it('refuses bad input with field messages', async () => {
    const { as } = await signedInAgency(t.app);
    const [payment, , meeting] = await settingsOf(as);
    const cases: [Promise<{ statusCode: number; json(): unknown }>, Record<string, string[]>][] = [
      [
        as.patch(`/api/notifications/settings/${payment?.id}/`, { lead_time: 'soon' }),
        { lead_time: ['Enter a whole number.'] },
      ],
      [
        as.patch(`/api/notifications/settings/${payment?.id}/`, { lead_time: 91 }),
        { lead_time: ['At most 90 days.'] },
      ],
      [
        as.patch(`/api/notifications/settings/${meeting?.id}/`, { lead_time: 0 }),
        { lead_time: ['At least 1 minute.'] },
      ],
      [
        as.patch(`/api/notifications/settings/${payment?.id}/`, {
          quiet_hours_start: '22:00',
          quiet_hours_end: null,
        }),
        { quiet_hours_end: ['Give both ends of the quiet hours, or neither.'] },
      ],
      [
        as.patch(`/api/notifications/settings/${payment?.id}/`, { quiet_hours_start: '25:00' }),
        { quiet_hours_start: ['Enter a time like 21:00.'] },
      ],
      [
        as.patch(`/api/notifications/settings/${payment?.id}/`, { channel: 'pigeon' }),
        { channel: ['Choose email, in the app or both.'] },
      ],
      [
        as.post('/api/notifications/settings/', { notification_type: 'fax', lead_time: 1 }),
        { notification_type: ['Choose a notification type.'] },
      ],
      [
        as.post('/api/notifications/settings/bulk_update/', { settings: [] }),
        { settings: ['Send at least one setting.'] },
      ],
      [
        as.post('/api/notifications/dashboard/mark-all-read/', { ids: ['nope'] }),
        { 'ids.0': ['Not a valid id.'] },
      ],
      [
        as.put('/api/notifications/templates/payment_reminder.email/', { subject: ' ', body: 'x' }),
        { subject: ['This field may not be blank.'] },
      ],
    ];
    for (const [response, body] of cases) {
      const answer = await response;
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual(body);
    }
    expect((await as.get('/api/notifications/dashboard/?is_read=maybe')).statusCode).toBe(400);
    expect((await as.get('/api/notifications/history/?status=lost')).statusCode).toBe(400);
    expect((await as.get('/api/notifications/templates/payment_reminder.fax/')).statusCode).toBe(404);
    expect((await as.get('/api/notifications/templates/renewal_notice.email/')).statusCode).toBe(404);
  });
});

describe('templates', () => {
  it('lists the defaults, and writes reminders in the agency’s own wording once it has one', async () => {
    const agency = await withInstalmentDue(day(-300));
    const list = (await agency.as.get('/api/notifications/templates/')).json().results as {
      id: string;
      is_custom: boolean;
    }[];
    expect(list.map((template) => template.id)).toEqual([
      'payment_reminder.email',
      'payment_reminder.in_app',
      'policy_renewal.email',
      'policy_renewal.in_app',
      'meeting_reminder.email',
      'meeting_reminder.in_app',
    ]);
    expect(list.every((template) => !template.is_custom)).toBe(true);
    const saved = await agency.as.put('/api/notifications/templates/payment_reminder.in_app/', {
      subject: 'Payment due from {customer_name}',
      body: '{amount} on {policy_number} with {insurer}, for {agency_name}.',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ is_custom: true, subject: 'Payment due from {customer_name}' });
    await only(agency.as, 'payment_reminder', { channel: 'in_app', lead_time: 3 });
    await runOn(day(-303));
    const [note] = await bell(agency.as);
    expect(note).toMatchObject({
      title: 'Payment due from Dana Levi',
      message: `$480.00 on P-${day(-300).replaceAll('-', '')} with Harel, for Peretz Insurance.`,
    });
    const unknown = await agency.as.put('/api/notifications/templates/payment_reminder.in_app/', {
      subject: 'Hi {constructor}',
      body: '{customer_name} owes {amount} {__proto__} {totla}',
    });
    expect(unknown.statusCode).toBe(400);
    const problems = unknown.json() as Record<string, string[]>;
    expect(problems.subject?.[0]).toMatch(
      /^Unknown placeholder: \{constructor\}\. Use only \{heading\}, \{customer_name\}/,
    );
    expect(problems.body?.[0]).toMatch(/^Unknown placeholders: \{__proto__\}, \{totla\}\./);
    expect((await agency.as.delete('/api/notifications/templates/payment_reminder.in_app/')).statusCode).toBe(
      204,
    );
    expect(
      (await agency.as.get('/api/notifications/templates/payment_reminder.in_app/')).json(),
    ).toMatchObject({ is_custom: false, subject: '{heading}: {policy_number}' });
  });
});

describe('the plan gate', () => {
  it('refuses the calls and writes no reminders for an agency whose plan leaves notifications out', async () => {
    const agency = await withInstalmentDue(day(-400));
    await only(agency.as, 'payment_reminder', { channel: 'in_app', lead_time: 3 });
    await setSubscription(t, agency.user.tenant_id, {
      plan: await addPlanWithout(t, 'module_notifications'),
    });
    expect((await agency.as.get('/api/notifications/dashboard/')).statusCode).toBe(403);
    expect((await agency.as.get('/api/notifications/settings/unread_count/')).statusCode).toBe(403);
    await runOn(day(-403));
    await setSubscription(t, agency.user.tenant_id, { plan: 'professional', status: 'expired' });
    expect((await agency.as.get('/api/notifications/history/')).statusCode).toBe(402);
    await setSubscription(t, agency.user.tenant_id, { status: 'active' });
    expect(await bell(agency.as)).toEqual([]);
  });
});
