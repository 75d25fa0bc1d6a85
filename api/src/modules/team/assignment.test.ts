import { randomUUID } from 'node:crypto';
import type {
  CalendarEventList,
  ClaimDetail,
  CustomerDetail,
  Lead,
  Policy,
  TeamRole,
} from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Agency,
  addClaim,
  addCustomer,
  addPolicy,
  addTeamMember,
  cover,
  created,
} from '../../../test/team-book.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' });
});
afterAll(() => t.close());

type Caller = Agency['as'];

const NOT_A_MEMBER = 'Choose an active member of your agency.';

const addMember = (agency: Agency, role: TeamRole, firstName?: string) =>
  addTeamMember(t.app, agency, role, firstName);

const ids = async (as: Caller, url: string) => {
  const response = await as.get(url);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { results: { id: string }[] }).results.map((row) => row.id).sort();
};

describe('who looks after a record', () => {
  it('is the member who creates it, unless the body names another active member', async () => {
    const agency = await signedInAgency(t.app);
    const agent = await addMember(agency, 'agent', 'Avi');
    const customer = await addCustomer(agent.as);
    expect(customer.assigned_to).toBe(agent.id);
    expect(customer.assigned_to_name).toBe('Avi Cohen');

    const given = await addCustomer(agent.as, { assigned_to: agency.user.id });
    expect(given.assigned_to).toBe(agency.user.id);
    expect(given.assigned_to_name).toBe('Noa Peretz');

    const parties = await cover(agency.as);
    const policy = await addPolicy(agent.as, parties, customer.id);
    expect([policy.assigned_to, policy.assigned_to_name]).toEqual([agent.id, 'Avi Cohen']);
    const claim = await addClaim(agency.as, policy.id);
    expect(claim.assigned_to).toBe(agency.user.id);
    const lead = await created<Lead>(agent.as.post('/api/leads/', { first_name: 'Ron', last_name: 'Bar' }));
    expect(lead.assigned_user_id).toBe(agent.id);
    const unassigned = await created<Lead>(
      agent.as.post('/api/leads/', { first_name: 'Gil', last_name: 'Bar', assigned_user_id: null }),
    );
    expect(unassigned.assigned_user_id).toBeNull();

    // A lead converted becomes a customer of the member converting it.
    const converted = await agency.as.post(`/api/leads/${lead.id}/convert/`, {});
    expect(converted.statusCode, converted.body).toBeLessThan(300);
    const convertedCustomer = (converted.json() as { customer: { id: string } }).customer;
    const read = (await agency.as.get(`/api/customers/${convertedCustomer.id}/`)).json() as CustomerDetail;
    expect(read.assigned_to).toBe(agency.user.id);
  });

  it('keeps its assignee through edits that leave it out, and changes it when named', async () => {
    const agency = await signedInAgency(t.app);
    const agent = await addMember(agency, 'agent');
    const customer = await addCustomer(agency.as);
    const put = await agency.as.put(`/api/customers/${customer.id}/`, {
      first_name: 'Dana',
      last_name: 'Katz',
    });
    expect((put.json() as CustomerDetail).assigned_to).toBe(agency.user.id);
    const patched = await agency.as.patch(`/api/customers/${customer.id}/`, { assigned_to: agent.id });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((patched.json() as CustomerDetail).assigned_to).toBe(agent.id);

    const parties = await cover(agency.as);
    const policy = await addPolicy(agency.as, parties, customer.id);
    const changed = await agency.as.put(`/api/policies/${policy.id}/`, {
      policy_number: policy.policy_number,
      customer_id: customer.id,
      ...parties,
      start_date: policy.start_date,
      end_date: policy.end_date,
      total_premium: policy.total_premium,
      assigned_to: agent.id,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as Policy).assigned_to).toBe(agent.id);
    // A renewal stays with whoever looks after the term.
    const renewal = await agency.as.post(`/api/policies/${policy.id}/renew/`, {});
    expect(renewal.statusCode, renewal.body).toBe(201);
    expect((renewal.json() as Policy).assigned_to).toBe(agent.id);
  });

  it('refuses an assignee who is not an active member of the agency', async () => {
    const agency = await signedInAgency(t.app);
    const other = await signedInAgency(t.app);
    const leaving = await addMember(agency, 'agent');
    const deactivated = await agency.as.patch(`/api/team/members/${leaving.id}/`, { is_active: false });
    expect(deactivated.statusCode, deactivated.body).toBe(200);

    for (const assignee of [other.user.id, leaving.id, randomUUID(), 'nobody']) {
      const response = await agency.as.post('/api/customers/', {
        first_name: 'Dana',
        last_name: 'Levi',
        assigned_to: assignee,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ assigned_to: [NOT_A_MEMBER] });
    }
    const customer = await addCustomer(agency.as);
    const parties = await cover(agency.as);
    const policy = await agency.as.post('/api/policies/', {
      policy_number: 'POL-1',
      customer_id: customer.id,
      ...parties,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      total_premium: '100.00',
      assigned_to: other.user.id,
    });
    expect(policy.statusCode).toBe(400);
    expect(policy.json()).toEqual({ assigned_to: [NOT_A_MEMBER] });
  });
});

