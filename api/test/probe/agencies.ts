import { randomBytes, randomUUID } from 'node:crypto';
import { PASSWORD } from '../test-app.js';
import { multipartForm, type ProbeClient } from './client.js';
import type { IdKind } from './route-table.js';

/** An agency the probe signed up, with one of every kind of row, all added through the API. */
export interface Agency {
  /**
   * A word in every name, email and number the agency holds. It is not hexadecimal, so no id can
   * contain it by chance: finding it in someone else's answer means a leak.
   */
  marker: string;
  email: string;
  access: string;
  refresh: string;
  /** A session of its own for the refresh call, whose token the fuzzer may spend and revoke. */
  spareRefresh: string;
  userId: string;
  ids: Record<IdKind, string>;
  /** What no other agency, and no signed-out caller, may ever be shown. */
  secrets: string[];
}

/** "zyxalpha" plus letters beyond f: never part of an id, a date or an amount. */
const markerFor = (label: string) =>
  `zyx${label}${[...randomBytes(6)].map((byte) => String.fromCharCode(103 + (byte % 20))).join('')}`;

export const POLICY_TERM = { start_date: '2026-01-01', end_date: '2026-12-31' };

async function expectStatus<T>(
  response: Promise<{ status: number; body: string }>,
  status: number,
  what: string,
): Promise<T> {
  const answer = await response;
  if (answer.status !== status)
    throw new Error(`probe setup: ${what} answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body) as T;
}

let rowsMade = 0;

/** Rows created on demand, for requests that use one up (deletion, cancellation, renewal, payment). */
export function rowFactory(client: ProbeClient, agency: Pick<Agency, 'access' | 'marker' | 'ids'>) {
  const unique = () => `${agency.marker}-${++rowsMade}`;
  let lastInvitation: string | undefined;
  const create = (url: string, body: unknown, what: string) =>
    expectStatus<{ id: string }>(
      client.send({ method: 'POST', url, token: agency.access, body }),
      201,
      what,
    ).then((created) => created.id);
  /** A support ticket with a file: the ticket's id, and its attachment's. */
  const ticketWithFile = async () => {
    const ticket = await expectStatus<{ id: string; messages: { attachments: { id: string }[] }[] }>(
      client.send({
        method: 'POST',
        url: '/api/support/tickets/',
        token: agency.access,
        ...multipartForm(
          { subject: `Question ${unique()}`, category: 'other', message: `From ${agency.marker}` },
          { name: 'notes.txt', text: 'What we saw.' },
        ),
      }),
      201,
      'a support ticket',
    );
    return { ticket: ticket.id, attachment: ticket.messages[0]?.attachments[0]?.id ?? '' };
  };
  const factory = {
    policyType: () => create('/api/policy-types/', { name: `Motor ${unique()}`, category: 'auto' }, 'a type'),
    company: () => create('/api/companies/', { name: `Insurer ${unique()}` }, 'an insurer'),
    customer: () =>
      create(
        '/api/customers/',
        { first_name: `Dana ${unique()}`, last_name: 'Levi', email: `dana-${unique()}@example.com` },
        'a customer',
      ),
    /** A monthly policy on the agency's own customer, insurer and type. */
    policy: () =>
      create(
        '/api/policies/',
        {
          policy_number: `POL-${unique()}`,
          customer_id: agency.ids.customer,
          company_id: agency.ids.company,
          policy_type_id: agency.ids.policyType,
          ...POLICY_TERM,
          total_premium: '1200.00',
          payment_frequency: 'monthly',
        },
        'a policy',
      ),
    /** A lead interested in the agency's type. */
    lead: () =>
      create(
        '/api/leads/',
        {
          first_name: `Maya ${unique()}`,
          last_name: 'Golan',
          email: `maya-${unique()}@example.com`,
          policy_type_id: agency.ids.policyType,
        },
        'a lead',
      ),
    /** The first instalment of a new policy. */
    installment: async () => {
      const policyId = await factory.policy();
      const { results } = await expectStatus<{ results: { id: string }[] }>(
        client.send({ method: 'GET', url: `/api/policies/${policyId}/installments/`, token: agency.access }),
        200,
        'the instalments',
      );
      const first = results[0];
      if (!first) throw new Error('probe setup: a policy without instalments');
      return first.id;
    },
    /** A meeting with the agency's customer. */
    meeting: () =>
      create(
        '/api/calendar/meetings/',
        {
          title: `Review ${unique()}`,
          start: '2026-01-05T09:00:00Z',
          end: '2026-01-05T10:00:00Z',
          customer_id: agency.ids.customer,
        },
        'a meeting',
      ),
    /** A card recorded with the manual provider. */
    paymentMethod: () =>
      create(
        '/api/billing/payment-methods/add/',
        {
          brand: 'visa',
          last4: '4242',
          expiry_month: 12,
          expiry_year: 2030,
          holder_name: `Dana ${unique()}`,
        },
        'a payment method',
      ),
    /** An uploaded customer file, not yet imported (its contents unique, so never the same import). */
    import: () =>
      expectStatus<{ id: string }>(
        client.send({
          method: 'POST',
          url: '/api/imports/?kind=customers&file_name=customers.csv',
          token: agency.access,
          rawBody: `first_name,last_name,email\nDana,Levi,dana-${unique()}@example.com\n`,
          contentType: 'text/csv',
        }),
        201,
        'an import',
      ).then((created) => created.id),
    /** Another sign-in of the agency's owner: the session the sign-in added to the list. */
    session: async () => {
      const sessionIds = async () => {
        const { results } = await expectStatus<{ results: { id: string }[] }>(
          client.send({ method: 'GET', url: '/api/user/sessions/', token: agency.access }),
          200,
          'the sessions',
        );
        return results.map((session) => session.id);
      };
      const before = new Set(await sessionIds());
      const { email } = await expectStatus<{ email: string }>(
        client.send({ method: 'GET', url: '/api/user/profile/', token: agency.access }),
        200,
        'the profile',
      );
      await expectStatus(
        client.send({ method: 'POST', url: '/api/token/', body: { email, password: PASSWORD } }),
        200,
        'another sign-in',
      );
      return (await sessionIds()).find((id) => !before.has(id)) ?? '';
    },
    /** A note kept on the agency's customer. */
    document: async () =>
      (
        await expectStatus<{ id: string }>(
          client.send({
            method: 'POST',
            url: '/api/documents/',
            token: agency.access,
            ...multipartForm(
              { customer_id: agency.ids.customer, category: 'correspondence' },
              { name: 'call.txt', text: `Called ${agency.marker}.`, field: 'file' },
            ),
          }),
          201,
          'a document',
        )
      ).id,
    ticket: async () => (await ticketWithFile()).ticket,
    attachment: async () => (await ticketWithFile()).attachment,
    /** A test reminder in the bell: its delivery's id, and then its notification's. */
    notificationHistory: async () => {
      const sent = await expectStatus<{ results: { id: string; channel: string }[] }>(
        client.send({
          method: 'POST',
          url: '/api/notifications/settings/test_notification/',
          token: agency.access,
          body: { notification_type: 'payment_reminder' },
        }),
        201,
        'a test notification',
      );
      return sent.results.find((entry) => entry.channel === 'in_app')?.id ?? '';
    },
    notification: async () => {
      await factory.notificationHistory();
      const { results } = await expectStatus<{ results: { id: string }[] }>(
        client.send({
          method: 'GET',
          url: '/api/notifications/dashboard/?page_size=1',
          token: agency.access,
        }),
        200,
        'the notifications',
      );
      return results[0]?.id ?? '';
    },
    /** The user's payment-reminder setting (settings are per user and type, never more). */
    notificationSetting: async () => {
      const { results } = await expectStatus<{ results: { id: string }[] }>(
        client.send({ method: 'GET', url: '/api/notifications/settings/', token: agency.access }),
        200,
        'the notification settings',
      );
      return results[0]?.id ?? '';
    },
    /**
     * An open invitation to a new address, as an agent. A pending invitation holds a seat of the plan,
     * and not every request uses its invitation up (a new link keeps it open): the one made before is
     * withdrawn first, so the matrix's many never fill the plan.
     */
    invitation: async () => {
      if (lastInvitation) {
        await client.send({
          method: 'DELETE',
          url: `/api/team/invitations/${lastInvitation}/`,
          token: agency.access,
        });
      }
      lastInvitation = await create(
        '/api/team/invitations/',
        { email: `invitee-${unique()}@example.com`, role: 'agent' },
        'an invitation',
      );
      return lastInvitation;
    },
    /** A statement of the agency's insurer in review, of one line (its file's row 2). */
    statement: async () => {
      const { id } = await expectStatus<{ id: string }>(
        client.send({
          method: 'POST',
          url: '/api/commission-statements/',
          token: agency.access,
          ...statementForm(agency.ids.company),
        }),
        202,
        'a commission statement',
      );
      // A job reads its line: until then the statement takes no change.
      const read = () =>
        expectStatus<{ status: string }>(
          client.send({ method: 'GET', url: `/api/commission-statements/${id}/`, token: agency.access }),
          200,
          'the statement being read',
        );
      for (let tries = 0; (await read()).status === 'processing'; tries += 1) {
        if (tries > 300) throw new Error(`statement ${id} still processing after 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return id;
    },
    statementLine: async () => '2',
    /** An open claim on the agency's seeded policy, incident on the term's first day. */
    claim: () =>
      create(
        '/api/claims/',
        {
          policy_id: agency.ids.policy,
          claim_number: `CLM-${unique()}`,
          incident_date: POLICY_TERM.start_date,
          claim_type: 'accident',
          amount_claimed: '900.00',
        },
        'a claim',
      ),
  };
  return { ...factory, ticketWithFile };
}

