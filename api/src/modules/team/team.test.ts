import { type Lead, roleRefusal } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, waitFor } from '../../../test/smtp-server.js';
import { addClaim, addCustomer, addPolicy, cover, created } from '../../../test/team-book.js';
import {
  apiAs,
  createTestApp,
  PASSWORD,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { teamInvitations } from '../accounts/tables.js';
import { tenants } from '../tenants/tables.js';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    smtpUrl: smtp.url,
    mailFrom: 'Coverdesk <no-reply@coverdesk.test>',
    logLevel: 'error',
  });
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Owner = Awaited<ReturnType<typeof signedInAgency>>;
let sequence = 0;
const newEmail = (label: string) => `${label}-${Date.now()}-${++sequence}@example.com`;
const OWNERSHIP_REFUSAL = 'Only an owner can make someone an owner, invite one or change one.';
const tokenOf = (inviteUrl: string) => inviteUrl.split('/').pop() as string;

async function invite(owner: Owner, role: string, email = newEmail(role)) {
  const response = await owner.as.post('/api/team/invitations/', { email, role });
  expect(response.statusCode, response.body).toBe(201);
  return { ...response.json(), email } as { id: string; invite_url: string; email: string };
}

const accept = (token: string, overrides: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/team/invitations/accept/',
    payload: { token, password: PASSWORD, first_name: 'Tal', last_name: 'Ben-David', ...overrides },
  });

/** A new member with a role: their id and an API client signed in as them. */
async function member(owner: Owner, role: string) {
  const invitation = await invite(owner, role);
  const joined = await accept(tokenOf(invitation.invite_url));
  expect(joined.statusCode, joined.body).toBe(201);
  return {
    id: joined.json().user.id as string,
    as: apiAs(t.app, joined.json().access),
    refresh: joined.json().refresh as string,
    email: invitation.email,
  };
}

