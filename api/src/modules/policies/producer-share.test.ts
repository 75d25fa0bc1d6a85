import { type Policy, producerReport, roleRefusal } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookParties, type Caller, ok } from '../../../test/book-parties.js';
import { addTeamMember } from '../../../test/team-book.js';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' });
});
afterAll(() => t.close());

/**
 * An agency whose agent Avi has a default share of 25 %, and a manager. Harel pays 10 % on Motor,
 * so a 1,234.50 policy earns 123.45 of commission: exact, so each share below is rounded once.
 */
async function agencyWithProducer() {
  const agency = await signedInAgency(t.app);
  const parties = await addBookParties(agency.as);
  const agent = await addTeamMember(t.app, agency, 'agent', 'Avi');
  const manager = await addTeamMember(t.app, agency, 'manager', 'Rami');
  await ok(agency.as.patch(`/api/team/members/${agent.id}/`, { commission_split_percentage: '25' }));
  const body = (changes: Record<string, unknown> = {}) => ({
    policy_number: 'PS-1',
    customer_id: parties.dana,
    company_id: parties.harel.id,
    policy_type_id: parties.motor.id,
    start_date: '2026-01-01',
    end_date: '2026-12-31',
    total_premium: '1234.50',
    assigned_to: agent.id,
    ...changes,
  });
  return { agency, agent, manager, body };
}

/** Avi's share of the first quarter's expected commission, as the producers report works it out. */
async function avisShare(as: Caller, agentId: string) {
  const report = producerReport.parse(
    await ok(as.get('/api/commission-report/producers/?date_from=2026-01-01&date_to=2026-03-31')),
  );
  const row = report.results.find((producer) => producer.user_id === agentId);
  return [row?.expected_commission, row?.producer_share_expected];
}

describe("a policy's producer's share", () => {
  it('is set, changed and cleared with the policy, and the producers report takes it over the default', async () => {
    const { agency, agent, manager, body } = await agencyWithProducer();
    const created = await ok<Policy>(
      agency.as.post('/api/policies/', body({ producer_split_percentage: '33.33' })),
      201,
    );
    expect(created.producer_split_percentage).toBe('33.33');
    // 123.45 x 33.33 % = 41.145885
    expect(await avisShare(agency.as, agent.id)).toEqual(['123.45', '41.15']);

    const changed = await ok<Policy>(
      manager.as.put(`/api/policies/${created.id}/`, body({ producer_split_percentage: 12.5 })),
    );
    expect(changed.producer_split_percentage).toBe('12.50');
    // 123.45 x 12.5 % = 15.43125
    expect(await avisShare(agency.as, agent.id)).toEqual(['123.45', '15.43']);

    // Left out, it stays as it is, so an agent edits the rest of the policy.
    const edited = await ok<Policy>(
      agent.as.put(`/api/policies/${created.id}/`, body({ notes: 'Renews every January.' })),
    );
    expect(edited.producer_split_percentage).toBe('12.50');
    const read = await ok<Policy>(agency.as.get(`/api/policies/${created.id}/`));
    expect(read.producer_split_percentage).toBe('12.50');
    const listed = await ok<{ results: Policy[] }>(agency.as.get('/api/policies/'));
    expect(listed.results.map((policy) => policy.producer_split_percentage)).toEqual(['12.50']);

    // A renewal keeps the term's share.
    const renewal = await ok<Policy>(agency.as.post(`/api/policies/${created.id}/renew/`, {}), 201);
    expect(renewal.producer_split_percentage).toBe('12.50');

    const cleared = await ok<Policy>(
      agency.as.put(`/api/policies/${created.id}/`, body({ producer_split_percentage: null })),
    );
    expect(cleared.producer_split_percentage).toBeNull();
    // Avi's default: 123.45 x 25 % = 30.8625
    expect(await avisShare(agency.as, agent.id)).toEqual(['123.45', '30.86']);

    for (const bound of ['0', '100']) {
      const policy = await ok<Policy>(
        agency.as.put(`/api/policies/${created.id}/`, body({ producer_split_percentage: bound })),
      );
      expect(policy.producer_split_percentage).toBe(`${bound}.00`);
    }
  });

  it('is a percentage from 0 to 100 with at most two decimals', async () => {
    const { agency, body } = await agencyWithProducer();
    for (const [value, message] of [
      ['100.01', 'A percentage cannot be more than 100.'],
      ['12.3456', 'Use at most two decimal places.'],
      ['-1', 'This cannot be negative.'],
      ['a third', 'Enter a number from 0 to 100.'],
      ['', 'Enter a number from 0 to 100.'],
    ]) {
      const refused = await agency.as.post('/api/policies/', body({ producer_split_percentage: value }));
      expect(refused.statusCode, `${value}: ${refused.body}`).toBe(400);
      expect(refused.json(), value).toEqual({ producer_split_percentage: [message] });
    }
  });

  it('is refused (403) to a role that may not change the team’s shares, and left as it was', async () => {
    const { agency, agent, body } = await agencyWithProducer();
    const viewer = await addTeamMember(t.app, agency, 'viewer', 'Gil');
    const created = await ok<Policy>(
      agency.as.post('/api/policies/', body({ producer_split_percentage: '40' })),
      201,
    );
    for (const value of ['50', null]) {
      const put = await agent.as.put(
        `/api/policies/${created.id}/`,
        body({ producer_split_percentage: value }),
      );
      expect(put.statusCode, put.body).toBe(403);
      expect(put.json()).toEqual({ detail: roleRefusal('agent') });
    }
    const post = await agent.as.post(
      '/api/policies/',
      body({ policy_number: 'PS-2', producer_split_percentage: '50' }),
    );
    expect(post.statusCode, post.body).toBe(403);
    const viewed = await viewer.as.put(
      `/api/policies/${created.id}/`,
      body({ producer_split_percentage: '50' }),
    );
    expect(viewed.statusCode).toBe(403);
    const read = await ok<Policy>(agency.as.get(`/api/policies/${created.id}/`));
    expect(read.producer_split_percentage).toBe('40.00');
  });
});
