import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { supportMessages, supportTickets } from '../support/tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (payload: object, remoteAddress = '192.0.2.10') =>
  t.app.inject({ method: 'POST', url: '/api/contact/', payload, remoteAddress });

const message = {
  name: 'Tamar Levi',
  email: 'Tamar@Example.com',
  company: 'Levi Brokers',
  subject: 'Importing our book',
  message: 'We have 800 policies in spreadsheets. Can Coverdesk import them?',
};

describe('the contact form', () => {
  it('keeps the message for the admins and thanks the sender', async () => {
    const response = await send({ ...message, is_handled: true });
    expect(response.statusCode).toBe(201);
    expect(response.json().detail).toMatch(/Thank you/);
    // A ticket of no agency in the support inbox, open, with the message as its first entry.
    const tickets = await t.database.db.select().from(supportTickets);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({
      tenantId: null,
      requesterName: 'Tamar Levi',
      requesterEmail: 'tamar@example.com',
      company: 'Levi Brokers',
      subject: 'Importing our book',
      status: 'open',
    });
    const messages = await t.database.db.select().from(supportMessages);
    expect(messages).toMatchObject([{ ticketId: tickets[0]?.id, isStaff: false, body: message.message }]);
  });

  it('explains what is missing or wrong', async () => {
    const response = await send({ name: '', email: 'nope', message: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      name: ['This field may not be blank.'],
      email: ['Enter a valid email address.'],
      subject: ['This field is required.'],
      message: ['Please write at least 10 characters.'],
    });
  });

  it('slows down a flood from one address', async () => {
    for (let sent = 0; sent < 5; sent++) expect((await send(message, '192.0.2.99')).statusCode).toBe(201);
    const blocked = await send(message, '192.0.2.99');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(message, '192.0.2.100')).statusCode).toBe(201);
  });
});