describe('an import', () => {
  it('assigns what it adds to the member who imports it', async () => {
    const agency = await signedInAgency(t.app);
    const agent = await addMember(agency, 'agent');
    const file = 'First name,Last name,City\r\nImported,Person,Haifa\r\n';
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/imports/?kind=customers&file_name=book.csv',
      headers: { authorization: `Bearer ${agent.access}`, 'content-type': 'text/csv' },
      payload: Buffer.from(file),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const record = uploaded.json() as { id: string; columns: (string | null)[] };
    const settled = await agent.as.put(`/api/imports/${record.id}/`, {
      columns: record.columns,
      duplicates: 'skip',
      all_or_nothing: true,
    });
    expect(settled.statusCode, settled.body).toBe(200);
    expect((await agent.as.post(`/api/imports/${record.id}/start/`)).statusCode).toBe(202);
    for (let attempt = 0; attempt < 200; attempt++) {
      const status = ((await agent.as.get(`/api/imports/${record.id}/`)).json() as { status: string }).status;
      if (status === 'done' || status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const customers = (await agency.as.get('/api/customers/?search=Imported')).json() as {
      results: CustomerDetail[];
    };
    expect(customers.results.map((customer) => customer.assigned_to)).toEqual([agent.id]);
  });
});

describe('the "Mine" filter', () => {
  it('keeps the records assigned to one member on every list and export', async () => {
    const agency = await signedInAgency(t.app);
    const agent = await addMember(agency, 'agent');
    const parties = await cover(agency.as);
    const mine = await addCustomer(agent.as, { first_name: 'Mine' });
    const theirs = await addCustomer(agency.as, { first_name: 'Theirs' });
    const myPolicy = await addPolicy(agent.as, parties, mine.id);
    const theirPolicy = await addPolicy(agency.as, parties, theirs.id);
    const myClaim = await addClaim(agent.as, myPolicy.id);
    await addClaim(agency.as, theirPolicy.id);

    const filter = `assigned_to=${agent.id}`;
    expect(await ids(agency.as, `/api/customers/?${filter}`)).toEqual([mine.id]);
    expect(await ids(agency.as, `/api/policies/?${filter}`)).toEqual([myPolicy.id]);
    expect(await ids(agency.as, `/api/claims/?${filter}`)).toEqual([myClaim.id]);
    expect((await ids(agency.as, '/api/customers/')).length).toBe(2);

    const policies = (await agency.as.get(`/api/policies/?${filter}&status=active`)).json() as {
      count: number;
      results: Policy[];
    };
    expect(policies.count).toBe(1);
    // The list's JSON, written by the database, is the single read.
    const single = (await agency.as.get(`/api/policies/${myPolicy.id}/`)).json() as Policy & {
      claim_count?: number;
    };
    const { claim_count: _, ...alone } = single;
    expect(policies.results[0]).toEqual(alone);

    const exported = await agency.as.get(`/api/customers/export/?format=csv&${filter}`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain('Mine');
    expect(exported.body).not.toContain('Theirs');
    const exportedPolicies = await agency.as.get(`/api/policies/export/?format=csv&${filter}`);
    expect(exportedPolicies.body).toContain(myPolicy.policy_number);
    expect(exportedPolicies.body).not.toContain(theirPolicy.policy_number);
  });
});

describe('reassigning in bulk', () => {
  it('hands the records named to one member, audited, for owners and managers only', async () => {
    const agency = await signedInAgency(t.app);
    const agent = await addMember(agency, 'agent');
    const manager = await addMember(agency, 'manager');
    const parties = await cover(agency.as);
    const customer = await addCustomer(agency.as);
    const policy = await addPolicy(agency.as, parties, customer.id);
    const claim = await addClaim(agency.as, policy.id);
    const lead = await created<Lead>(agency.as.post('/api/leads/', { first_name: 'Ron', last_name: 'Bar' }));
    const body = {
      to: agent.id,
      customer_ids: [customer.id],
      policy_ids: [policy.id],
      claim_ids: [claim.id],
      lead_ids: [lead.id],
    };

    expect((await agent.as.post('/api/team/reassign/', body)).statusCode).toBe(403);
    const moved = await manager.as.post('/api/team/reassign/', body);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ customers: 1, policies: 1, claims: 1, leads: 1 });
    // Again: nothing changes hands.
    expect((await manager.as.post('/api/team/reassign/', body)).json()).toEqual({
      customers: 0,
      policies: 0,
      claims: 0,
      leads: 0,
    });
    expect(
      ((await agency.as.get(`/api/customers/${customer.id}/`)).json() as CustomerDetail).assigned_to,
    ).toBe(agent.id);
    expect(((await agency.as.get(`/api/policies/${policy.id}/`)).json() as Policy).assigned_to).toBe(
      agent.id,
    );
    expect(((await agency.as.get(`/api/claims/${claim.id}/`)).json() as ClaimDetail).assigned_to).toBe(
      agent.id,
    );
    expect(((await agency.as.get(`/api/leads/${lead.id}/`)).json() as Lead).assigned_user_id).toBe(agent.id);

    const log = (await agency.as.get('/api/user/profile/audit/?entity=customer&page_size=100')).json() as {
      results: { entity_id: string; changes: Record<string, { before: unknown; after: unknown }> }[];
    };
    const entry = log.results.find((row) => row.entity_id === customer.id && row.changes.assigned_to);
    expect(entry?.changes.assigned_to).toEqual({ before: agency.user.id, after: agent.id });
  });

  it("answers 404 for another agency's ids and changes nothing", async () => {
    const agency = await signedInAgency(t.app);
    const other = await signedInAgency(t.app);
    const agent = await addMember(agency, 'agent');
    const own = await addCustomer(agency.as);
    const theirs = await addCustomer(other.as);
    const response = await agency.as.post('/api/team/reassign/', {
      to: agent.id,
      customer_ids: [own.id, theirs.id],
    });
    expect(response.statusCode, response.body).toBe(404);
    expect(((await agency.as.get(`/api/customers/${own.id}/`)).json() as CustomerDetail).assigned_to).toBe(
      agency.user.id,
    );
    expect(((await other.as.get(`/api/customers/${theirs.id}/`)).json() as CustomerDetail).assigned_to).toBe(
      other.user.id,
    );
    // Nor to another agency's member, nor more than 1,000 at once.
    const outsider = await agency.as.post('/api/team/reassign/', {
      to: other.user.id,
      customer_ids: [own.id],
    });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json()).toEqual({ to: [NOT_A_MEMBER] });
    const tooMany = await agency.as.post('/api/team/reassign/', {
      to: agent.id,
      customer_ids: Array.from({ length: 1001 }, () => randomUUID()),
    });
    expect(tooMany.statusCode).toBe(400);
  });
});