/** The agency's ids, which no other caller may see: all but a statement line's number ("2"). */
export const rowIds = (ids: Record<IdKind, string>) =>
  Object.entries(ids).flatMap(([kind, id]) => (kind === 'statementLine' ? [] : [id]));

/** A one-line statement of `companyId`'s commission, a file of its own each time. */
export const statementForm = (companyId: string) =>
  multipartForm(
    { company_id: companyId, statement_date: POLICY_TERM.start_date, total_amount: '10.00' },
    { field: 'file', name: 'statement.csv', text: `Policy,Commission\r\nP-${randomUUID()},10.00\r\n` },
  );

/** A member of the agency with a role, joined through an invitation: their access token. */
export async function addMember(
  client: ProbeClient,
  agency: Pick<Agency, 'access' | 'marker'>,
  role: string,
) {
  const invited = await expectStatus<{ invite_url: string }>(
    client.send({
      method: 'POST',
      url: '/api/team/invitations/',
      token: agency.access,
      body: { email: `${role}-${agency.marker}@example.com`, role },
    }),
    201,
    `an invitation for a ${role}`,
  );
  const joined = await expectStatus<{ access: string }>(
    client.send({
      method: 'POST',
      url: '/api/team/invitations/accept/',
      body: {
        token: invited.invite_url.split('/').pop(),
        password: PASSWORD,
        first_name: `Tal ${agency.marker}`,
        last_name: `Ben ${role}`,
      },
    }),
    201,
    `a ${role} joining`,
  );
  return joined.access;
}

