import { CLAIM_STATUSES, CLAIM_TRANSITIONS, type ClaimDetail, type ClaimStatus } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { column, expectFormatAndGate, exportBoth } from '../../../test/export-file.js';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import {
  addPlanWithout,
  createTestApp,
  databaseCalendar,
  PASSWORD,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { withTenant } from '../../db/tenant.js';
import { findDemoUser } from '../accounts/queries.js';

let t: TestApp;
let today: string;
let day: (days: number) => string;
beforeAll(async () => {
  t = await createTestApp({}, { demoAgency: true });
  ({ today, day } = await databaseCalendar(t));
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
type Caller = Agency['as'];

const missing = '01900000-0000-7000-8000-000000000000';
const year = () => today.slice(0, 4);

/** An agency (its owner Noa Peretz) with a policy whose term runs from 30 days ago for a year. */
async function setUp(customer: [string, string] = ['Dana', 'Levi']) {
  const agency = await signedInAgency(t.app);
  const parties = await addPolicyParties(agency.as, { customer });
  const policy = await insertPolicy(t, agency.user.tenant_id, parties, {
    policy_number: 'POL-7',
    start_date: day(-30),
    end_date: day(334),
  });
  const report = (overrides: Record<string, unknown> = {}, caller: Caller = agency.as) =>
    caller.post('/api/claims/', {
      policy_id: policy.id,
      incident_date: day(-3),
      claim_type: 'accident',
      amount_claimed: '4200.00',
      ...overrides,
    });
  const reported = async (overrides: Record<string, unknown> = {}) => {
    const response = await report(overrides);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as ClaimDetail;
  };
  return { ...agency, parties, policy, report, reported };
}

const move = (as: Caller, id: string, body: Record<string, unknown>) =>
  as.post(`/api/claims/${id}/transition/`, body);

describe('claims', () => {
  it('reports an open claim on a policy, numbered for the agency, with the customer and insurer of the policy', async () => {
    const { reported, policy, parties, as } = await setUp();
    const claim = await reported({
      insurer_reference: 'HRL-99812',
      description: 'Rear-ended at a light.',
      location: 'Haifa',
      adjuster_name: 'Rina Azulay',
      adjuster_phone: '+972 52 123 4567',
      adjuster_email: 'Rina@Harel.example',
    });
    expect(claim).toMatchObject({
      claim_number: `CLM-${year()}-0001`,
      status: 'open',
      reported_date: today,
      incident_date: day(-3),
      policy: { id: policy.id, policy_number: 'POL-7' },
      customer: { id: parties.customerId, name: 'Dana Levi' },
      company_id: parties.companyId,
      company_name: 'Harel',
      amount_claimed: '4200.00',
      amount_approved: null,
      amount_paid: '0.00',
      adjuster_email: 'rina@harel.example',
      allowed_transitions: ['in_review', 'rejected', 'closed'],
      incident_outside_term: false,
      closed_on: null,
    });
    expect(claim.timeline).toMatchObject([{ kind: 'created', to_status: 'open', author_name: 'Noa Peretz' }]);
    const read = await as.get(`/api/claims/${claim.id}/`);
    expect(read.json()).toEqual(claim);
  });

  it('numbers claims per agency, after the highest number of the year, and keeps a number a broker typed', async () => {
    const first = await setUp();
    const second = await setUp();
    expect((await first.reported()).claim_number).toBe(`CLM-${year()}-0001`);
    expect((await first.reported({ claim_number: `CLM-${year()}-0041` })).claim_number).toBe(
      `CLM-${year()}-0041`,
    );
    expect((await first.reported({ claim_number: 'HOME-1' })).claim_number).toBe('HOME-1');
    expect((await first.reported()).claim_number).toBe(`CLM-${year()}-0042`);
    await first.reported({ claim_number: `CLM-${year()}-12345` });
    expect((await first.reported()).claim_number).toBe(`CLM-${year()}-12346`);
    // However many digits a typed number has, the next is new, never one already taken.
    await first.reported({ claim_number: `CLM-${year()}-999999999` });
    expect((await first.reported()).claim_number).toBe(`CLM-${year()}-1000000000`);
    expect((await first.reported()).claim_number).toBe(`CLM-${year()}-1000000001`);
    // Another agency counts its own claims from one.
    expect((await second.reported()).claim_number).toBe(`CLM-${year()}-0001`);

    const taken = await first.report({ claim_number: 'HOME-1' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ claim_number: ['Another claim of your agency already has this number.'] });
    // The other agency may use the same number.
    expect((await second.report({ claim_number: 'HOME-1' })).statusCode).toBe(201);
  });

  it("numbers a claim in the year it was reported, not the agency's current year", async () => {
    const { reported } = await setUp();
    const lastYear = String(Number(year()) - 1);
    // Reported last year (outside the policy's term, so confirmed).
    const late = {
      incident_date: `${lastYear}-12-28`,
      reported_date: `${lastYear}-12-31`,
      confirm_outside_term: true,
    };
    expect((await reported(late)).claim_number).toBe(`CLM-${lastYear}-0001`);
    // Last year's numbers do not move this year's on, nor the other way round.
    expect((await reported()).claim_number).toBe(`CLM-${year()}-0001`);
    expect((await reported(late)).claim_number).toBe(`CLM-${lastYear}-0002`);
    expect((await reported({ reported_date: today })).claim_number).toBe(`CLM-${year()}-0002`);
  });

  it('writes each amount an edit corrects to the timeline, from what to what, with who changed it', async () => {
    const { reported, as, policy } = await setUp();
    const claim = await reported({ amount_claimed: '4200.00' });
    const body = {
      policy_id: policy.id,
      incident_date: day(-3),
      claim_type: 'accident',
      amount_claimed: '4200',
    };
    const edit = async (changes: Record<string, unknown>) => {
      const response = await as.put(`/api/claims/${claim.id}/`, { ...body, ...changes });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as ClaimDetail).timeline;
    };
    const amountEntries = (timeline: ClaimDetail['timeline']) =>
      timeline
        .filter((event) => event.kind === 'amount')
        .map((event) => [event.amount_change, event.author_name]);

    // Nothing changed, or the same amount written differently: no entry.
    expect(amountEntries(await edit({ description: 'Bumper', amount_claimed: '4200.0' }))).toEqual([]);

    const claimed = await edit({ amount_claimed: '4300' });
    expect(claimed[0]).toMatchObject({
      kind: 'amount',
      amount_change: { field: 'amount_claimed', from: '4200.00', to: '4300.00' },
      author_name: 'Noa Peretz',
      from_status: null,
      to_status: null,
      note: '',
    });
    expect(Date.parse(claimed[0]?.created_at ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // Approved and paid through the moves, then all three corrected at once: three entries.
    expect((await move(as, claim.id, { status: 'in_review' })).statusCode).toBe(200);
    expect((await move(as, claim.id, { status: 'approved', amount_approved: '3900' })).statusCode).toBe(200);
    expect((await move(as, claim.id, { status: 'paid', amount_paid: '1000' })).statusCode).toBe(200);
    const all = await edit({ amount_claimed: '4400', amount_approved: '4100', amount_paid: '1100' });
    expect(amountEntries(all).slice(0, 3)).toEqual([
      [{ field: 'amount_claimed', from: '4300.00', to: '4400.00' }, 'Noa Peretz'],
      [{ field: 'amount_approved', from: '3900.00', to: '4100.00' }, 'Noa Peretz'],
      [{ field: 'amount_paid', from: '1000.00', to: '1100.00' }, 'Noa Peretz'],
    ]);
    // Other entries carry no amount change.
    expect(all.at(-1)).toMatchObject({ kind: 'created', amount_change: null });

    // A recorded approval or payment cannot be removed by an edit, and a refused edit writes nothing.
    const cleared = await as.put(`/api/claims/${claim.id}/`, {
      ...body,
      amount_approved: null,
      amount_paid: '0',
    });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json()).toEqual({
      amount_approved: ['A recorded approval can be corrected, not removed.'],
      amount_paid: ['A recorded payment can be corrected, not removed.'],
    });
    const read = (await as.get(`/api/claims/${claim.id}/`)).json() as ClaimDetail;
    expect(read.timeline).toHaveLength(all.length);
    expect(read).toMatchObject({ amount_approved: '4100.00', amount_paid: '1100.00', status: 'paid' });
  });

  it('records approval and payment only through the moves, never by reporting or editing', async () => {
    const { report, reported, as, policy } = await setUp();
    const early = await report({ amount_approved: '500', amount_paid: '100' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      amount_approved: ['The approved amount is recorded by approving the claim.'],
      amount_paid: ['What the insurer paid is recorded by marking the claim paid.'],
    });
    const claim = await reported();
    const body = { policy_id: policy.id, incident_date: day(-3), claim_type: 'fire', amount_claimed: '1000' };
    const approving = await as.put(`/api/claims/${claim.id}/`, { ...body, amount_approved: '900' });
    expect(approving.json()).toEqual({
      amount_approved: ['The approved amount is recorded by approving the claim.'],
    });
    // A kept reported date still comes after a moved incident.
    const later = await as.put(`/api/claims/${claim.id}/`, { ...body, incident_date: day(1) });
    expect(later.statusCode).toBe(400);
    expect(Object.keys(later.json())).toEqual(['incident_date']);
  });

  it('refuses bad input with a message for each field', async () => {
    const { report } = await setUp();
    const response = await report({
      policy_id: 'x',
      incident_date: '2026-02-30',
      claim_type: 'meteor',
      amount_claimed: '-5',
      adjuster_email: 'rina@',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      policy_id: ['Choose the policy this claim is on.'],
      incident_date: ['Enter a valid date (YYYY-MM-DD).'],
      claim_type: ['Choose what happened.'],
      amount_claimed: ['This cannot be negative.'],
      adjuster_email: ['Enter a valid email address.'],
    });
    const early = await report({ incident_date: day(-3), reported_date: day(-4) });
    expect(early.json()).toEqual({
      reported_date: ['A claim is reported on or after the day of the incident.'],
    });
    const future = await report({ incident_date: day(2) });
    expect(future.statusCode).toBe(400);
    expect(future.json()).toEqual({ incident_date: ['An incident date cannot be in the future.'] });
  });

  it('asks to confirm an incident outside the policy term, and saves it once confirmed', async () => {
    const { report, as } = await setUp();
    const outside = await report({ incident_date: day(-45) });
    expect(outside.statusCode).toBe(409);
    expect(outside.json()).toEqual({
      detail: `The incident date is outside the policy's term (${day(-30)} to ${day(334)}). Check it, or confirm to save it anyway.`,
      code: 'incident_outside_term',
      policy_start: day(-30),
      policy_end: day(334),
    });
    expect((await as.get('/api/claims/')).json().count).toBe(0);

    const confirmed = await report({ incident_date: day(-45), confirm_outside_term: true });
    expect(confirmed.statusCode).toBe(201);
    const claim = confirmed.json() as ClaimDetail;
    expect(claim.incident_outside_term).toBe(true);

    // Editing other fields does not ask again; moving the incident to another outside date does.
    const body = {
      policy_id: claim.policy.id,
      incident_date: claim.incident_date,
      claim_type: 'theft',
      amount_claimed: '100',
    };
    expect((await as.put(`/api/claims/${claim.id}/`, body)).statusCode).toBe(200);
    const moved = await as.put(`/api/claims/${claim.id}/`, { ...body, incident_date: day(-46) });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().code).toBe('incident_outside_term');
  });

  it('walks a claim from open to paid, writing each move to the timeline', async () => {
    const { reported, as } = await setUp();
    const claim = await reported();
    expect((await move(as, claim.id, { status: 'in_review', note: 'Sent to Harel' })).statusCode).toBe(200);

    const noAmount = await move(as, claim.id, { status: 'approved' });
    expect(noAmount.statusCode).toBe(400);
    expect(noAmount.json()).toEqual({ amount_approved: ['Enter the amount the insurer approved.'] });
    const approved = await move(as, claim.id, { status: 'approved', amount_approved: '3900' });
    expect(approved.json()).toMatchObject({ status: 'approved', amount_approved: '3900.00' });

    const tooMuch = await move(as, claim.id, { status: 'paid', amount_paid: '3900.01' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({
      amount_paid: ['The insurer cannot pay more than the approved amount.'],
    });
    const nothing = await move(as, claim.id, { status: 'paid' });
    expect(nothing.json()).toEqual({ amount_paid: ['Enter what the insurer paid.'] });

    const paid = (await move(as, claim.id, { status: 'paid', amount_paid: '3900.00' })).json() as ClaimDetail;
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '3900.00', allowed_transitions: ['closed'] });
    expect(
      paid.timeline.map((event) => [
        event.kind,
        event.from_status,
        event.to_status,
        event.note,
        event.author_name,
      ]),
    ).toEqual([
      ['status', 'approved', 'paid', '', 'Noa Peretz'],
      ['status', 'in_review', 'approved', '', 'Noa Peretz'],
      ['status', 'open', 'in_review', 'Sent to Harel', 'Noa Peretz'],
      ['created', null, 'open', '', 'Noa Peretz'],
    ]);

    const closed = (await move(as, claim.id, { status: 'closed' })).json() as ClaimDetail;
    expect(closed).toMatchObject({ status: 'closed', closed_on: today });
  });

  it('refuses a move the claim cannot make, naming the ones it can', async () => {
    const { reported, as } = await setUp();
    const claim = await reported();
    const skip = await move(as, claim.id, { status: 'paid', amount_paid: '10' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json()).toEqual({
      detail: 'A claim that is open cannot move to paid; it can move to in review, rejected or closed.',
    });
    const same = await move(as, claim.id, { status: 'open' });
    expect(same.json()).toEqual({ detail: 'This claim is already open.' });
    const unknown = await move(as, claim.id, { status: 'settled' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ status: ['Choose a status.'] });
    // Nothing was written.
    const read = (await as.get(`/api/claims/${claim.id}/`)).json() as ClaimDetail;
    expect(read.status).toBe('open');
    expect(read.timeline).toHaveLength(1);
  });

  it('allows exactly the documented moves from every status', async () => {
    const { reported, as } = await setUp();
    // The path that reaches each status from open.
    const pathTo: Record<ClaimStatus, ClaimStatus[]> = {
      open: [],
      in_review: ['in_review'],
      approved: ['in_review', 'approved'],
      rejected: ['rejected'],
      paid: ['in_review', 'approved', 'paid'],
      closed: ['closed'],
    };
    const body = (status: ClaimStatus) => ({
      status,
      note: 'Reason',
      amount_approved: '100.00',
      amount_paid: '50.00',
    });
    for (const from of CLAIM_STATUSES) {
      for (const to of CLAIM_STATUSES) {
        const claim = await reported();
        for (const step of pathTo[from]) expect((await move(as, claim.id, body(step))).statusCode).toBe(200);
        const answer = await move(as, claim.id, body(to));
        expect(answer.statusCode, `${from} -> ${to}`).toBe(CLAIM_TRANSITIONS[from].includes(to) ? 200 : 409);
      }
    }
  });

  it('reopens a closed claim only with a reason, and clears its closing day', async () => {
    const { reported, as } = await setUp();
    const claim = await reported();
    await move(as, claim.id, { status: 'closed' });
    const noReason = await move(as, claim.id, { status: 'open', note: '   ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({ note: ['Give the reason for reopening this claim.'] });
    const reopened = (
      await move(as, claim.id, { status: 'open', note: 'The customer found more damage.' })
    ).json() as ClaimDetail;
    expect(reopened).toMatchObject({ status: 'open', closed_on: null });
    expect(reopened.timeline[0]).toMatchObject({
      kind: 'status',
      from_status: 'closed',
      to_status: 'open',
      note: 'The customer found more damage.',
    });
  });

  it('refuses a paid amount above the approved one when editing, and warns nothing for approved above claimed', async () => {
    const { reported, as, policy } = await setUp();
    const claim = await reported();
    expect((await move(as, claim.id, { status: 'in_review' })).statusCode).toBe(200);
    expect((await move(as, claim.id, { status: 'approved', amount_approved: '500' })).statusCode).toBe(200);
    expect((await move(as, claim.id, { status: 'paid', amount_paid: '400' })).statusCode).toBe(200);
    const body = { policy_id: policy.id, incident_date: day(-3), claim_type: 'fire', amount_claimed: '1000' };
    const tooMuch = await as.put(`/api/claims/${claim.id}/`, {
      ...body,
      amount_approved: '500',
      amount_paid: '600',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({
      amount_paid: ['The insurer cannot pay more than the approved amount.'],
    });
    // Approved above claimed is the screens' warning, not a refusal.
    const generous = await as.put(`/api/claims/${claim.id}/`, {
      ...body,
      amount_approved: '1200',
      amount_paid: '400',
    });
    expect(generous.statusCode).toBe(200);
    expect(generous.json()).toMatchObject({
      claim_type: 'fire',
      amount_claimed: '1000.00',
      amount_approved: '1200.00',
      claim_number: claim.claim_number,
      reported_date: claim.reported_date,
      status: 'paid',
    });
  });

  it('deletes only a claim still open as reported, never moved and with nothing paid', async () => {
    const { reported, as } = await setUp();
    const open = await reported();
    expect((await as.delete(`/api/claims/${open.id}/`)).statusCode).toBe(204);
    expect((await as.get(`/api/claims/${open.id}/`)).statusCode).toBe(404);

    const reviewed = await reported();
    await move(as, reviewed.id, { status: 'in_review' });
    const refused = await as.delete(`/api/claims/${reviewed.id}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail: `Claim ${reviewed.claim_number} is in review: only an open claim can be deleted. Close it instead.`,
    });

    // Paid, then reopened through closing: open again, but money has changed hands.
    const paid = await reported();
    await move(as, paid.id, { status: 'in_review' });
    await move(as, paid.id, { status: 'approved', amount_approved: '100' });
    await move(as, paid.id, { status: 'paid', amount_paid: '100' });
    await move(as, paid.id, { status: 'closed' });
    await move(as, paid.id, { status: 'open', note: 'More damage' });
    const withPayment = await as.delete(`/api/claims/${paid.id}/`);
    expect(withPayment.statusCode).toBe(409);
    expect(withPayment.json().detail).toBe(
      `The insurer has paid on claim ${paid.claim_number}, so it cannot be deleted. Close it instead.`,
    );

    // Closed and reopened without payment: its history is kept all the same.
    const reopened = await reported();
    await move(as, reopened.id, { status: 'closed' });
    await move(as, reopened.id, { status: 'open', note: 'Customer found the receipt' });
    const worked = await as.delete(`/api/claims/${reopened.id}/`);
    expect(worked.statusCode).toBe(409);
    expect(worked.json().detail).toBe(
      `Claim ${reopened.claim_number} has been worked on (reopened since): its history is kept. Close it instead.`,
    );
  });

  it('adds notes to the timeline with their author', async () => {
    const { reported, as } = await setUp();
    const claim = await reported();
    const noted = await as.post(`/api/claims/${claim.id}/notes/`, { note: 'Photos received by email.' });
    expect(noted.statusCode).toBe(201);
    expect((noted.json() as ClaimDetail).timeline[0]).toMatchObject({
      kind: 'note',
      note: 'Photos received by email.',
      author_name: 'Noa Peretz',
      from_status: null,
      to_status: null,
    });
    const empty = await as.post(`/api/claims/${claim.id}/notes/`, { note: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ note: ['This field may not be blank.'] });
  });

  it('lists claims searched, filtered and sorted', async () => {
    const agency = await setUp(['Dana', 'Levi']);
    const { as, reported } = agency;
    const otherParties = await addPolicyParties(as, { customer: ['Avi', 'Cohen'], company: 'Migdal' });
    const other = await insertPolicy(t, agency.user.tenant_id, otherParties, {
      policy_number: 'HOME-55',
      start_date: day(-100),
      end_date: day(265),
    });
    const a = await reported({ insurer_reference: 'HRL-1', incident_date: day(-10), amount_claimed: '300' });
    const b = await reported({ policy_id: other.id, incident_date: day(-50), amount_claimed: '900' });
    const c = await reported({ incident_date: day(-1), amount_claimed: '100', claim_type: 'theft' });
    await move(as, c.id, { status: 'rejected' });

    const numbers = async (query: string) =>
      ((await as.get(`/api/claims/?${query}`)).json().results as ClaimDetail[]).map((claim) => claim.id);
    expect(await numbers('search=cohen')).toEqual([b.id]);
    expect(await numbers('search=home-5')).toEqual([b.id]);
    expect(await numbers('search=hrl-1')).toEqual([a.id]);
    expect(await numbers(`search=${c.claim_number}`)).toEqual([c.id]);
    expect(await numbers('status=rejected')).toEqual([c.id]);
    expect(await numbers('claim_type=theft')).toEqual([c.id]);
    expect(await numbers(`company_id=${otherParties.companyId}`)).toEqual([b.id]);
    expect(await numbers(`customer_id=${agency.parties.customerId}&ordering=incident_date`)).toEqual([
      a.id,
      c.id,
    ]);
    expect(await numbers(`policy_id=${other.id}`)).toEqual([b.id]);
    expect(await numbers(`incident_date_from=${day(-20)}&incident_date_to=${day(-5)}`)).toEqual([a.id]);
    expect(await numbers('ordering=-amount_claimed')).toEqual([b.id, a.id, c.id]);
    expect(await numbers('ordering=incident_date')).toEqual([b.id, a.id, c.id]);

    const page = (await as.get('/api/claims/?page_size=2&ordering=claim_number')).json();
    expect(page).toMatchObject({
      count: 3,
      previous: null,
      next: '/api/claims/?page_size=2&ordering=claim_number&page=2',
    });
    expect(page.results.map((claim: ClaimDetail) => claim.id)).toEqual([a.id, b.id]);
  });

  it('counts and sums the claims for the stats', async () => {
    const { reported, as } = await setUp();
    const empty = (await as.get('/api/claims/stats/')).json();
    expect(empty).toEqual({
      total: 0,
      by_status: { open: 0, in_review: 0, approved: 0, rejected: 0, paid: 0, closed: 0 },
      open_count: 0,
      amount_claimed: '0.00',
      amount_approved: '0.00',
      amount_paid: '0.00',
      average_days_to_close: null,
    });

    await reported({ amount_claimed: '100.10' });
    const approved = await reported({ amount_claimed: '200.00' });
    await move(as, approved.id, { status: 'in_review' });
    await move(as, approved.id, { status: 'approved', amount_approved: '150.00' });
    // Reported 4 and 9 days ago and closed today: 6.5 days on average.
    const paid = await reported({
      amount_claimed: '1000.00',
      reported_date: day(-4),
      incident_date: day(-5),
    });
    await move(as, paid.id, { status: 'in_review' });
    await move(as, paid.id, { status: 'approved', amount_approved: '800.00' });
    await move(as, paid.id, { status: 'paid', amount_paid: '750.55' });
    await move(as, paid.id, { status: 'closed' });
    const rejected = await reported({
      amount_claimed: '50.00',
      reported_date: day(-9),
      incident_date: day(-9),
    });
    await move(as, rejected.id, { status: 'rejected' });
    await move(as, rejected.id, { status: 'closed' });

    expect((await as.get('/api/claims/stats/')).json()).toEqual({
      total: 4,
      by_status: { open: 1, in_review: 0, approved: 1, rejected: 0, paid: 0, closed: 2 },
      open_count: 2,
      amount_claimed: '1350.10',
      amount_approved: '950.00',
      amount_paid: '750.55',
      average_days_to_close: 6.5,
    });
  });

  it("follows the list's search and filters in the stats, all but the status", async () => {
    const agency = await setUp(['Dana', 'Levi']);
    const { as, reported } = agency;
    const otherParties = await addPolicyParties(as, { customer: ['Avi', 'Cohen'], company: 'Migdal' });
    const other = await insertPolicy(t, agency.user.tenant_id, otherParties, {
      policy_number: 'HOME-55',
      start_date: day(-100),
      end_date: day(265),
    });
    await reported({ amount_claimed: '300.00', incident_date: day(-10) });
    const theft = await reported({ amount_claimed: '100.00', claim_type: 'theft', incident_date: day(-2) });
    await move(as, theft.id, { status: 'rejected' });
    await reported({ policy_id: other.id, amount_claimed: '900.00', incident_date: day(-50) });

    const stats = async (query: string) => (await as.get(`/api/claims/stats/?${query}`)).json();
    expect(await stats('')).toMatchObject({ total: 3, open_count: 3, amount_claimed: '1300.00' });
    expect(await stats(`company_id=${otherParties.companyId}`)).toMatchObject({
      total: 1,
      amount_claimed: '900.00',
    });
    expect(await stats('search=levi')).toMatchObject({ total: 2, amount_claimed: '400.00' });
    expect(await stats(`customer_id=${agency.parties.customerId}&claim_type=theft`)).toMatchObject({
      total: 1,
      by_status: { rejected: 1 },
    });
    expect(await stats(`policy_id=${other.id}`)).toMatchObject({ total: 1 });
    expect(await stats(`incident_date_from=${day(-20)}`)).toMatchObject({
      total: 2,
      amount_claimed: '400.00',
    });
    // The status is not a filter of the stats: they count every status.
    expect(await stats('status=rejected')).toEqual(await stats(''));
    const bad = await as.get('/api/claims/stats/?incident_date_from=someday');
    expect(bad.statusCode).toBe(400);
  });

  it("answers another agency's claim as missing, and refuses another agency's policy", async () => {
    const owner = await setUp();
    const stranger = await setUp();
    const claim = await owner.reported();
    const body = {
      policy_id: owner.policy.id,
      incident_date: day(-3),
      claim_type: 'accident',
      amount_claimed: '10',
    };
    for (const response of [
      await stranger.as.get(`/api/claims/${claim.id}/`),
      await stranger.as.put(`/api/claims/${claim.id}/`, { ...body, policy_id: stranger.policy.id }),
      await stranger.as.delete(`/api/claims/${claim.id}/`),
      await move(stranger.as, claim.id, { status: 'in_review' }),
      await stranger.as.post(`/api/claims/${claim.id}/notes/`, { note: 'Mine now' }),
      await owner.as.get(`/api/claims/${missing}/`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Claim not found.' });
    }
    const onTheirPolicy = await stranger.as.post('/api/claims/', body);
    expect(onTheirPolicy.statusCode).toBe(400);
    expect(onTheirPolicy.json()).toEqual({ policy_id: ['No policy with this id.'] });
    // Nor can a claim be moved onto another agency's policy.
    const moved = await owner.as.put(`/api/claims/${claim.id}/`, { ...body, policy_id: stranger.policy.id });
    expect(moved.statusCode).toBe(400);

    expect((await stranger.as.get('/api/claims/')).json().count).toBe(0);
    expect((await stranger.as.get(`/api/claims/?policy_id=${owner.policy.id}`)).json().count).toBe(0);
    expect((await stranger.as.get('/api/claims/stats/')).json().total).toBe(0);
    const read = (await owner.as.get(`/api/claims/${claim.id}/`)).json() as ClaimDetail;
    expect(read.timeline).toHaveLength(1);
  });

  it('keeps a policy with claims from being deleted, plainly or securely, until its claims are gone', async () => {
    const { reported, as, policy } = await setUp();
    const first = await reported();
    const second = await reported();
    expect((await as.get(`/api/policies/${policy.id}/`)).json().claim_count).toBe(2);

    const plain = await as.delete(`/api/policies/${policy.id}/`);
    expect(plain.statusCode).toBe(409);
    expect(plain.json()).toEqual({
      detail:
        'Policy POL-7 has 2 claims, so it cannot be deleted: claims stay on record with their policy. Delete the claims first if they were reported by mistake, or cancel the policy instead.',
    });
    // Refused before the password is weighed: a wrong one is not even looked at.
    for (const password of [PASSWORD, 'not my password']) {
      const secure = await as.post(`/api/policies/${policy.id}/secure-delete/`, { password });
      expect(secure.statusCode).toBe(409);
      expect(secure.json().detail).toContain('Policy POL-7 has 2 claims, so it cannot be deleted');
    }
    expect((await as.get(`/api/claims/${first.id}/`)).statusCode).toBe(200);

    expect((await as.delete(`/api/claims/${first.id}/`)).statusCode).toBe(204);
    const single = await as.delete(`/api/policies/${policy.id}/`);
    expect(single.json().detail).toBe(
      'Policy POL-7 has 1 claim, so it cannot be deleted: claims stay on record with their policy. Delete the claim first if it was reported by mistake, or cancel the policy instead.',
    );
    expect((await as.delete(`/api/claims/${second.id}/`)).statusCode).toBe(204);
    expect((await as.get(`/api/policies/${policy.id}/`)).json().claim_count).toBe(0);
    expect(
      (await as.post(`/api/policies/${policy.id}/secure-delete/`, { password: PASSWORD })).statusCode,
    ).toBe(204);
    expect((await as.get(`/api/policies/${policy.id}/`)).statusCode).toBe(404);
  });

  it('refuses, in the database too, to delete a policy from under its claims, yet an agency goes whole', async () => {
    const { reported, user, policy } = await setUp();
    const claim = await reported();
    await reported();
    // The foreign key itself refuses, whatever path a future delete takes.
    const refused = await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.execute(sql`delete from policies where id = ${policy.id}`),
    ).catch((error: unknown) => error);
    expect(isForeignKeyViolation(refused)).toBe(true);
    // Deleting the agency cascades to its policies and claims in one statement, and succeeds.
    await t.database.db.execute(sql`delete from tenants where id = ${user.tenant_id}`);
    const { rows } = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from claims where id = ${claim.id}`,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('is closed to a plan without claims and to an agency without an active subscription', async () => {
    const { reported, as, user } = await setUp();
    const claim = await reported();
    await setSubscription(t, user.tenant_id, { plan: await addPlanWithout(t, 'module_claims') });
    const refused = await as.get(`/api/claims/${claim.id}/`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toContain('does not include Claims');
    await setSubscription(t, user.tenant_id, { plan: 'professional', status: 'expired' });
    expect((await as.get('/api/claims/')).statusCode).toBe(402);
    expect((await as.post(`/api/claims/${claim.id}/notes/`, { note: 'x' })).statusCode).toBe(402);
  });

  it('gives the demo agency claims in every status, each with a timeline that ends in its status', async () => {
    const demo = await findDemoUser(t.database.db);
    if (!demo) throw new Error('no demo agency');
    const rows = await withTenant(t.database.db, demo.tenantId, async (tx) => {
      const { rows } = await tx.execute<{
        status: string;
        claims: number;
        ends_right: number;
        inside_term: number;
        paid_within_approved: number;
        numbered_in_reported_year: number;
      }>(sql`
        select c.status, count(*)::int as claims,
          count(*) filter (where (
            select coalesce(e.to_status, 'open') from claim_events e
            where e.claim_id = c.id and e.kind <> 'note' order by e.created_at desc limit 1
          ) = c.status)::int as ends_right,
          count(*) filter (where c.incident_date between p.start_date and p.end_date)::int as inside_term,
          count(*) filter (where c.amount_paid <= coalesce(c.amount_approved, 0))::int as paid_within_approved,
          count(*) filter (where c.claim_number ~ ('^CLM-' || to_char(c.reported_date, 'YYYY') || '-\\d{4}$'))::int
            as numbered_in_reported_year
        from claims c join policies p on p.id = c.policy_id
        group by c.status order by c.status`);
      return rows;
    });
    expect(rows.map((row) => row.status).sort()).toEqual([...CLAIM_STATUSES].sort());
    const total = rows.reduce((sum, row) => sum + row.claims, 0);
    expect(total).toBe(15);
    for (const row of rows) {
      expect(row.ends_right, row.status).toBe(row.claims);
      expect(row.inside_term, row.status).toBe(row.claims);
      expect(row.paid_within_approved, row.status).toBe(row.claims);
      expect(row.numbered_in_reported_year, row.status).toBe(row.claims);
    }
  });
});

describe('claims export', () => {
  it('holds exactly the claims the list shows, in its order, with amounts and dates typed', async () => {
    const { as, reported } = await setUp();
    const other = await setUp();
    await other.reported();
    await reported({ amount_claimed: '1500.25', incident_date: day(-5), location: '=Haifa' });
    await reported({ amount_claimed: '300.00', incident_date: day(-2) });
    await reported({ claim_type: 'theft', incident_date: day(-1) });

    const query = 'claim_type=accident&ordering=amount_claimed';
    const listed = (await as.get(`/api/claims/?${query}`)).json().results as ClaimDetail[];
    expect(listed.map((claim) => claim.amount_claimed)).toEqual(['300.00', '1500.25']);

    const { csv, xlsx, fileName } = await exportBoth(as, '/api/claims/export/', query);
    expect(fileName).toBe(`claims-${today}`);
    expect(xlsx[0]).toEqual(csv[0]);
    expect(column(csv, 'Claim number')).toEqual(listed.map((claim) => claim.claim_number));
    expect(column(xlsx, 'Claim number')).toEqual(listed.map((claim) => claim.claim_number));
    expect(column(csv, 'Amount claimed')).toEqual(['300.00', '1500.25']);
    expect(column(xlsx, 'Amount claimed')).toEqual([300, 1500.25]);
    expect(column(xlsx, 'Amount approved')).toEqual([null, null]);
    expect(column(xlsx, 'Incident date')).toEqual(
      [day(-2), day(-5)].map((iso) => new Date(`${iso}T00:00:00Z`)),
    );
    expect(column(csv, 'Policy number')).toEqual(['POL-7', 'POL-7']);
    expect(column(csv, 'Location')).toEqual(['', "'=Haifa"]);
    expect(column(xlsx, 'Location')).toEqual([null, '=Haifa']);
    expect(column(csv, 'Type')).toEqual(['Accident', 'Accident']);
    expect(column(xlsx, 'Status')).toEqual(['Open', 'Open']);
  });

  it('refuses an unknown format and holds the plan gate', async () => {
    const agency = await setUp();
    await expectFormatAndGate(t, agency, '/api/claims/export/', 'module_claims');
  });
});