describe('an agency that shows agents only their own book', () => {
  it("shows an agent their customers and what hangs off them, and another agent's as missing", async () => {
    const agency = await signedInAgency(t.app);
    const ari = await addMember(agency, 'agent', 'Ari');
    const bea = await addMember(agency, 'agent', 'Bea');
    const viewer = await addMember(agency, 'viewer', 'Vic');
    const manager = await addMember(agency, 'manager', 'Max');
    const parties = await cover(agency.as);
    const arisCustomer = await addCustomer(ari.as, { first_name: 'Ariel' });
    const arisPolicy = await addPolicy(ari.as, parties, arisCustomer.id);
    const arisClaim = await addClaim(ari.as, arisPolicy.id);
    const beasCustomer = await addCustomer(bea.as, { first_name: 'Beatrice' });
    // A policy on Bea's customer that Ari looks after still belongs to Bea's book.
    const beasPolicy = await addPolicy(agency.as, parties, beasCustomer.id, { assigned_to: ari.id });
    const arisLead = await created<Lead>(ari.as.post('/api/leads/', { first_name: 'Lia', last_name: 'Tal' }));

    const turned = await agency.as.patch('/api/team/settings/', { agents_see_own_book: true });
    expect(turned.statusCode, turned.body).toBe(200);

    // Bea: her own customer and what hangs off it; Ari's answer 404.
    expect(await ids(bea.as, '/api/customers/')).toEqual([beasCustomer.id]);
    expect(await ids(bea.as, '/api/policies/')).toEqual([beasPolicy.id]);
    expect(((await bea.as.get('/api/policies/')).json() as { count: number }).count).toBe(1);
    expect(await ids(bea.as, '/api/claims/')).toEqual([]);
    expect(await ids(bea.as, '/api/leads/')).toEqual([]);
    for (const url of [
      `/api/customers/${arisCustomer.id}/`,
      `/api/policies/${arisPolicy.id}/`,
      `/api/claims/${arisClaim.id}/`,
      `/api/leads/${arisLead.id}/`,
    ]) {
      expect((await bea.as.get(url)).statusCode, url).toBe(404);
    }
    expect(
      (await bea.as.put(`/api/customers/${arisCustomer.id}/`, { first_name: 'X', last_name: 'Y' }))
        .statusCode,
    ).toBe(404);
    const exported = await bea.as.get('/api/customers/export/?format=csv');
    expect(exported.body).toContain('Beatrice');
    expect(exported.body).not.toContain('Ariel');

    // Ari's book; his claim numbers still count the agency's.
    expect(await ids(ari.as, '/api/customers/')).toEqual([arisCustomer.id]);
    expect(await ids(ari.as, '/api/leads/')).toEqual([arisLead.id]);
    const beasClaim = await addClaim(agency.as, beasPolicy.id);
    const second = await addClaim(ari.as, arisPolicy.id);
    expect(second.claim_number).not.toBe(beasClaim.claim_number);
    expect(second.claim_number).not.toBe(arisClaim.claim_number);

    // The agency's figures are, to an agent, their own book's (own-book-figures.test.ts).
    const stats = await bea.as.get('/api/policies/stats/');
    expect(stats.statusCode, stats.body).toBe(200);
    expect((stats.json() as { total: number }).total).toBe(1);
    // Nor to give away: an agent keeps the customers they add.
    const givenAway = await bea.as.post('/api/customers/', {
      first_name: 'G',
      last_name: 'A',
      assigned_to: ari.id,
    });
    expect(givenAway.statusCode).toBe(403);

    // Owners, managers and viewers see the whole book.
    for (const caller of [agency.as, manager.as, viewer.as]) {
      expect((await ids(caller, '/api/customers/')).length).toBe(2);
      expect((await caller.get(`/api/customers/${arisCustomer.id}/`)).statusCode).toBe(200);
      expect((await caller.get('/api/policies/stats/')).statusCode).toBe(200);
    }

    // Turned off, agents see the whole book again.
    await agency.as.patch('/api/team/settings/', { agents_see_own_book: false });
    expect((await ids(bea.as, '/api/customers/')).length).toBe(2);
    expect((await bea.as.get('/api/policies/stats/')).statusCode).toBe(200);
  });

  it("finds, exports and puts on the calendar only an agent's own book", async () => {
    const agency = await signedInAgency(t.app);
    const ari = await addMember(agency, 'agent', 'Ari');
    const bea = await addMember(agency, 'agent', 'Bea');
    const parties = await cover(agency.as);
    /** A customer of the agent's, all named Zamir: a monthly policy, a claim, a lead to follow up, a meeting. */
    const book = async (as: Caller, name: string) => {
      const customer = await addCustomer(as, { first_name: name, last_name: 'Zamir' });
      const policy = await addPolicy(as, parties, customer.id, { payment_frequency: 'monthly' });
      const claim = await addClaim(as, policy.id);
      const lead = await created<Lead>(
        as.post('/api/leads/', {
          first_name: `${name}lead`,
          last_name: 'Zamir',
          next_follow_up_at: '2026-03-10T09:00:00Z',
        }),
      );
      await created(
        as.post('/api/calendar/meetings/', {
          title: `${name}meeting`,
          start: '2026-03-12T10:00:00Z',
          end: '2026-03-12T11:00:00Z',
        }),
      );
      return { ids: [customer.id, policy.id, claim.id, lead.id], policy, claim, lead };
    };
    const aris = await book(ari.as, 'Ariel');
    const beas = await book(bea.as, 'Beatrice');
    await agency.as.patch('/api/team/settings/', { agents_see_own_book: true });

    /** What each file or answer names a record by, for Ari's book and for Bea's. */
    const marks: Record<string, [string, string]> = {
      '/api/search/?q=Zamir': ['Ariel', 'Beatrice'],
      '/api/policies/export/?format=csv': [aris.policy.policy_number, beas.policy.policy_number],
      '/api/claims/export/?format=csv': [aris.claim.claim_number, beas.claim.claim_number],
      '/api/leads/export/?format=csv': ['Ariellead', 'Beatricelead'],
      '/api/installments/export/?format=csv': [aris.policy.policy_number, beas.policy.policy_number],
      // A month with each book's instalment, claim, follow-up and meeting, and a year's renewals.
      '/api/calendar/events/?start=2026-03-01&end=2026-03-31': ['Ariel', 'Beatrice'],
      '/api/calendar/events/?start=2026-01-01&end=2026-12-31&kinds=renewal': [
        aris.policy.policy_number,
        beas.policy.policy_number,
      ],
    };
    const read = async (as: Caller, url: string) => {
      const response = await as.get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.body;
    };
    for (const [url, [arisMark, beasMark]] of Object.entries(marks)) {
      const whole = await read(agency.as, url);
      expect(whole, url).toContain(arisMark);
      expect(whole, url).toContain(beasMark);
      const seen = await read(bea.as, url);
      expect(seen, url).toContain(beasMark);
      expect(seen, url).not.toContain(arisMark);
      for (const id of aris.ids) expect(seen, url).not.toContain(id);
    }
    const calendar = JSON.parse(
      await read(bea.as, '/api/calendar/events/?start=2026-03-01&end=2026-03-31'),
    ) as CalendarEventList;
    expect(new Set(calendar.results.map((event) => event.kind))).toEqual(
      new Set(['installment', 'claim_incident', 'claim_reported', 'follow_up', 'meeting']),
    );
    // Searched by its number, another agent's policy is not there at all.
    const byNumber = await bea.as.get(`/api/search/?q=${aris.policy.policy_number}`);
    expect((byNumber.json() as { results: unknown[] }).results).toEqual([]);
  });
});