/** A new agency with a type its insurer sells, a customer, a policy and its instalments. */
export async function seedAgency(client: ProbeClient, label: string, ownerEmail?: string): Promise<Agency> {
  const marker = markerFor(label);
  const email = ownerEmail ?? `owner-${marker}@example.com`;
  const session = await expectStatus<{
    access: string;
    refresh: string;
    user: { id: string; tenant_id: string };
  }>(
    client.send({
      method: 'POST',
      url: '/api/accounts/register/',
      body: {
        email,
        password: PASSWORD,
        first_name: `Noa ${marker}`,
        last_name: `Peretz ${marker}`,
        company_name: `Agency ${marker}`,
      },
    }),
    201,
    'registration',
  );
  const ids = { tenant: session.user.tenant_id, user: session.user.id } as Record<IdKind, string>;
  const agency = { marker, access: session.access, ids };
  const rows = rowFactory(client, agency);
  ids.policyType = await rows.policyType();
  ids.company = await expectStatus<{ id: string }>(
    client.send({
      method: 'POST',
      url: '/api/companies/',
      token: session.access,
      body: {
        name: `Insurer ${marker}`,
        email: `claims-${marker}@example.com`,
        policy_types: [{ policy_type_id: ids.policyType, commission_percentage: '12.50' }],
      },
    }),
    201,
    'the insurer',
  ).then((created) => created.id);
  ids.customer = await rows.customer();
  ids.installment = await rows.installment();
  ids.lead = await rows.lead();
  const policies = await expectStatus<{ results: { id: string }[] }>(
    client.send({ method: 'GET', url: '/api/policies/', token: session.access }),
    200,
    'the policies',
  );
  ids.policy = policies.results[0]?.id ?? '';
  ids.claim = await rows.claim();
  ids.meeting = await rows.meeting();
  ids.import = await rows.import();
  ids.paymentMethod = await rows.paymentMethod();
  ids.notificationHistory = await rows.notificationHistory();
  ids.notification = await rows.notification();
  ids.notificationSetting = await rows.notificationSetting();
  ({ ticket: ids.ticket, attachment: ids.attachment } = await rows.ticketWithFile());
  ids.session = await rows.session();
  ids.invitation = await rows.invitation();
  ids.document = await rows.document();
  ids.statement = await rows.statement();
  ids.statementLine = await rows.statementLine();
  const spare = await expectStatus<{ refresh: string }>(
    client.send({ method: 'POST', url: '/api/token/', body: { email, password: PASSWORD } }),
    200,
    'a second sign-in',
  );
  return {
    marker,
    email,
    access: session.access,
    refresh: session.refresh,
    spareRefresh: spare.refresh,
    userId: session.user.id,
    ids,
    secrets: [marker, session.user.id, ...rowIds(ids)],
  };
}
