import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { column, expectFormatAndGate, exportBoth } from '../../../test/export-file.js';
import {
  addPlanWithout,
  createTestApp,
  databaseCalendar,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { customers } from '../customers/tables.js';
import { leads } from './tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const agency = () => signedInAgency(t.app);

const maya = {
  first_name: 'Maya',
  last_name: 'Golan',
  email: 'maya@example.com',
  phone: '054-222-3333',
  source: 'referral',
};

/** Fills an agency's pipeline straight in the database, for tests about how many leads it has. */
/** Fills an agency's book straight in the database, for tests at the plan's customer limit. */
async function insertCustomers(tenantId: string, count: number) {
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .insert(customers)
      .values(
        Array.from({ length: count }, (_, index) => ({ tenantId, firstName: 'Bulk', lastName: `${index}` })),
      ),
  );
}

async function insertLeads(tenantId: string, count: number) {
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .insert(leads)
      .values(
        Array.from({ length: count }, (_, index) => ({ tenantId, firstName: 'Bulk', lastName: `${index}` })),
      ),
  );
}

/** Dates a lead's closing, for the conversion rate over a period. */
async function closeOn(tenantId: string, id: string, day: string) {
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .update(leads)
      .set({ closedAt: new Date(`${day}T12:00:00Z`) })
      .where(eq(leads.id, id)),
  );
}

const names = (response: { json(): { results: { display_name: string }[] } }) =>
  response.json().results.map((lead) => lead.display_name);

