// An agency's team and book built through the API, for the tests of who sees and owns what.
import { randomUUID } from 'node:crypto';
import type { ClaimDetail, CustomerDetail, Policy, TeamRole } from '@coverdesk/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { apiAs, PASSWORD, type signedInAgency } from './test-app.js';

export type Agency = Awaited<ReturnType<typeof signedInAgency>>;
type Caller = Agency['as'];

/** Invites someone with `role` into the agency and has them accept: a signed-in member. */
export async function addTeamMember(app: FastifyInstance, agency: Agency, role: TeamRole, firstName = 'Avi') {
  const email = `member-${randomUUID().slice(0, 8)}@example.com`;
  const invited = await agency.as.post('/api/team/invitations/', { email, role });
  expect(invited.statusCode, invited.body).toBe(201);
  const token = (invited.json() as { invite_url: string }).invite_url.split('/').pop();
  const accepted = await app.inject({
    method: 'POST',
    url: '/api/team/invitations/accept/',
    payload: { token, password: PASSWORD, first_name: firstName, last_name: 'Cohen' },
  });
  expect(accepted.statusCode, accepted.body).toBe(201);
  const session = accepted.json() as { access: string; user: { id: string } };
  return { id: session.user.id, access: session.access, as: apiAs(app, session.access) };
}

export async function created<T>(response: Promise<{ statusCode: number; body: string; json(): unknown }>) {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json() as T;
}

export const addCustomer = (as: Caller, body: Record<string, unknown> = {}) =>
  created<CustomerDetail>(as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi', ...body }));

/** A type and an insurer selling it, which the policies of a test use. */
export async function cover(as: Caller, insurer = 'Harel') {
  const type = await created<{ id: string }>(
    as.post('/api/policy-types/', { name: `Motor ${randomUUID().slice(0, 8)}`, category: 'auto' }),
  );
  const company = await created<{ id: string }>(
    as.post('/api/companies/', {
      name: insurer,
      policy_types: [{ policy_type_id: type.id, commission_percentage: '12.5' }],
    }),
  );
  return { policy_type_id: type.id, company_id: company.id };
}

export const addPolicy = (
  as: Caller,
  parties: { policy_type_id: string; company_id: string },
  customerId: string,
  body: Record<string, unknown> = {},
) =>
  created<Policy>(
    as.post('/api/policies/', {
      policy_number: `POL-${randomUUID().slice(0, 8)}`,
      customer_id: customerId,
      ...parties,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      total_premium: '1200.00',
      ...body,
    }),
  );

export const addClaim = (as: Caller, policyId: string, body: Record<string, unknown> = {}) =>
  created<ClaimDetail>(
    as.post('/api/claims/', {
      policy_id: policyId,
      incident_date: '2026-03-01',
      reported_date: '2026-03-02',
      claim_type: 'accident',
      amount_claimed: '500.00',
      ...body,
    }),
  );