describe('invitations', () => {
  it('emails a link that works once for seven days, and signs the new member in with the role', async () => {
    const owner = await signedInAgency(t.app);
    const before = Date.now();
    const invitation = await invite(owner, 'agent');
    expect(invitation.invite_url).toMatch(/\/invite\/[\w-]{40,}$/);
    expect(
      new Date((invitation as unknown as { expires_at: string }).expires_at).getTime(),
    ).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 1000);
    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes(invitation.email)),
      'the invitation',
    );
    expect(mail.raw).toContain(tokenOf(invitation.invite_url).slice(0, 20));
    expect((invitation as unknown as { email_sent: boolean }).email_sent).toBe(true);
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain('Accept the invitation</a>');

    const listed = (await owner.as.get('/api/team/invitations/')).json().results;
    expect(listed.map((each: { email: string }) => each.email)).toEqual([invitation.email]);
    expect(listed[0].email_sent).toBe(true);

    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/team/invitations/preview/',
      payload: { token: tokenOf(invitation.invite_url) },
    });
    expect(preview.json()).toMatchObject({ email: invitation.email, role: 'agent' });

    const joined = await accept(tokenOf(invitation.invite_url));
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json().user).toMatchObject({
      email: invitation.email,
      role: 'agent',
      tenant_id: owner.user.tenant_id,
    });
    const again = await accept(tokenOf(invitation.invite_url), { password: `${PASSWORD} again` });
    expect(again.statusCode).toBe(410);
    expect((await owner.as.get('/api/team/invitations/')).json().results).toEqual([]);
    const members = (await owner.as.get('/api/team/members/')).json().results;
    expect(members.map((each: { role: string }) => each.role)).toEqual(['owner', 'agent']);
  });

  it('makes a new link for an open invitation to those who may invite, and the link before stops working', async () => {
    const owner = await signedInAgency(t.app);
    const invitation = await invite(owner, 'agent');
    const preview = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/team/invitations/preview/', payload: { token } });

    const renewed = await owner.as.post(`/api/team/invitations/${invitation.id}/link/`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = renewed.json();
    expect(fresh).toMatchObject({ id: invitation.id, email: invitation.email, email_sent: true });
    expect(fresh.invite_url).not.toBe(invitation.invite_url);
    expect((await preview(tokenOf(invitation.invite_url))).statusCode).toBe(404);
    expect((await preview(tokenOf(fresh.invite_url))).json()).toMatchObject({ email: invitation.email });
    const trail = (await owner.as.get('/api/user/profile/audit/?action=invitation_link_renewed')).json()
      .results;
    expect(trail).toEqual([
      expect.objectContaining({ action: 'invitation_link_renewed', entity_id: invitation.id }),
    ]);

    // A manager hands out an agent's link, not an owner's; an agent or a viewer neither.
    const manager = await member(owner, 'manager');
    expect((await manager.as.post(`/api/team/invitations/${invitation.id}/link/`)).statusCode).toBe(200);
    const ownerInvite = await invite(owner, 'owner');
    const refused = await manager.as.post(`/api/team/invitations/${ownerInvite.id}/link/`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(OWNERSHIP_REFUSAL);
    for (const role of ['agent', 'viewer']) {
      const seat = await member(owner, role);
      expect((await seat.as.post(`/api/team/invitations/${invitation.id}/link/`)).statusCode).toBe(403);
    }
    // The old owner invitation's link still works: a refused renewal changed nothing.
    expect((await preview(tokenOf(ownerInvite.invite_url))).statusCode).toBe(200);

    // Another agency's invitation, and one withdrawn, have no link to give.
    const stranger = await signedInAgency(t.app);
    expect((await stranger.as.post(`/api/team/invitations/${invitation.id}/link/`)).statusCode).toBe(404);
    expect((await owner.as.delete(`/api/team/invitations/${invitation.id}/`)).statusCode).toBe(204);
    expect((await owner.as.post(`/api/team/invitations/${invitation.id}/link/`)).statusCode).toBe(404);
  });

  it('refuses unknown, withdrawn and expired links with a sentence', async () => {
    const owner = await signedInAgency(t.app);
    expect((await accept('no-such-token')).statusCode).toBe(404);
    const withdrawn = await invite(owner, 'viewer');
    expect((await owner.as.delete(`/api/team/invitations/${withdrawn.id}/`)).statusCode).toBe(204);
    expect((await accept(tokenOf(withdrawn.invite_url))).statusCode).toBe(404);
    const expired = await invite(owner, 'viewer');
    await t.database.db
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamInvitations.id, expired.id));
    const late = await accept(tokenOf(expired.invite_url));
    expect(late.statusCode).toBe(410);
    expect(late.json().detail).toMatch(/expired/);
  });

  it('refuses a weak password and an address that has an account, and counts invitations against the plan', async () => {
    const owner = await signedInAgency(t.app);
    const invitation = await invite(owner, 'agent');
    const weak = await accept(tokenOf(invitation.invite_url), { password: 'password' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().password).toBeDefined();
    const taken = await owner.as.post('/api/team/invitations/', { email: owner.email, role: 'agent' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().email[0]).toMatch(/already has a Coverdesk account/);
    // Starter allows 2 users: the owner and this invitation. The answer names the plan a third fits.
    await setSubscription(t, owner.user.tenant_id, { plan: 'starter', status: 'active' });
    const over = await owner.as.post('/api/team/invitations/', { email: newEmail('third'), role: 'viewer' });
    expect(over.statusCode).toBe(402);
    expect(over.json().detail).toBe(
      'Your Starter plan allows up to 2 users; Professional allows 10. Upgrade your plan on the Billing page to add more.',
    );
    // Inviting an address again replaces its invitation rather than counting twice.
    expect(
      (await owner.as.post('/api/team/invitations/', { email: invitation.email, role: 'manager' }))
        .statusCode,
    ).toBe(201);
  });

  it("is closed to another agency's ids, and to agents and viewers", async () => {
    const owner = await signedInAgency(t.app);
    const stranger = await signedInAgency(t.app);
    const invitation = await invite(owner, 'agent');
    expect((await stranger.as.delete(`/api/team/invitations/${invitation.id}/`)).statusCode).toBe(404);
    expect(
      (await stranger.as.patch(`/api/team/members/${owner.user.id}/`, { role: 'viewer' })).statusCode,
    ).toBe(404);
    const agent = await member(owner, 'agent');
    const refused = await agent.as.post('/api/team/invitations/', { email: newEmail('x'), role: 'agent' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(roleRefusal('agent'));
    const manager = await member(owner, 'manager');
    const ownerInvite = await manager.as.post('/api/team/invitations/', {
      email: newEmail('o'),
      role: 'owner',
    });
    expect(ownerInvite.statusCode).toBe(403);
    expect(ownerInvite.json().detail).toBe(OWNERSHIP_REFUSAL);
  });
});

describe('members', () => {
  it('keeps one active owner, and lets only an owner change an owner', async () => {
    const owner = await signedInAgency(t.app);
    const manager = await member(owner, 'manager');
    const alone = await owner.as.patch(`/api/team/members/${owner.user.id}/`, { role: 'manager' });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().detail).toMatch(/at least one active owner/);
    const byManager = await manager.as.patch(`/api/team/members/${owner.user.id}/`, { role: 'agent' });
    expect(byManager.statusCode).toBe(403);
    expect(byManager.json().detail).toBe(OWNERSHIP_REFUSAL);
    expect((await manager.as.patch(`/api/team/members/${manager.id}/`, { role: 'owner' })).statusCode).toBe(
      403,
    );
    const promoted = await owner.as.patch(`/api/team/members/${manager.id}/`, { role: 'owner' });
    expect(promoted.json()).toMatchObject({ role: 'owner' });
    // Two owners now: the first may step down.
    expect(
      (await owner.as.patch(`/api/team/members/${owner.user.id}/`, { role: 'manager' })).statusCode,
    ).toBe(200);
  });

  it('ends a member’s sessions when their role changes: the old token is refused at once', async () => {
    const owner = await signedInAgency(t.app);
    const agent = await member(owner, 'agent');
    expect(
      (await agent.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' })).statusCode,
    ).toBe(201);
    await owner.as.patch(`/api/team/members/${agent.id}/`, { role: 'viewer' });
    expect((await agent.as.get('/api/customers/')).statusCode).toBe(401);
    const beforeSignIn = Date.now();
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: agent.email, password: PASSWORD },
    });
    const viewer = apiAs(t.app, signIn.json().access);
    // The team's list tells when each member last signed in: this one just now.
    const listed = (await owner.as.get('/api/team/members/')).json().results as {
      id: string;
      last_sign_in_at: string | null;
    }[];
    const signedIn = listed.find((each) => each.id === agent.id)?.last_sign_in_at;
    expect(Date.parse(signedIn ?? '')).toBeGreaterThanOrEqual(beforeSignIn);
    expect(Date.parse(signedIn ?? '')).toBeLessThanOrEqual(Date.now());
    expect((await viewer.get('/api/customers/')).statusCode).toBe(200);
    const write = await viewer.post('/api/customers/', { first_name: 'Noa', last_name: 'Levi' });
    expect(write.statusCode).toBe(403);
    expect(write.json().detail).toBe(roleRefusal('viewer'));
    // Their own account stays theirs.
    expect((await viewer.patch('/api/user/profile/', { first_name: 'Noga' })).statusCode).toBe(200);
    expect((await viewer.patch('/api/user/profile/', { currency: 'EUR' })).statusCode).toBe(403);
  });

  it('deactivates a member: sessions and calendar feed end, sign-in is refused, their book goes to a colleague, all audited', async () => {
    const owner = await signedInAgency(t.app);
    const agent = await member(owner, 'agent');
    const successor = await member(owner, 'manager');
    const parties = await cover(owner.as);
    // What the agent adds is theirs; the owner's customer stays the owner's.
    const customer = await addCustomer(agent.as);
    const policy = await addPolicy(agent.as, parties, customer.id);
    const claim = await addClaim(agent.as, policy.id);
    const lead = await created<Lead>(agent.as.post('/api/leads/', { first_name: 'Ron', last_name: 'Bar' }));
    const kept = await addCustomer(owner.as);
    const feed = await agent.as.post('/api/calendar/feed/');
    expect(feed.statusCode, feed.body).toBe(201);
    const feedPath = new URL((feed.json() as { url: string }).url).pathname;
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);

    const self = await owner.as.patch(`/api/team/members/${owner.user.id}/`, { is_active: false });
    expect(self.statusCode).toBe(409);
    const left = await owner.as.patch(`/api/team/members/${agent.id}/`, {
      is_active: false,
      reassign_to: successor.id,
    });
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json()).toMatchObject({ is_active: false });

    // At once: the access token is refused, the refresh token renews nothing, the feed is gone.
    expect((await agent.as.get('/api/customers/')).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: agent.refresh },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: agent.email, password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().detail).toMatch(/deactivated/);

    const assignee = async (url: string, field = 'assigned_to') =>
      ((await owner.as.get(url)).json() as Record<string, unknown>)[field];
    expect(await assignee(`/api/customers/${customer.id}/`)).toBe(successor.id);
    expect(await assignee(`/api/policies/${policy.id}/`)).toBe(successor.id);
    expect(await assignee(`/api/claims/${claim.id}/`)).toBe(successor.id);
    expect(await assignee(`/api/leads/${lead.id}/`, 'assigned_user_id')).toBe(successor.id);
    expect(await assignee(`/api/customers/${kept.id}/`)).toBe(owner.user.id);
    const log = (await owner.as.get('/api/user/profile/audit/?entity=user')).json().results as {
      action: string;
      entity_id: string;
      changes: Record<string, { after: unknown }>;
    }[];
    const entry = log.find((each) => each.action === 'member_deactivated' && each.entity_id === agent.id);
    expect(entry?.changes.book?.after).toBe('Tal Ben-David (4 records)');
    // Back again, within the plan.
    expect(
      (await owner.as.patch(`/api/team/members/${agent.id}/`, { is_active: true })).json().is_active,
    ).toBe(true);
  });
});

