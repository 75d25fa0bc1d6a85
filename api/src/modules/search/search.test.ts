import { NO_SEARCH_FILTERS, type SearchResponse, type SearchResult } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../../test/book-parties.js';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import {
  addPlanWithout,
  createTestApp,
  databaseCalendar,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';

let t: TestApp;
type Agency = Awaited<ReturnType<typeof signedInAgency>>;

const search = (agency: Agency, params: Record<string, string>) =>
  ok<SearchResponse>(agency.as.get(`/api/search/?${new URLSearchParams(params)}`));
const titles = (results: SearchResult[]) => results.map((result) => `${result.type}:${result.title}`);

/**
 * A small agency: Noa Peretz (phone 054-123 4567, two policies, one expired, a claim), Yossi
 * Cohen, a lead called Maya Golan, and the insurers Harel and Clal.
 */
async function agencyWithBook() {
  const agency = await signedInAgency(t.app);
  const tenantId = agency.user.tenant_id;
  const { day } = await databaseCalendar(t);
  const noa = await addPolicyParties(agency.as, { customer: ['Noa', 'Peretz'], company: 'Harel' });
  await ok(
    agency.as.patch(`/api/customers/${noa.customerId}/`, {
      phone: '054-123 4567',
      email: 'noa@peretz.example',
    }),
  );
  const clal = await ok<{ id: string }>(
    agency.as.post('/api/companies/', { name: 'Clal', phone: '03-6387777' }),
    201,
  );
  const yossi = await ok<{ id: string }>(
    agency.as.post('/api/customers/', { first_name: 'Yossi', last_name: 'Cohen', phone: '0529876543' }),
    201,
  );
  const active = await insertPolicy(t, tenantId, noa, {
    policy_number: 'P-1042',
    start_date: day(-30),
    end_date: day(335),
    total_premium: '1200.00',
  });
  const expired = await insertPolicy(t, tenantId, noa, {
    policy_number: 'P-10421',
    start_date: day(-400),
    end_date: day(-35),
    total_premium: '800.00',
  });
  const yossiPolicy = await insertPolicy(
    t,
    tenantId,
    { ...noa, customerId: yossi.id, companyId: clal.id },
    { policy_number: 'HX-77-1042', start_date: day(-10), end_date: day(355), total_premium: '3000.00' },
  );
  const claim = await ok<{ id: string }>(
    agency.as.post('/api/claims/', {
      policy_id: active.id,
      claim_number: 'CLM-2026-0007',
      incident_date: day(-5),
      reported_date: day(-4),
      claim_type: 'accident',
      amount_claimed: '900.00',
    }),
    201,
  );
  const lead = await ok<{ id: string }>(
    agency.as.post('/api/leads/', { first_name: 'Maya', last_name: 'Golan', phone: '+972 50 555 1234' }),
    201,
  );
  return { agency, noa, clal, yossi, active, expired, yossiPolicy, claim, lead };
}

/**
 * Policies added as a broker adds them, with what they insure: `HM-MOT-1001` on a Toyota Corolla
 * and `HM-HOME-2002` on a flat in Herzl Street, both for Dana Levi.
 */
