import { randomUUID } from 'node:crypto';
import type { TeamRole } from '@coverdesk/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { apiAs, PASSWORD, type signedInAgency } from './test-app.js';

/** Invites someone with `role` into the agency and has them accept: a signed-in member. */
export async function addMember(
  app: FastifyInstance,
  agency: Awaited<ReturnType<typeof signedInAgency>>,
  role: TeamRole,
  firstName = 'Avi',
) {
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
