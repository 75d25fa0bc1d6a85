import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FilePart, multipartForm as form } from '../../../test/multipart-form.js';
import { decodeQuotedPrintable, startSmtpServer, waitFor } from '../../../test/smtp-server.js';
import { bearer, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { auditLog } from '../audit/tables.js';
import { countOpenTickets, statusAfter } from './queries.js';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: Awaited<ReturnType<typeof registerAgency>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ smtpUrl: smtp.url, adminEmails: ['help@coverdesk.test'] }, { demoAgency: true });
  admin = await registerAgency(t.app, {
    email: 'help@coverdesk.test',
    first_name: 'Dana',
    last_name: 'Admin',
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
const TICKET = {
  subject: 'Renewal reminders stopped',
  category: 'technical',
  message: 'No reminders since Monday.',
};

const post = (url: string, token: string, body: ReturnType<typeof form>) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(token) },
  });
const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const adminPost = (url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: bearer(admin.access) });

async function openTicket(token: string, file?: FilePart) {
  const response = await post('/api/support/tickets/', token, form(TICKET, file));
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; messages: { attachments: { id: string }[] }[] };
}

describe('a broker opening a ticket', () => {
  it('opens it with the message and a screenshot, which the agency can download', async () => {
    const broker = await registerAgency(t.app, { first_name: 'Noa', last_name: 'Peretz' });
    const ticket = await openTicket(broker.access, { name: 'screen.png', type: 'image/png', content: PNG });
    const read = await get(`/api/support/tickets/${ticket.id}/`, broker.access);
    expect(read.json()).toMatchObject({
      subject: TICKET.subject,
      category: 'technical',
      status: 'open',
      opened_by_name: 'Noa Peretz',
      messages: [
        {
          author_name: 'Noa Peretz',
          is_staff: false,
          body: TICKET.message,
          attachments: [{ file_name: 'screen.png', content_type: 'image/png', size: PNG.length }],
        },
      ],
    });
    const attachmentId = ticket.messages[0]?.attachments[0]?.id;
    const download = await get(
      `/api/support/tickets/${ticket.id}/attachments/${attachmentId}/`,
      broker.access,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="screen.png"; filename*=UTF-8''screen.png`,
    );
    expect(download.rawPayload.equals(PNG)).toBe(true);

    // A colleague in the same agency follows the same tickets.
    const list = await get('/api/support/tickets/?status=open', broker.access);
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: ticket.id, status: 'open' }] });
    expect((await get('/api/support/tickets/?status=resolved', broker.access)).json().count).toBe(0);
  });

  it('refuses an attachment over 5 MB with 413, and a type not on the list with 400', async () => {
    const broker = await registerAgency(t.app);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await post(
      '/api/support/tickets/',
      broker.access,
      form(TICKET, { name: 'huge.png', type: 'image/png', content: big }),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ detail: 'An attachment can be at most 5 MB.' });
    // A form declaring more than any allowed file needs is refused before it is read, but only after
    // the caller is known.
    const huge = form(TICKET, { name: 'huge.png', type: 'image/png', content: Buffer.concat([big, big]) });
    expect((await post('/api/support/tickets/', broker.access, huge)).statusCode).toBe(413);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/support/tickets/', ...huge });
    expect(anonymous.statusCode).toBe(401);

    const script = await post(
      '/api/support/tickets/',
      broker.access,
      form(TICKET, {
        name: 'page.html',
        type: 'text/html',
        content: Buffer.from('<script>alert(1)</script>'),
      }),
    );
    expect(script.statusCode).toBe(400);
    expect(script.json().attachment[0]).toMatch(/cannot be attached/);

    const disguised = await post(
      '/api/support/tickets/',
      broker.access,
      form(TICKET, { name: 'invoice.pdf', type: 'application/pdf', content: Buffer.from('MZ not a pdf') }),
    );
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json().attachment[0]).toMatch(/not the type/);

    const blank = await post('/api/support/tickets/', broker.access, form({ subject: '', message: '' }));
    expect(blank.json()).toEqual({
      subject: ['This field may not be blank.'],
      category: ['Choose a category.'],
      message: ['Write a message.'],
    });
    expect((await get('/api/support/tickets/', broker.access)).json().count).toBe(0);
  });

  it('names a file by the type it was checked as, never by the extension or direction marks it came with', async () => {
    const broker = await registerAgency(t.app);
    const named = async (file: FilePart) => {
      const ticket = await openTicket(broker.access, file);
      const read = await get(`/api/support/tickets/${ticket.id}/`, broker.access);
      const attachment = read.json().messages[0].attachments[0];
      const download = await get(
        `/api/support/tickets/${ticket.id}/attachments/${attachment.id}/`,
        broker.access,
      );
      expect(download.headers['content-disposition']).toContain(`filename="${attachment.file_name}"`);
      return attachment.file_name as string;
    };
    const page = Buffer.from('<svg onload="alert(1)"></svg>');
    expect(await named({ name: 'page.html', type: 'text/plain', content: page })).toBe('page.txt');
    expect(await named({ name: 'logo.svg', type: 'text/plain', content: page })).toBe('logo.txt');
    expect(await named({ name: 'run.js', type: 'text/plain', content: page })).toBe('run.txt');
    expect(await named({ name: 'notes', type: 'text/plain', content: page })).toBe('notes.txt');
    expect(await named({ name: '.html', type: 'text/plain', content: page })).toBe('attachment.txt');
    expect(await named({ name: 'photo.jpeg', type: 'image/png', content: PNG })).toBe('photo.png');
    // A right-to-left override would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
    expect(await named({ name: 'invoice\u202Egnp.exe', type: 'image/png', content: PNG })).toBe(
      'invoicegnp.png',
    );
    // A line break or a quote, as a browser escapes them in the form: kept out once, not escaped twice.
    const escaped = await named({
      name: 'march%0D%0Ascreen %22final%22.png',
      type: 'image/png',
      content: PNG,
    });
    expect(escaped).toBe('marchscreen final.png');
    const ticket = await openTicket(broker.access, { name: 'a%22b%0A.png', type: 'image/png', content: PNG });
    const attachmentId = ticket.messages[0]?.attachments[0]?.id;
    const download = await get(
      `/api/support/tickets/${ticket.id}/attachments/${attachmentId}/`,
      broker.access,
    );
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="ab.png"; filename*=UTF-8''ab.png`,
    );
  });

  it("hides one agency's tickets and files from another (404), and lets it neither reply nor list them", async () => {
    const owner = await registerAgency(t.app);
    const stranger = await registerAgency(t.app);
    const ticket = await openTicket(owner.access, {
      name: 'notes.txt',
      type: 'text/plain',
      content: Buffer.from('hi'),
    });
    const attachmentId = ticket.messages[0]?.attachments[0]?.id;
    expect((await get(`/api/support/tickets/${ticket.id}/`, stranger.access)).statusCode).toBe(404);
    expect(
      (await get(`/api/support/tickets/${ticket.id}/attachments/${attachmentId}/`, stranger.access))
        .statusCode,
    ).toBe(404);
    const reply = await post(
      `/api/support/tickets/${ticket.id}/messages/`,
      stranger.access,
      form({ message: 'Me too' }),
    );
    expect(reply.statusCode).toBe(404);
    expect((await get('/api/support/tickets/', stranger.access)).json().count).toBe(0);
    expect((await get(`/api/support/tickets/${ticket.id}/`, owner.access)).json().messages).toHaveLength(1);
  });

  it('takes at most 20 tickets and replies an hour from one user, then answers 429 with when to try again', async () => {
    const broker = await registerAgency(t.app);
    const ticket = await openTicket(broker.access);
    for (let sent = 1; sent < 20; sent += 1) {
      const reply = await post(
        `/api/support/tickets/${ticket.id}/messages/`,
        broker.access,
        form({ message: `Still broken (${sent}).` }),
      );
      expect(reply.statusCode).toBe(201);
    }
    for (const [url, fields] of [
      [`/api/support/tickets/${ticket.id}/messages/`, { message: 'One more.' }],
      ['/api/support/tickets/', TICKET],
    ] as const) {
      const refused = await post(url, broker.access, form(fields));
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(
        /^You can send 20 support tickets and replies an hour\. Please try again in \d+ minutes?\.$/,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const thread = (await get(`/api/support/tickets/${ticket.id}/`, broker.access)).json();
    expect(thread.messages).toHaveLength(20);
    // Another user is counted apart.
    const other = await registerAgency(t.app);
    await openTicket(other.access);
  });

  it('takes 3 tickets and replies an hour from the demo agency, among all its visitors together', async () => {
    const visit = async () =>
      (await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' })).json()
        .access_token as string;
    const [first, second] = [await visit(), await visit()];
    const ticket = await openTicket(first);
    for (const [token, message] of [
      [first, 'Where do I add a policy?'],
      [second, 'And how do I import customers?'],
    ] as const) {
      const reply = await post(`/api/support/tickets/${ticket.id}/messages/`, token, form({ message }));
      expect(reply.statusCode).toBe(201);
    }
    const refused = await post('/api/support/tickets/', second, form(TICKET));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(
      /^The demo agency's visitors share 3 support tickets and replies an hour, and they are used up: register to write to us as your own agency\. Please try again in \d+ minutes?\.$/,
    );
    expect((await get(`/api/support/tickets/${ticket.id}/`, first)).json().messages).toHaveLength(3);
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/support/tickets/' })).statusCode).toBe(401);
  });
});

describe('the admin inbox', () => {
  it('lists, assigns and answers a ticket; the broker is emailed the answer and sees it in the thread', async () => {
    const broker = await registerAgency(t.app, { company_name: 'Harbour Cover', first_name: 'Eli' });
    const ticket = await openTicket(broker.access);

    const inbox = await get('/api/admin/support/tickets/?search=harbour&status=open', admin.access);
    expect(inbox.json()).toMatchObject({
      count: 1,
      results: [
        {
          id: ticket.id,
          agency_name: 'Harbour Cover',
          requester_email: broker.email,
          from_contact_form: false,
          assigned_to: null,
        },
      ],
    });

    const assigned = await adminPost(`/api/admin/support/tickets/${ticket.id}/assign/`, {
      assigned_to: admin.user.id,
    });
    expect(assigned.json()).toMatchObject({ assigned_to: admin.user.id, assigned_to_name: 'Dana Admin' });
    const mine = await get('/api/admin/support/tickets/?assignee=me', admin.access);
    expect(mine.json().results.map((row: { id: string }) => row.id)).toContain(ticket.id);
    const notAnAdmin = await adminPost(`/api/admin/support/tickets/${ticket.id}/assign/`, {
      assigned_to: broker.user.id,
    });
    expect(notAnAdmin.json()).toEqual({ assigned_to: ['Choose one of the platform admins.'] });

    const answer = 'Fixed on our side. <b>Sorry</b> & thanks!';
    const answered = await post(
      `/api/admin/support/tickets/${ticket.id}/messages/`,
      admin.access,
      form({ message: answer }),
    );
    expect(answered.statusCode).toBe(201);
    expect(answered.json()).toMatchObject({ status: 'pending' });

    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes(broker.email)),
      "the broker's email",
    );
    const raw = decodeQuotedPrintable(mail.raw);
    expect(raw).toContain(`Subject: Re: ${TICKET.subject}`);
    expect(raw).toContain(answer);
    expect(raw).toContain('Fixed on our side. &lt;b&gt;Sorry&lt;/b&gt; &amp; thanks!');
    expect(raw).toContain(`http://coverdesk.test/support/${ticket.id}`);

    const thread = await get(`/api/support/tickets/${ticket.id}/`, broker.access);
    expect(thread.json()).toMatchObject({
      status: 'pending',
      messages: [{ is_staff: false }, { is_staff: true, author_name: 'Dana Admin', body: answer }],
    });

    // The audit lines are the agency's, read as the agency's own log is.
    const audited = await withTenant(t.database.db, broker.user.tenant_id, (tx) =>
      tx
        .select({ action: auditLog.action, tenantId: auditLog.tenantId })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'ticket'), eq(auditLog.entityId, ticket.id))),
    );
    expect(audited.map((row) => row.action).sort()).toEqual(['ticket_answered', 'ticket_assigned']);
    expect(audited.every((row) => row.tenantId === broker.user.tenant_id)).toBe(true);
  });

  it('moves a ticket open → pending → open → resolved → open as admins and the broker act', async () => {
    const broker = await registerAgency(t.app);
    const ticket = await openTicket(broker.access);
    const status = async () => (await get(`/api/support/tickets/${ticket.id}/`, broker.access)).json().status;
    expect(await status()).toBe('open');

    await post(
      `/api/admin/support/tickets/${ticket.id}/messages/`,
      admin.access,
      form({ message: 'Which policy?' }),
    );
    expect(await status()).toBe('pending');

    await post(`/api/support/tickets/${ticket.id}/messages/`, broker.access, form({ message: 'POL-1001.' }));
    expect(await status()).toBe('open');

    expect((await adminPost(`/api/admin/support/tickets/${ticket.id}/resolve/`)).json().status).toBe(
      'resolved',
    );
    expect(await status()).toBe('resolved');

    await post(
      `/api/support/tickets/${ticket.id}/messages/`,
      broker.access,
      form({ message: 'It happened again.' }),
    );
    expect(await status()).toBe('open');

    await adminPost(`/api/admin/support/tickets/${ticket.id}/resolve/`);
    expect((await adminPost(`/api/admin/support/tickets/${ticket.id}/reopen/`)).json().status).toBe('open');
    expect(statusAfter('staff_reply')).toBe('pending');
  });

  it('holds the contact form messages, answered by email to their sender, and counts what is not resolved', async () => {
    const before = await countOpenTickets(t.database.db);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/contact/',
      payload: {
        name: 'Tamar Levi',
        email: 'tamar@levi.test',
        company: 'Levi Brokers',
        subject: 'Importing our book',
        message: 'We have 800 policies in spreadsheets. Can Coverdesk import them?',
      },
    });
    expect(sent.statusCode).toBe(201);
    expect(await countOpenTickets(t.database.db)).toBe(before + 1);

    const inbox = await get('/api/admin/support/tickets/?search=tamar', admin.access);
    expect(inbox.json()).toMatchObject({
      count: 1,
      results: [
        {
          subject: 'Importing our book',
          tenant_id: null,
          agency_name: null,
          from_contact_form: true,
          requester_email: 'tamar@levi.test',
          company: 'Levi Brokers',
          status: 'open',
        },
      ],
    });
    const id = inbox.json().results[0].id as string;
    await post(
      `/api/admin/support/tickets/${id}/messages/`,
      admin.access,
      form({ message: 'Yes, from CSV.' }),
    );
    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes('tamar@levi.test')),
      'the reply',
    );
    expect(decodeQuotedPrintable(mail.raw)).toContain('Yes, from CSV.');
    expect(
      (await adminPost(`/api/admin/support/tickets/${id}/assign/`, { assigned_to: admin.user.id }))
        .statusCode,
    ).toBe(200);
    expect((await adminPost(`/api/admin/support/tickets/${id}/resolve/`)).json().status).toBe('resolved');
    expect(await countOpenTickets(t.database.db)).toBe(before);

    // What admins did to it is in the platform's log, outside every agency.
    const lines = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'ticket'), eq(auditLog.entityId, id)))
      .orderBy(auditLog.occurredAt, auditLog.id);
    expect(lines.map((line) => [line.action, line.tenantId, line.actorEmail])).toEqual([
      ['ticket_answered', null, 'help@coverdesk.test'],
      ['ticket_assigned', null, 'help@coverdesk.test'],
      ['ticket_resolved', null, 'help@coverdesk.test'],
    ]);
    expect(lines[1]?.changes).toEqual({ assigned_to: { before: null, after: admin.user.id } });
  });

  it('is closed to brokers', async () => {
    const broker = await registerAgency(t.app);
    expect((await get('/api/admin/support/tickets/', broker.access)).statusCode).toBe(403);
  });
});