async function agencyWithInsuredItems() {
  const agency = await signedInAgency(t.app);
  const created = (path: string, body: object) => ok<{ id: string }>(agency.as.post(path, body), 201);
  const type = await created('/api/policy-types/', { name: 'Motor', category: 'auto' });
  const insurer = await created('/api/companies/', {
    name: 'Harel',
    policy_types: [{ policy_type_id: type.id, commission_percentage: '10' }],
  });
  const customer = await created('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  const { day } = await databaseCalendar(t);
  const addPolicy = (policy_number: string, insured_item: string) =>
    created('/api/policies/', {
      policy_number,
      insured_item,
      customer_id: customer.id,
      company_id: insurer.id,
      policy_type_id: type.id,
      start_date: day(-10),
      end_date: day(354),
      total_premium: '1000.00',
    });
  return {
    agency,
    motor: await addPolicy('HM-MOT-1001', '2019 Toyota Corolla, 12-345-67'),
    home: await addPolicy('HM-HOME-2002', 'Flat at 14 Herzl Street, Haifa'),
  };
}

let book: Awaited<ReturnType<typeof agencyWithBook>>;
let insured: Awaited<ReturnType<typeof agencyWithInsuredItems>>;
/** The same number on the same car, in another agency. */
let theirs: Awaited<ReturnType<typeof agencyWithInsuredItems>>;
beforeAll(async () => {
  t = await createTestApp();
  book = await agencyWithBook();
  insured = await agencyWithInsuredItems();
  theirs = await agencyWithInsuredItems();
});
afterAll(() => t.close());

describe('GET /api/search/', () => {
  it('answers each result in the shape the header and spotlight show', async () => {
    const answer = await search(book.agency, { q: 'P-1042' });
    expect(answer.query).toBe('P-1042');
    expect(answer.total).toBe(answer.results.length);
    expect(answer.filters).toEqual(NO_SEARCH_FILTERS);
    const policy = answer.results.find((result) => result.id === book.active.id);
    expect(policy).toEqual({
      id: book.active.id,
      title: 'P-1042',
      subtitle: expect.stringContaining('Noa Peretz · Harel · '),
      type: 'policy',
      status: 'active',
      amount: '1200.00',
      phone: '054-123 4567',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      url: `/policies/${book.active.id}`,
      icon: 'file-text',
    });
    const payment = answer.results.find((result) => result.type === 'payment');
    expect(payment).toMatchObject({
      title: expect.stringMatching(/^Instalment \d+ of \d+ · P-1042/),
      url: `/payments/policy/${book.active.id}`,
      icon: 'cash',
    });
    expect(payment?.amount).toMatch(/^\d+\.\d{2}$/);
  });

  it('puts the exact policy number first, then numbers that start or end with it', async () => {
    const full = await search(book.agency, { q: 'p-1042', type: 'policies' });
    // HX-77-1042 only shares the digits: similar, so last.
    expect(titles(full.results)).toEqual(['policy:P-1042', 'policy:P-10421', 'policy:HX-77-1042']);
    // Typed without its prefix, a number still finds the policies with a part starting with it.
    const digits = await search(book.agency, { q: '1042', type: 'policies' });
    expect(titles(digits.results).sort()).toEqual(['policy:HX-77-1042', 'policy:P-1042', 'policy:P-10421']);
  });

  it('finds a policy by any start of its number, or by what follows a separator, however typed', async () => {
    for (const q of ['HM-MOT', 'HM MOT', 'hm-mot-10', '1001', 'MOT-1001', 'MOT', 'mot 10']) {
      const { results } = await search(insured.agency, { q, type: 'policies' });
      expect(results[0], q).toMatchObject({ id: insured.motor.id, title: 'HM-MOT-1001' });
      // HM-HOME-2002 shares the "HM" and the agency, but neither the start typed nor what follows.
      expect(results.map((result) => result.id)).not.toContain(insured.home.id);
    }
    // The middle of a part is no part: "OME" starts nothing in HM-HOME-2002.
    expect((await search(insured.agency, { q: 'OME', type: 'policies' })).results).toEqual([]);
  });

  it('may look a part of a number up in the trigram index under row-level security', async () => {
    // Row-level security lets a condition reach an index only when its function is LEAKPROOF
    // (migration 0072 declares LIKE so). Without it, a search of a 100,000-policy agency read the
    // whole policies table, every agency's, for 280 ms; the index answers in 2.
    const { rows } = await t.database.pool.query(
      "select proleakproof from pg_proc where oid = 'textlike(text, text)'::regprocedure",
    );
    expect(rows).toEqual([{ proleakproof: true }]);
  });

  it('finds the same policies in the policy list by the same rule', async () => {
    const listed = async (q: string) =>
      (
        (await insured.agency.as.get(`/api/policies/?search=${encodeURIComponent(q)}`)).json() as {
          results: { policy_number: string }[];
        }
      ).results.map((policy) => policy.policy_number);
    for (const q of ['HM-MOT', 'HM MOT', 'hm-mot-10', '1001', 'MOT-1001', 'MOT', 'mot 10']) {
      expect(await listed(q), q).toEqual(['HM-MOT-1001']);
      const global = await search(insured.agency, { q, type: 'policies' });
      expect(titles(global.results), q).toEqual(['policy:HM-MOT-1001']);
    }
    expect(await listed('OME')).toEqual([]);
    expect((await listed('HM')).sort()).toEqual(['HM-HOME-2002', 'HM-MOT-1001']);
  });

  it('finds a policy by a word of what it insures, a misspelt one too, and shows it', async () => {
    for (const q of ['Corolla', 'corola', '12-345-67']) {
      const { results } = await search(insured.agency, { q });
      expect(results[0], q).toMatchObject({ type: 'policy', id: insured.motor.id });
      expect(results.map((result) => result.id)).not.toContain(insured.home.id);
      expect(results[0]?.subtitle).toContain('2019 Toyota Corolla, 12-345-67');
    }
    const street = await search(insured.agency, { q: 'herzl', type: 'policies' });
    expect(titles(street.results)).toEqual(['policy:HM-HOME-2002']);
  });

  it("finds another agency's policy by neither its number nor what it insures", async () => {
    const policiesFound = async (agency: Agency, q: string) =>
      (await search(agency, { q, type: 'policies' })).results.map((result) => result.id);
    for (const q of ['HM-MOT', 'MOT-1001', 'corolla']) {
      expect(await policiesFound(insured.agency, q)).toEqual([insured.motor.id]);
      expect(await policiesFound(theirs.agency, q)).toEqual([theirs.motor.id]);
    }
    expect((await search(book.agency, { q: 'corolla' })).results).toEqual([]);
  });

  it('finds a customer, and the policies they hold, by a misspelt surname', async () => {
    const { results } = await search(book.agency, { q: 'Peretx' });
    expect(results[0]).toMatchObject({
      type: 'customer',
      title: 'Noa Peretz',
      url: `/customers/${book.noa.customerId}`,
    });
    // What hangs on the customer follows her: policies, then the claim, then the instalments.
    expect(results.slice(0, 4).map((result) => result.type)).toEqual([
      'customer',
      'policy',
      'policy',
      'claim',
    ]);
    expect(titles(results)).toEqual(
      expect.arrayContaining(['policy:P-1042', 'policy:P-10421', 'claim:CLM-2026-0007']),
    );
    expect(titles(await search(book.agency, { q: 'kohen' }).then((answer) => answer.results))).toContain(
      'customer:Yossi Cohen',
    );
  });

  it('follows the best match to what hangs on it, and equally good matches only while there is room', async () => {
    const agency = await signedInAgency(t.app);
    const tenantId = agency.user.tenant_id;
    const noa = await addPolicyParties(agency.as, { customer: ['Noa', 'Peretz'] });
    await insertPolicy(t, tenantId, noa, { policy_number: 'NP-1' });
    await insertPolicy(t, tenantId, noa, { policy_number: 'NP-2' });
    for (const first of ['Dana', 'Avi', 'Gil']) {
      const relative = await ok<{ id: string }>(
        agency.as.post('/api/customers/', { first_name: first, last_name: 'Peretz' }),
        201,
      );
      await insertPolicy(t, tenantId, { ...noa, customerId: relative.id }, { policy_number: `${first}-1` });
    }
    // Noa's name matches exactly, so her policies come before the Peretz customers who only resemble it.
    const exact = await search(agency, { q: 'noa peretz', limit: '3' });
    expect(titles(exact.results)).toEqual([
      'customer:Noa Peretz',
      expect.stringMatching(/^policy:NP-[12]$/),
      expect.stringMatching(/^policy:NP-[12]$/),
    ]);
    // The surname alone fits four customers equally well: three fill the answer, then what they hold follows.
    const three = await search(agency, { q: 'peretz', limit: '3' });
    expect(three.results.map((result) => result.type)).toEqual(['customer', 'customer', 'customer']);
    const ten = await search(agency, { q: 'peretz', limit: '10' });
    expect(ten.results.map((result) => result.type)).toEqual([
      ...Array(4).fill('customer'),
      ...Array(5).fill('policy'),
      'payment',
    ]);
    expect(titles(ten.results)).toEqual(expect.arrayContaining(['policy:NP-1', 'policy:Gil-1']));
  });

  it('finds a phone whatever its formatting', async () => {
    const spaced = await search(book.agency, { q: '054-123 4567', type: 'customers' });
    expect(titles(spaced.results)).toEqual(['customer:Noa Peretz']);
    const yossi = await search(book.agency, { q: '052-987-6543', type: 'customers' });
    expect(titles(yossi.results)).toEqual(['customer:Yossi Cohen']);
    const lead = await search(book.agency, { q: '(50) 555-1234' });
    expect(lead.results[0]).toMatchObject({ type: 'lead', title: 'Maya Golan', phone: '+972 50 555 1234' });
  });

  it('finds claims by number without punctuation, and insurers by a misspelt name', async () => {
    const claim = await search(book.agency, { q: 'clm 2026 0007' });
    expect(claim.results[0]).toMatchObject({
      type: 'claim',
      id: book.claim.id,
      status: 'open',
      amount: '900.00',
    });
    const insurer = await search(book.agency, { q: 'Harrel', type: 'companies' });
    expect(insurer.results).toEqual([
      expect.objectContaining({
        type: 'company',
        title: 'Harel',
        url: `/companies/${book.noa.companyId}/edit`,
      }),
    ]);
  });

  it('narrows by status, insurer, amount and dates', async () => {
    const expired = await search(book.agency, { q: 'peretz', status: 'expired', type: 'policies' });
    expect(titles(expired.results)).toEqual(['policy:P-10421']);
    const byInsurer = await search(book.agency, { q: '1042', company: book.clal.id });
    expect(titles(byInsurer.results).filter((title) => !title.startsWith('payment:'))).toEqual([
      'policy:HX-77-1042',
    ]);
    const costly = await search(book.agency, { amount_min: '1000', type: 'policies' });
    expect(titles(costly.results).sort()).toEqual(['policy:HX-77-1042', 'policy:P-1042']);
    const { day } = await databaseCalendar(t);
    const recent = await search(book.agency, {
      q: 'peretz',
      type: 'policies',
      date_from: day(-60),
      date_to: day(0),
    });
    expect(titles(recent.results)).toEqual(['policy:P-1042']);
  });

  it('answers an empty query without filters with no results, and filters alone with the newest', async () => {
    expect(await search(book.agency, { q: '   ' })).toMatchObject({ results: [], total: 0, query: '' });
    const leads = await search(book.agency, { type: 'leads' });
    expect(titles(leads.results)).toEqual(['lead:Maya Golan']);
    const limited = await search(book.agency, { type: 'payments', limit: '3' });
    expect(limited.results).toHaveLength(3);
  });

  it("never shows another agency's records", async () => {
    const other = await signedInAgency(t.app);
    await addPolicyParties(other.as, { customer: ['Noa', 'Peretz'], company: 'Harel' });
    const answer = await search(other, { q: 'peretz' });
    expect(titles(answer.results)).toEqual(['customer:Noa Peretz']);
    expect(answer.results[0]?.id).not.toBe(book.noa.customerId);
    expect((await search(other, { q: 'P-1042' })).results).toEqual([]);
    const byInsurer = await other.as.get(`/api/search/?q=cohen&company=${book.clal.id}`);
    expect(byInsurer.statusCode).toBe(404);
    expect(byInsurer.json()).toEqual({ detail: 'Company not found.' });
  });

  it('refuses bad parameters with field messages', async () => {
    const response = await book.agency.as.get(
      '/api/search/?type=cars&date_from=2026-13-01&amount_min=-5&limit=500&status=lapsed&company=x',
    );
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json()).sort()).toEqual(
      ['amount_min', 'company', 'date_from', 'limit', 'status', 'type'].sort(),
    );
    const reversed = await book.agency.as.get(
      '/api/search/?date_from=2026-02-01&date_to=2026-01-01&amount_min=10&amount_max=5',
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toEqual({
      date_to: ['Date To must be on or after Date From.'],
      amount_max: ['Max Amount must be at least Min Amount.'],
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/search/?q=noa' })).statusCode).toBe(401);
  });

  it("searches only the modules the agency's plan includes", async () => {
    const agency = await signedInAgency(t.app);
    await ok(agency.as.post('/api/leads/', { first_name: 'Maya', last_name: 'Golan' }), 201);
    await addPolicyParties(agency.as, { customer: ['Maya', 'Golani'] });
    await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, 'module_leads') });
    const answer = await search(agency, { q: 'maya golan' });
    expect(titles(answer.results)).toEqual(['customer:Maya Golani']);
    const asked = await agency.as.get('/api/search/?q=maya&type=leads');
    expect(asked.statusCode).toBe(403);
    expect(asked.json().detail).toContain('does not include Leads');
    await setSubscription(t, agency.user.tenant_id, { status: 'expired' });
    expect((await agency.as.get('/api/search/?q=maya')).statusCode).toBe(402);
  });
});