describe('leads', () => {
  it('adds a lead with defaults, reads it back, and records its first status as the one who added it', async () => {
    const { as, user } = await agency();
    const created = await as.post('/api/leads/', { ...maya, email: ' Maya@Example.COM ' });
    expect(created.statusCode).toBe(201);
    const lead = created.json();
    expect(lead).toMatchObject({
      ...maya,
      display_name: 'Maya Golan',
      business_name: '',
      status: 'new',
      policy_type_id: null,
      policy_type_name: '',
      estimated_premium: null,
      next_follow_up_at: null,
      // Naming no one, a lead is the one who adds it.
      assigned_user_id: user.id,
      assigned_user_name: 'Noa Peretz',
      customer_id: null,
      closed_at: null,
      matches: [],
    });
    expect((await as.get(`/api/leads/${lead.id}/`)).json()).toEqual(lead);

    const timeline = (await as.get(`/api/leads/${lead.id}/activities/`)).json().results;
    expect(timeline).toEqual([
      expect.objectContaining({
        activity_type: 'status_change',
        from_status: null,
        to_status: 'new',
        user_id: user.id,
        user_name: 'Noa Peretz',
      }),
    ]);
  });

  it('keeps the type of interest, premium, follow-up and assignee, all of the agency', async () => {
    const { as, user } = await agency();
    const type = (await as.post('/api/policy-types/', { name: 'Home', category: 'home' })).json();
    const created = await as.post('/api/leads/', {
      business_name: 'Golan Bakery',
      policy_type_id: type.id,
      estimated_premium: 1250.5,
      next_follow_up_at: '2030-03-04T09:30:00+02:00',
      assigned_user_id: user.id,
      source: 'walk_in',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      display_name: 'Golan Bakery',
      policy_type_name: 'Home',
      estimated_premium: '1250.50',
      next_follow_up_at: '2030-03-04T07:30:00.000Z',
      assigned_user_name: 'Noa Peretz',
    });

    const other = await agency();
    const otherType = (await other.as.post('/api/policy-types/', { name: 'Life', category: 'life' })).json();
    const refused = await as.post('/api/leads/', {
      ...maya,
      policy_type_id: otherType.id,
      assigned_user_id: other.user.id,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      policy_type_id: ['No policy type with this id.'],
      assigned_user_id: ['No user of your agency with this id.'],
    });
  });

  it('refuses bad input with a message for each field', async () => {
    const { as } = await agency();
    const response = await as.post('/api/leads/', {
      first_name: 'Maya',
      email: 'maya@',
      phone: 'after five',
      source: 'billboard',
      status: 'lost',
      estimated_premium: '-5',
      next_follow_up_at: '9999-01-01T00:00:00Z',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      last_name: ['Enter a first and last name, or a business name.'],
      email: ['Enter a valid email address.'],
      phone: ['Use digits, spaces, +, - and parentheses, and "ext." before an extension.'],
      source: ['Choose where the lead came from.'],
      estimated_premium: ['This cannot be negative.'],
      next_follow_up_at: ['Enter a date between 1900 and 2200.'],
      lost_reason: ['Say why the lead was lost.'],
    });
    const lost = await as.post('/api/leads/', { ...maya, status: 'lost', lost_reason: '   ' });
    expect(lost.json()).toEqual({ lost_reason: ['Say why the lead was lost.'] });
    expect((await as.post('/api/leads/', { ...maya, next_follow_up_at: 'tomorrow' })).json()).toEqual({
      next_follow_up_at: ['Enter a valid date and time.'],
    });
    expect((await as.post('/api/leads/', [])).statusCode).toBe(400);
    expect((await as.get('/api/leads/')).json().count).toBe(0);
  });

  it('writes every change of status on the timeline with who and when, by PATCH or PUT', async () => {
    const { as, user } = await agency();
    const { id } = (await as.post('/api/leads/', maya)).json();
    const before = Date.now();

    const contacted = await as.patch(`/api/leads/${id}/`, { status: 'contacted' });
    expect(contacted.statusCode).toBe(200);
    expect(contacted.json()).toMatchObject({ ...maya, status: 'contacted' });
    // Another field changing writes nothing.
    await as.patch(`/api/leads/${id}/`, { notes: 'Wants a quote for two cars.' });

    const noReason = await as.patch(`/api/leads/${id}/`, { status: 'lost' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({ lost_reason: ['Say why the lead was lost.'] });

    const lost = await as.put(`/api/leads/${id}/`, {
      ...maya,
      status: 'lost',
      lost_reason: 'Went with a bank',
    });
    expect(lost.json()).toMatchObject({ status: 'lost', lost_reason: 'Went with a bank', notes: '' });
    expect(lost.json().closed_at).not.toBeNull();
    const reopened = await as.patch(`/api/leads/${id}/`, { status: 'quoted' });
    expect(reopened.json()).toMatchObject({ status: 'quoted', lost_reason: '', closed_at: null });

    const timeline = (await as.get(`/api/leads/${id}/activities/`)).json().results;
    expect(
      timeline.map((row: { from_status: string; to_status: string }) => [row.from_status, row.to_status]),
    ).toEqual([
      ['lost', 'quoted'],
      ['contacted', 'lost'],
      ['new', 'contacted'],
      [null, 'new'],
    ]);
    for (const row of timeline) {
      expect(row).toMatchObject({
        activity_type: 'status_change',
        user_id: user.id,
        user_name: 'Noa Peretz',
      });
    }
    const latest = Date.parse(timeline[0].occurred_at);
    expect(latest).toBeGreaterThanOrEqual(before - 1000);
    expect(latest).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('logs calls, emails, meetings and notes as the signed-in user, but never a status change', async () => {
    const { as, user } = await agency();
    const { id } = (await as.post('/api/leads/', maya)).json();
    const call = await as.post(`/api/leads/${id}/activities/`, {
      activity_type: 'call',
      summary: 'Asked about home cover.',
      occurred_at: '2026-01-05T10:00:00Z',
    });
    expect(call.statusCode).toBe(201);
    expect(call.json()).toMatchObject({
      lead_id: id,
      activity_type: 'call',
      summary: 'Asked about home cover.',
      user_id: user.id,
      user_name: 'Noa Peretz',
      occurred_at: '2026-01-05T10:00:00.000Z',
      from_status: null,
      to_status: null,
    });
    const note = await as.post(`/api/leads/${id}/activities/`, {
      activity_type: 'note',
      summary: 'Prefers mornings.',
    });
    expect(note.statusCode).toBe(201);

    const refused = await as.post(`/api/leads/${id}/activities/`, {
      activity_type: 'status_change',
      summary: '',
    });
    expect(refused.json()).toEqual({
      activity_type: ['Choose a call, email, meeting or note.'],
      summary: ['This field may not be blank.'],
    });
    const types = (await as.get(`/api/leads/${id}/activities/`))
      .json()
      .results.map((row: { activity_type: string }) => row.activity_type);
    // Latest first: the note (now), the first status (when added), the call dated in the past.
    expect(types).toEqual(['note', 'status_change', 'call']);
  });

  it('lists a page at a time with search, filters, follow-ups due and sort on the server', async () => {
    const { as, user } = await agency();
    const { today, day } = await databaseCalendar(t);
    const at = (date: string, time = '12:00:00') => `${date}T${time}Z`;
    const bodies = [
      { ...maya, next_follow_up_at: at(day(-3)), estimated_premium: '900' },
      {
        first_name: 'Ari',
        last_name: 'Ben Ami',
        phone: '03 555 1234',
        source: 'website',
        next_follow_up_at: at(today, '23:59:59'),
        assigned_user_id: user.id,
        status: 'qualified',
      },
      {
        business_name: 'Cohen Logistics',
        email: 'ops@cohen.example',
        source: 'partner',
        next_follow_up_at: at(day(1)),
        estimated_premium: '4000',
      },
      { first_name: 'Dina', last_name: 'Adler', source: 'website', next_follow_up_at: at(day(8)) },
      {
        first_name: 'Eli',
        last_name: 'Won',
        status: 'won',
        next_follow_up_at: at(day(-3)),
        estimated_premium: '100',
      },
    ];
    // Only Ari's is assigned: the others say no one, rather than their creator by default.
    for (const body of bodies) {
      const payload = { assigned_user_id: null, ...body };
      expect((await as.post('/api/leads/', payload)).statusCode).toBe(201);
    }
    const list = async (query: string) => names(await as.get(`/api/leads/?${query}`));

    expect(await list('')).toEqual(['Eli Won', 'Dina Adler', 'Cohen Logistics', 'Ari Ben Ami', 'Maya Golan']);
    expect(await list('ordering=name')).toEqual([
      'Ari Ben Ami',
      'Cohen Logistics',
      'Dina Adler',
      'Eli Won',
      'Maya Golan',
    ]);
    expect(await list('ordering=status')).toEqual([
      'Maya Golan',
      'Cohen Logistics',
      'Dina Adler',
      'Ari Ben Ami',
      'Eli Won',
    ]);
    expect(await list('ordering=-estimated_premium')).toEqual([
      'Cohen Logistics',
      'Maya Golan',
      'Eli Won',
      'Dina Adler',
      'Ari Ben Ami',
    ]);
    expect(await list('ordering=next_follow_up_at')).toEqual([
      'Maya Golan',
      'Eli Won',
      'Ari Ben Ami',
      'Cohen Logistics',
      'Dina Adler',
    ]);

    expect(await list('search=golan')).toEqual(['Maya Golan']);
    expect(await list('search=COHEN.example')).toEqual(['Cohen Logistics']);
    expect(await list('search=5551234')).toEqual(['Ari Ben Ami']);
    expect(await list('search=100%25')).toEqual([]);
    expect(await list('status=qualified')).toEqual(['Ari Ben Ami']);
    expect(await list('source=website&ordering=name')).toEqual(['Ari Ben Ami', 'Dina Adler']);
    expect(await list(`assigned_user_id=${user.id}`)).toEqual(['Ari Ben Ami']);

    // Only open leads are due; the won one's old follow-up no longer is.
    expect(await list('follow_up=overdue')).toEqual(['Maya Golan']);
    expect(await list('follow_up=today')).toEqual(['Ari Ben Ami']);
    const sunday = new Date(`${today}T00:00:00Z`).getUTCDay() === 0;
    expect(await list('follow_up=this_week&ordering=name')).toEqual(
      sunday ? ['Ari Ben Ami'] : ['Ari Ben Ami', 'Cohen Logistics'],
    );
    expect((await as.get('/api/leads/?follow_up=soon')).json()).toEqual({
      follow_up: ['Choose overdue, today or this_week.'],
    });
    expect((await as.get('/api/leads/?ordering=email')).statusCode).toBe(400);

    const first = (await as.get('/api/leads/?page_size=2&source=website')).json();
    expect(first).toMatchObject({ count: 2, next: null, previous: null });
    const paged = (await as.get('/api/leads/?page_size=2')).json();
    expect(paged.next).toBe('/api/leads/?page_size=2&page=2');
  });

  it('shows the customers and leads with the same email or phone', async () => {
    const { as } = await agency();
    const customer = (
      await as.post('/api/customers/', { first_name: 'Maya', last_name: 'Golan', email: 'maya@example.com' })
    ).json();
    const first = (await as.post('/api/leads/', { ...maya, email: '' })).json();
    const second = (
      await as.post('/api/leads/', { ...maya, first_name: 'M.', phone: '(054) 2223333' })
    ).json();
    expect(second.matches).toEqual([
      {
        kind: 'customer',
        id: customer.id,
        display_name: 'Maya Golan',
        email: 'maya@example.com',
        phone: '',
        matched_on: ['email'],
      },
      {
        kind: 'lead',
        id: first.id,
        display_name: 'Maya Golan',
        email: '',
        phone: '054-222-3333',
        matched_on: ['phone'],
      },
    ]);
    const typed = (await as.get('/api/leads/duplicates/?email=MAYA@example.com')).json().results;
    expect(typed.map((match: { kind: string; id: string }) => [match.kind, match.id])).toEqual([
      ['customer', customer.id],
      ['lead', second.id],
    ]);
    expect(
      (await as.get(`/api/leads/duplicates/?phone=0542223333&exclude_id=${second.id}`)).json().results,
    ).toEqual([expect.objectContaining({ kind: 'lead', id: first.id })]);
    expect((await as.get('/api/leads/duplicates/?phone=054')).json().results).toEqual([]);
  });

  it('converts a lead into a customer once, carrying its details over and keeping the link both ways', async () => {
    const { as, user } = await agency();
    const { id } = (
      await as.post('/api/leads/', {
        ...maya,
        business_name: 'Golan Bakery',
        status: 'quoted',
        notes: 'Two delivery vans.',
      })
    ).json();

    const converted = await as.post(`/api/leads/${id}/convert/`);
    expect(converted.statusCode).toBe(201);
    const { customer, lead, created } = converted.json();
    expect(created).toBe(true);
    expect(lead).toMatchObject({ id, status: 'won', customer_id: customer.id, matches: [] });
    expect((await as.get(`/api/customers/${customer.id}/`)).json()).toMatchObject({
      customer_type: 'business',
      business_name: 'Golan Bakery',
      display_name: 'Golan Bakery',
      first_name: 'Maya',
      last_name: 'Golan',
      email: 'maya@example.com',
      phone: '054-222-3333',
      notes: 'Two delivery vans.',
    });
    // The customer's page finds the lead it came from.
    expect(names(await as.get(`/api/leads/?customer_id=${customer.id}`))).toEqual(['Golan Bakery']);

    const again = await as.post(`/api/leads/${id}/convert/`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: false, customer: { id: customer.id } });
    expect((await as.get('/api/customers/')).json().count).toBe(1);

    const timeline = (await as.get(`/api/leads/${id}/activities/`)).json().results;
    expect(timeline[0]).toMatchObject({ from_status: 'quoted', to_status: 'won', user_id: user.id });
    expect(timeline.filter((row: { to_status: string }) => row.to_status === 'won')).toHaveLength(1);

    // A business lead without a person to speak to cannot become a customer yet.
    const nameless = (await as.post('/api/leads/', { business_name: 'Nameless Ltd' })).json();
    const refused = await as.post(`/api/leads/${nameless.id}/convert/`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toMatch(/first and last name/);
    expect((await as.get(`/api/leads/${nameless.id}/`)).json().status).toBe('new');
  });

  it('links a lead to the existing customer it matches instead of making the same person twice', async () => {
    const { as, user } = await agency();
    // The agency is at its plan's customer limit: linking makes no customer, so it still works.
    await setSubscription(t, user.tenant_id, { plan: 'starter', status: 'active' });
    await insertCustomers(user.tenant_id, 249);
    const existing = (
      await as.post('/api/customers/', { first_name: 'M.', last_name: 'Golan', email: 'maya@example.com' })
    ).json();
    const { id } = (await as.post('/api/leads/', { ...maya, status: 'quoted' })).json();
    expect((await as.get(`/api/leads/${id}/`)).json().matches).toEqual([
      expect.objectContaining({ kind: 'customer', id: existing.id, matched_on: ['email'] }),
    ]);
    expect((await as.post(`/api/leads/${id}/convert/`)).statusCode).toBe(402);

    const linked = await as.post(`/api/leads/${id}/convert/`, { customer_id: existing.id });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({
      created: false,
      customer: { id: existing.id, display_name: 'M. Golan' },
      lead: { id, status: 'won', customer_id: existing.id },
    });
    expect((await as.get('/api/customers/')).json().count).toBe(250);
    // Linked both ways: the customer's page finds the lead it came from, and its details stay its own.
    expect(names(await as.get(`/api/leads/?customer_id=${existing.id}`))).toEqual(['Maya Golan']);
    expect((await as.get(`/api/customers/${existing.id}/`)).json()).toMatchObject({
      first_name: 'M.',
      phone: '',
    });
    const timeline = (await as.get(`/api/leads/${id}/activities/`)).json().results;
    expect(timeline[0]).toMatchObject({ from_status: 'quoted', to_status: 'won', user_id: user.id });

    // Converting again, with or without the customer, answers the same one and changes nothing.
    for (const again of [
      await as.post(`/api/leads/${id}/convert/`),
      await as.post(`/api/leads/${id}/convert/`, { customer_id: existing.id }),
    ]) {
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ created: false, customer: { id: existing.id } });
    }
    const timelineAfter = (await as.get(`/api/leads/${id}/activities/`)).json().results;
    expect(timelineAfter).toHaveLength(timeline.length);
    expect((await as.get('/api/customers/')).json().count).toBe(250);

    // A second lead for the same person cannot take a customer that already came from a lead.
    const second = (await as.post('/api/leads/', maya)).json();
    const taken = await as.post(`/api/leads/${second.id}/convert/`, { customer_id: existing.id });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe(
      'M. Golan already came from the lead Maya Golan: a customer is linked to one lead only. Create a new customer instead, or open that lead.',
    );
    expect((await as.get(`/api/leads/${second.id}/`)).json()).toMatchObject({
      status: 'new',
      customer_id: null,
    });
    // Nor can a converted lead be moved to another customer by converting it again.
    const [bulk] = (await as.get('/api/customers/?search=Bulk&page_size=1')).json().results;
    const moved = await as.post(`/api/leads/${id}/convert/`, { customer_id: bulk.id });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().detail).toBe('Maya Golan was already converted into the customer M. Golan.');
  });

  it("refuses to link a lead to another agency's customer or to no customer at all", async () => {
    const owner = await agency();
    const other = await agency();
    const theirs = (
      await other.as.post('/api/customers/', { first_name: 'Maya', last_name: 'Golan' })
    ).json();
    const { id } = (await owner.as.post('/api/leads/', maya)).json();

    for (const customerId of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await owner.as.post(`/api/leads/${id}/convert/`, { customer_id: customerId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ customer_id: ['Choose one of your customers.'] });
    }
    expect((await owner.as.post(`/api/leads/${id}/convert/`, { customer_id: 'maya' })).json()).toEqual({
      customer_id: ['Choose one of your customers.'],
    });
    expect((await owner.as.get(`/api/leads/${id}/`)).json()).toMatchObject({
      status: 'new',
      customer_id: null,
    });
    expect((await owner.as.get('/api/customers/')).json().count).toBe(0);
    expect((await other.as.get(`/api/leads/?customer_id=${theirs.id}`)).json().count).toBe(0);

    // An empty body converts as before: a new customer from the lead.
    const converted = await owner.as.post(`/api/leads/${id}/convert/`, {});
    expect(converted.statusCode).toBe(201);
    expect(converted.json()).toMatchObject({ created: true, customer: { display_name: 'Maya Golan' } });
  });

  it('counts leads by status, the open pipeline, and the conversion rate of leads closed in a period', async () => {
    const { as, user } = await agency();
    const tenantId = user.tenant_id;
    const add = async (body: Record<string, unknown>) =>
      (await as.post('/api/leads/', { ...maya, ...body })).json().id;
    await add({ estimated_premium: '1000.10' });
    await add({ status: 'contacted', estimated_premium: '250.25' });
    await add({ status: 'quoted' });
    const wonInMarch = [
      await add({ status: 'won', estimated_premium: '5000' }),
      await add({ status: 'won' }),
    ];
    const lostInMarch = await add({ status: 'lost', lost_reason: 'Price' });
    const wonInApril = await add({ status: 'won' });
    for (const id of wonInMarch) await closeOn(tenantId, id, '2026-03-10');
    await closeOn(tenantId, lostInMarch, '2026-03-31');
    await closeOn(tenantId, wonInApril, '2026-04-01');

    const march = (await as.get('/api/leads/stats/?date_from=2026-03-01&date_to=2026-03-31')).json();
    expect(march).toEqual({
      total: 7,
      by_status: { new: 1, contacted: 1, qualified: 0, quoted: 1, won: 3, lost: 1 },
      open_count: 3,
      open_pipeline_premium: '1250.35',
      date_from: '2026-03-01',
      date_to: '2026-03-31',
      won_in_period: 2,
      lost_in_period: 1,
      conversion_rate: '66.67',
    });
    const spring = (await as.get('/api/leads/stats/?date_from=2026-03-01&date_to=2026-04-30')).json();
    expect(spring).toMatchObject({ won_in_period: 3, lost_in_period: 1, conversion_rate: '75.00' });
    const quiet = (await as.get('/api/leads/stats/?date_from=2025-01-01&date_to=2025-01-31')).json();
    expect(quiet).toMatchObject({ won_in_period: 0, lost_in_period: 0, conversion_rate: null });

    const { today, day } = await databaseCalendar(t);
    expect((await as.get('/api/leads/stats/')).json()).toMatchObject({ date_from: day(-29), date_to: today });
    expect((await as.get('/api/leads/stats/?date_from=2026-03-02&date_to=2026-03-01')).json()).toEqual({
      date_to: ['The period must end on or after its first day.'],
    });
  });

  it('deletes a lead with its timeline, leaving the customer it became', async () => {
    const { as } = await agency();
    const { id } = (await as.post('/api/leads/', maya)).json();
    const { customer } = (await as.post(`/api/leads/${id}/convert/`)).json();
    expect((await as.delete(`/api/leads/${id}/`)).statusCode).toBe(204);
    expect((await as.get(`/api/leads/${id}/`)).statusCode).toBe(404);
    expect((await as.get(`/api/leads/${id}/activities/`)).statusCode).toBe(404);
    expect((await as.delete(`/api/leads/${id}/`)).statusCode).toBe(404);
    expect((await as.get(`/api/customers/${customer.id}/`)).statusCode).toBe(200);
  });

  it("answers 404 for another agency's lead on every call, and never lists or matches it", async () => {
    const owner = await agency();
    const other = await agency();
    const { id } = (await owner.as.post('/api/leads/', maya)).json();

    for (const response of [
      await other.as.get(`/api/leads/${id}/`),
      await other.as.put(`/api/leads/${id}/`, { ...maya, last_name: 'Taken' }),
      await other.as.patch(`/api/leads/${id}/`, { status: 'won' }),
      await other.as.get(`/api/leads/${id}/activities/`),
      await other.as.post(`/api/leads/${id}/activities/`, { activity_type: 'note', summary: 'Mine now' }),
      await other.as.post(`/api/leads/${id}/convert/`),
      await other.as.delete(`/api/leads/${id}/`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Lead not found.' });
    }
    expect((await other.as.get('/api/leads/?search=maya')).json().count).toBe(0);
    expect((await other.as.get('/api/leads/duplicates/?email=maya@example.com')).json()).toEqual({
      results: [],
    });
    expect((await other.as.get('/api/leads/stats/')).json().total).toBe(0);
    expect((await other.as.get('/api/leads/assignees/')).json().results).toEqual([
      { id: other.user.id, name: 'Noa Peretz', email: other.email },
    ]);
    const untouched = (await owner.as.get(`/api/leads/${id}/`)).json();
    expect(untouched).toMatchObject({ last_name: 'Golan', status: 'new', customer_id: null });
    expect((await owner.as.get(`/api/leads/${id}/activities/`)).json().results).toHaveLength(1);
  });

  it('refuses a lead beyond the number the plan allows, and counts leads in the usage', async () => {
    const { as, user } = await agency();
    await setSubscription(t, user.tenant_id, { plan: 'starter', status: 'active' });
    await insertLeads(user.tenant_id, 50);

    const refused = await as.post('/api/leads/', maya);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      detail:
        'Your Starter plan allows up to 50 leads; Professional allows 200. Upgrade your plan on the Billing page to add more.',
    });
    const usage = (await as.get('/api/billing/usage/summary/')).json();
    expect(usage.leads).toMatchObject({ current_value: 50, limit_value: 50, remaining_usage: 0 });

    await setSubscription(t, user.tenant_id, { plan: 'professional' });
    expect((await as.post('/api/leads/', maya)).statusCode).toBe(201);
  });

  it('needs a signed-in user whose plan includes leads', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/leads/' })).statusCode).toBe(401);
    const lapsed = await agency();
    await setSubscription(t, lapsed.user.tenant_id, { status: 'expired' });
    expect((await lapsed.as.get('/api/leads/')).statusCode).toBe(402);
    expect((await lapsed.as.post('/api/leads/', maya)).statusCode).toBe(402);

    const without = await agency();
    await setSubscription(t, without.user.tenant_id, { plan: await addPlanWithout(t, 'module_leads') });
    const refused = await without.as.get('/api/leads/stats/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/does not include Leads/);

    // Converting makes a customer: a plan with leads but without customers refuses it.
    const leadsOnly = await agency();
    const { id } = (await leadsOnly.as.post('/api/leads/', maya)).json();
    await setSubscription(t, leadsOnly.user.tenant_id, { plan: await addPlanWithout(t, 'module_customers') });
    const convert = await leadsOnly.as.post(`/api/leads/${id}/convert/`);
    expect(convert.statusCode).toBe(403);
    expect(convert.json().detail).toMatch(/does not include Customers/);
    expect((await leadsOnly.as.get(`/api/leads/${id}/`)).json().customer_id).toBeNull();
  });

  it('keeps the status history through the trigger even for changes made outside the routes', async () => {
    const { as, user } = await agency();
    const { id } = (await as.post('/api/leads/', maya)).json();
    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.execute(sql`update leads set status = 'qualified' where id = ${id}`),
    );
    const timeline = (await as.get(`/api/leads/${id}/activities/`)).json().results;
    expect(timeline[0]).toMatchObject({
      from_status: 'new',
      to_status: 'qualified',
      user_id: null,
      user_name: '',
    });
  });
});