describe('invitation links', () => {
  it('are tried at most 30 times in 15 minutes from one address, as sign-in is; one that opens gives its try back', async () => {
    const owner = await signedInAgency(t.app);
    const invitation = await invite(owner, 'agent');
    const preview = (token: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/team/invitations/preview/',
        payload: { token },
        remoteAddress,
      });
    const guess = 'x'.repeat(43);
    // Opening the real one costs nothing, however often.
    for (let i = 0; i < 5; i++)
      expect((await preview(tokenOf(invitation.invite_url), '10.7.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 30; i++) expect((await preview(guess, '10.7.0.1')).statusCode).toBe(404);
    const refused = await preview(guess, '10.7.0.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const accepting = await t.app.inject({
      method: 'POST',
      url: '/api/team/invitations/accept/',
      payload: {
        token: tokenOf(invitation.invite_url),
        password: PASSWORD,
        first_name: 'Tal',
        last_name: 'Ben-David',
      },
      remoteAddress: '10.7.0.1',
    });
    expect(accepting.statusCode).toBe(429);
    expect((await preview(guess, '10.7.0.2')).statusCode).toBe(404);
  });
});

describe('two owners at the same moment', () => {
  it('demoting each other: one is demoted, the other refused as the last owner (409), never a 500', async () => {
    // Several agencies at once, so that the two changes of at least one pair interleave.
    const pairs = await Promise.all(
      [1, 2, 3].map(async () => {
        const first = await signedInAgency(t.app);
        return { first, second: await member(first, 'owner') };
      }),
    );
    const answers = await Promise.all(
      pairs.map(({ first, second }) =>
        Promise.all([
          first.as.patch(`/api/team/members/${second.id}/`, { role: 'manager' }),
          second.as.patch(`/api/team/members/${first.user.id}/`, { role: 'manager' }),
        ]),
      ),
    );
    for (const [byFirst, bySecond] of answers) {
      expect([byFirst.statusCode, bySecond.statusCode].sort(), `${byFirst.body} ${bySecond.body}`).toEqual([
        200, 409,
      ]);
      const refused = byFirst.statusCode === 409 ? byFirst : bySecond;
      expect(refused.json().detail).toMatch(/at least one active owner/);
    }
  });
});

describe('two-step sign-in for everyone', () => {
  const signIn = async (email: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    return apiAs(t.app, response.json().access);
  };

  it('is the owner’s to require; a member has seven days, then only their own account answers until they turn it on', async () => {
    const owner = await signedInAgency(t.app);
    const manager = await member(owner, 'manager');
    const agent = await member(owner, 'agent');
    const byManager = await manager.as.patch('/api/team/settings/', { require_two_step: true });
    expect(byManager.statusCode).toBe(403);
    const required = await owner.as.patch('/api/team/settings/', { require_two_step: true });
    expect(required.json()).toMatchObject({ require_two_step: true, agents_see_own_book: false });

    // Within the grace: the agent works, and is told by when.
    let as = await signIn(agent.email);
    const profile = (await as.get('/api/user/profile/')).json();
    const by = Date.parse(profile.two_step_required_by);
    expect(by - Date.parse(required.json().require_two_step_since)).toBe(7 * 86_400_000);
    expect((await as.get('/api/customers/')).statusCode).toBe(200);

    // Eight days on.
    await t.database.db
      .update(tenants)
      .set({ requireTwoStepSince: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(tenants.id, owner.user.tenant_id));
    await t.database.pool.query("update users set date_joined = now() - interval '8 days' where id = $1", [
      agent.id,
    ]);
    as = await signIn(agent.email);
    const blocked = await as.get('/api/customers/');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'mfa_required' });
    expect((await as.get('/api/user/profile/')).statusCode).toBe(200);

    const setup = (await as.post('/api/user/mfa/totp/setup/', {})).json();
    const code = new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate();
    expect((await as.post('/api/user/mfa/totp/confirm/', { code })).statusCode).toBe(200);
    // The same token goes on working: the database says two-step sign-in is on now.
    expect((await as.get('/api/customers/')).statusCode).toBe(200);

    const since = (await owner.as.get('/api/team/settings/')).json().require_two_step_since;
    await owner.as.patch('/api/team/settings/', { require_two_step: false });
    expect(
      (await (await signIn(manager.email)).get('/api/user/profile/')).json().two_step_required_by,
    ).toBeNull();

    // Required again after a while off: each member keeps the deadline they had, no new seven days.
    const again = await owner.as.patch('/api/team/settings/', { require_two_step: true });
    expect(again.json().require_two_step_since).toBe(since);
    expect(Date.parse(since)).toBeLessThan(Date.now() - 7 * 86_400_000);
  });
});