describe('leads export', () => {
  it('holds exactly the leads the list shows, in its order, with follow-ups in the agency time zone', async () => {
    const { as } = await signedInAgency(t.app, { time_zone: 'Asia/Jerusalem' });
    const other = await agency();
    expect((await other.as.post('/api/leads/', maya)).statusCode).toBe(201);
    for (const lead of [
      { ...maya, estimated_premium: '2500.75', next_follow_up_at: '2026-12-01T08:30:00Z' },
      { first_name: 'Ari', last_name: 'Stern', source: 'referral', notes: '+972 call first' },
      { first_name: 'Zed', last_name: 'Lost', source: 'website' },
    ]) {
      expect((await as.post('/api/leads/', lead)).statusCode).toBe(201);
    }

    const query = 'source=referral&status=new&ordering=-name';
    const listed = (await as.get(`/api/leads/?${query}`))
      .json()
      .results.map((lead: { display_name: string }) => lead.display_name);
    expect(listed).toEqual(['Maya Golan', 'Ari Stern']);

    const { csv, xlsx, fileName } = await exportBoth(as, '/api/leads/export/', query);
    expect(fileName).toMatch(/^leads-/);
    expect(xlsx[0]).toEqual(csv[0]);
    expect(column(csv, 'Name')).toEqual(listed);
    expect(column(xlsx, 'Name')).toEqual(listed);
    expect(column(csv, 'Estimated premium')).toEqual(['2500.75', '']);
    expect(column(xlsx, 'Estimated premium')).toEqual([2500.75, null]);
    // 08:30 UTC is 10:30 in Jerusalem in December: the broker's own clock.
    expect(column(csv, 'Next follow-up')).toEqual(['2026-12-01 10:30', '']);
    expect(column(xlsx, 'Next follow-up')).toEqual([new Date('2026-12-01T10:30:00Z'), null]);
    expect(column(csv, 'Notes')).toEqual(['', "'+972 call first"]);
    expect(column(xlsx, 'Notes')).toEqual([null, '+972 call first']);
    expect(column(csv, 'Source')).toEqual(['Referral', 'Referral']);
    expect(column(xlsx, 'Status')).toEqual(['New', 'New']);
  });

  it('refuses an unknown format and holds the plan gate', async () => {
    const broker = await agency();
    await expectFormatAndGate(t, broker, '/api/leads/export/', 'module_leads');
  });
});
