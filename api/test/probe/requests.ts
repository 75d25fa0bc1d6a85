import { PASSWORD } from '../test-app.js';
import { type Agency, POLICY_TERM, statementForm } from './agencies.js';
import { multipartForm } from './client.js';
import type { IdKind, Operation } from './route-table.js';

/** A request an operation should accept, and the status it answers when it is not a plain 2xx. */
export interface ValidRequest {
  body?: unknown;
  /** A file sent as the body, with its type (an import's upload). */
  file?: { rawBody: string; contentType: string };
  query?: Record<string, string>;
  status?: number;
}

let sequence = 0;
/** Names that must be unique within an agency (types, insurers, policy numbers). */
const unique = (label: string) => `${label} ${++sequence}`;

const CARD = { brand: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, holder_name: 'Dana Levi' };

const policyBody = (agency: Agency) => ({
  policy_number: unique('POL'),
  customer_id: agency.ids.customer,
  company_id: agency.ids.company,
  policy_type_id: agency.ids.policyType,
  ...POLICY_TERM,
  total_premium: '1200.00',
  net_premium: '1000.00',
  commission_percentage: '12.50',
  payment_frequency: 'quarterly',
  insured_item: 'Mazda 3, 12-345-67',
  sum_insured: '85000',
  deductible: 500,
  notes: 'Renews every January.',
});

const claimBody = (agency: Agency) => ({
  policy_id: agency.ids.policy,
  incident_date: POLICY_TERM.start_date,
  reported_date: '2026-01-03',
  claim_type: 'water_damage',
  description: 'A pipe burst in the kitchen.',
  location: 'Haifa',
  amount_claimed: '2500.00',
  adjuster_name: 'Rina Azulay',
  adjuster_phone: '+972 52 123 4567',
  adjuster_email: 'rina@insurer.example',
});

const customerBodies = () => [
  { body: { first_name: 'Dana', last_name: 'Levi' } },
  {
    body: {
      customer_type: 'business',
      first_name: 'Yossi',
      last_name: 'Cohen',
      business_name: 'Cohen Logistics',
      email: 'yossi@cohen.example',
      phone: '+972 52 123 4567',
      date_of_birth: '1980-05-17',
      national_id: '123456782',
      city: 'Haifa',
      preferred_contact: 'phone',
      tags: ['fleet', 'vip'],
      status: 'active',
    },
  },
];

const companyBodies = (agency: Agency) => [
  { body: { name: unique('Insurer') } },
  {
    body: {
      name: unique('Insurer'),
      contact_person: 'Rina Azulay',
      email: 'rina@insurer.example',
      website: 'https://insurer.example',
      commission_payment_method: 'pro_rata',
      policy_types: [{ policy_type_id: agency.ids.policyType, commission_percentage: 10 }],
    },
  },
];

const leadBodies = (agency: Agency) => [
  { body: { first_name: 'Maya', last_name: 'Golan' } },
  {
    body: {
      business_name: 'Golan Bakery',
      first_name: 'Maya',
      last_name: 'Golan',
      email: 'maya@golan.example',
      phone: '+972 54 222 3333',
      source: 'referral',
      policy_type_id: agency.ids.policyType,
      estimated_premium: '1250.00',
      status: 'quoted',
      next_follow_up_at: '2026-02-01T09:30:00+02:00',
      assigned_user_id: agency.userId,
      notes: 'Two delivery vans.',
    },
  },
];

const meetingBodies = (agency: Agency) => [
  { body: { title: 'Renewal review', start: '2026-01-05T09:00:00+02:00', end: '2026-01-05T10:00:00+02:00' } },
  {
    body: {
      title: 'Site visit',
      all_day: true,
      start: '2026-01-06',
      end: '2026-01-07',
      customer_id: agency.ids.customer,
      lead_id: agency.ids.lead,
      location: 'Haifa',
      video_url: 'https://meet.example.com/abc',
      notes: 'Bring the quote.',
      reminder_minutes: 30,
    },
  },
];

/**
 * Valid requests for the operations that need a body or a query. The first is the one the matrix
 * sends; all of them are starting points the fuzzer mutates. An operation that needs a body or
 * query and has no entry here is still probed, but its own agency's answer is only held to "no
 * server error".
 */
const VALID_REQUESTS: Record<string, (agency: Agency) => ValidRequest[]> = {
  'POST /api/accounts/register/': () => [
    {
      body: {
        email: `${unique('new').replace(' ', '-')}@example.com`,
        password: PASSWORD,
        first_name: 'Mira',
        last_name: 'Katz',
        company_name: 'Katz Brokers',
        time_zone: 'Europe/London',
      },
      status: 201,
    },
  ],
  'POST /api/token/': (agency) => [{ body: { email: agency.email, password: PASSWORD } }],
  'POST /api/token/refresh/': (agency) => [{ body: { refresh: agency.spareRefresh } }],
  'POST /api/token/revoke/': () => [{ body: { refresh: 'not-a-token-we-issued' } }],
  // A real second-step token only comes from a password step with two-step sign-in on.
  'POST /api/token/mfa/': () => [{ body: { mfa_token: 'not-a-challenge', code: '123456' }, status: 401 }],
  // Two-step sign-in is off for the probe's agencies: a code is refused, whichever it is.
  'POST /api/user/mfa/totp/confirm/': () => [{ body: { code: '123456' }, status: 400 }],
  'POST /api/user/mfa/totp/disable/': () => [{ body: { password: PASSWORD, code: '123456' }, status: 400 }],
  'POST /api/user/mfa/recovery-codes/': () => [{ body: { code: '123456' }, status: 400 }],
  // The probe's database has no demo agency.
  'POST /api/accounts/login/demo/': () => [{ status: 404 }],
  'POST /api/accounts/password-reset/': (agency) => [{ body: { email: agency.email }, status: 202 }],
  // A real reset token only ever travels by email.
  'POST /api/accounts/password-reset/confirm/': () => [
    { body: { token: 'not-a-reset-token', new_password: 'another quiet harbour' }, status: 400 },
  ],
  'POST /api/contact/': () => [
    {
      body: {
        name: 'Mira Katz',
        email: 'mira@example.com',
        company: 'Katz Brokers',
        subject: 'Pricing',
        message: 'How much for a team of ten brokers?',
      },
      status: 201,
    },
  ],
  'PATCH /api/user/profile/': () => [{ body: { time_zone: 'UTC' } }, { body: { currency: 'EUR' } }],
  'PATCH /api/admin/tenants/:id/subscription/': () => [
    { body: { status: 'active' } },
    {
      body: {
        plan: 'professional',
        billing_cycle: 'yearly',
        trial_ends_at: null,
        current_period_end: '2030-01-01T00:00:00Z',
      },
    },
  ],
  'POST /api/admin/tenants/:id/subscription/extend-trial/': () => [
    { body: { days: 7, reason: 'Onboarding took longer' } },
  ],
  'POST /api/admin/tenants/:id/subscription/change-plan/': () => [
    { body: { plan: 'starter', reason: 'A smaller agency' } },
  ],
  'POST /api/admin/tenants/:id/subscription/comp-period/': () => [
    { body: { months: 1, reason: 'Sorry for the outage' } },
  ],
  'POST /api/admin/tenants/:id/subscription/cancel/': () => [
    { body: { reason: 'Closing the agency' } },
    { body: { reason: 'Closing the agency today', immediate: true } },
  ],
  // The admin acts on their own account here, which every action but a reset link refuses.
  'POST /api/admin/users/:id/disable/': () => [{ body: { reason: 'Left the agency' }, status: 409 }],
  'POST /api/admin/users/:id/enable/': () => [{ body: { reason: 'Back again' }, status: 409 }],
  'POST /api/admin/users/:id/sign-out/': () => [{ body: { reason: 'Lost a phone' }, status: 409 }],
  'POST /api/admin/users/:id/password-reset/': () => [{ body: { reason: 'Asked by phone' } }],
  'POST /api/admin/users/:id/mfa/reset/': () => [{ body: { reason: 'Lost a phone' }, status: 409 }],
  'POST /api/admin/super-admins/:id/revoke/': () => [{ body: { reason: 'Left the team' }, status: 409 }],
  'POST /api/admin/super-admins/grant/': (agency) => [
    { body: { email: agency.email, reason: 'Joined the team' }, status: 409 },
  ],
  'POST /api/commission-statements/': (agency) => [{ file: statementForm(agency.ids.company), status: 202 }],
  'PATCH /api/commission-statements/:id/lines/:line_number/': () => [
    { body: { note: 'Checked with Harel' } },
  ],
  'POST /api/commission-statements/:id/confirm-matches/': () => [{ body: { min_confidence: '0.80' } }],
  'PATCH /api/commission-statements/:id/': () => [{ body: { total_amount: '10.00' } }],
  'PUT /api/commission-statements/:id/lines/:line_number/resolution/': () => [
    { body: { resolution: 'written_off', reason: 'Closed book' } },
  ],
  // Each accept and reopen is sent a statement of its own: one in review, which cannot be reopened,
  // whose one line names no policy and, unresolved, keeps it from being accepted.
  'POST /api/commission-statements/:id/accept/': () => [{ status: 409 }],
  'POST /api/commission-statements/:id/reopen/': () => [{ status: 409 }],
  'POST /api/support/tickets/': () => [
    {
      file: multipartForm(
        { subject: unique('Reminders stopped'), category: 'technical', message: 'Nothing since Monday.' },
        { name: 'steps.txt', text: 'Open Notifications.' },
      ),
      status: 201,
    },
  ],
  'POST /api/documents/': (agency) => [
    {
      file: multipartForm(
        { policy_id: agency.ids.policy, category: 'policy_document' },
        { name: 'schedule.txt', text: 'Motor policy schedule.', field: 'file' },
      ),
      status: 201,
    },
  ],
  'GET /api/documents/': (agency): ValidRequest[] => [
    { query: { customer_id: agency.ids.customer } },
    { query: { claim_id: agency.ids.claim, page: '1', page_size: '5' } },
  ],
  'PATCH /api/documents/:id/': () => [{ body: { file_name: 'Renamed note.txt', category: 'other' } }],
  'POST /api/support/tickets/:id/messages/': () => [
    { file: multipartForm({ message: 'Still nothing today.' }), status: 201 },
  ],
  'POST /api/admin/support/tickets/:id/messages/': () => [
    { file: multipartForm({ message: 'Fixed from tonight.' }), status: 201 },
  ],
  'POST /api/admin/support/tickets/:id/assign/': () => [{ body: { assigned_to: null } }],
  'GET /api/admin/support/tickets/': () => [
    {},
    { query: { status: 'open', assignee: 'none', search: 'Reminders' } },
  ],
  'GET /api/admin/tenants/': () => [
    {},
    { query: { search: 'Agency', plan: 'professional', status: 'trial', ordering: '-policies' } },
  ],
  'GET /api/admin/users/': () => [{}, { query: { search: 'Noa', state: 'owner', ordering: '-last_login' } }],
  // A billing action's answer depends on the state the agency is in (a trial cannot pause, an
  // expired subscription cannot cancel), so any 4xx is fair; the plan ids are not the probe's to know.
  'POST /api/billing/subscription/reactivate/': () => [],
  'POST /api/billing/subscription/pause/': () => [],
  'POST /api/billing/subscription/withdraw-scheduled-change/': () => [],
  'POST /api/billing/payment-methods/add/': () => [{ body: CARD, status: 201 }],
  'PUT /api/billing/payment-methods/:id/': () => [
    { body: { expiry_month: 1, expiry_year: 2031, holder_name: 'Dana Levi' } },
  ],
  'POST /api/customers/': () => customerBodies(),
  'PUT /api/customers/:id/': () => customerBodies(),
  'PATCH /api/customers/:id/': () => [{ body: { city: 'Haifa' } }, { body: { tags: ['renewal'] } }],
  'GET /api/policy-types/by_company/': (agency) => [{ query: { company_id: agency.ids.company } }],
  'POST /api/policy-types/': (agency) => [
    { body: { name: unique('Home'), category: 'home' } },
    {
      body: {
        company_id: agency.ids.company,
        policy_type_id: agency.ids.policyType,
        custom_name: 'Private motor',
        commission_percentage: '11.00',
      },
    },
  ],
  'PUT /api/policy-types/:id/': () => [
    { body: { name: unique('Home'), category: 'home', description: 'Contents', is_active: false } },
  ],
  'POST /api/companies/': companyBodies,
  'PUT /api/companies/:id/': companyBodies,
  'POST /api/policies/': (agency) => [
    { body: policyBody(agency) },
    { body: { ...policyBody(agency), payment_frequency: 'custom', custom_installments: 5 } },
    // The producer's share takes `team` besides `work` (docs/permissions.md): the owner's request.
    { body: { ...policyBody(agency), producer_split_percentage: '40.00' } },
  ],
  'PUT /api/policies/:id/': (agency) => [
    { body: policyBody(agency) },
    { body: { ...policyBody(agency), producer_split_percentage: null } },
  ],
  'GET /api/policies/numbered/': () => [{ query: { policy_number: 'POL-1' } }],
  'POST /api/policies/:id/secure-delete/': () => [{ body: { password: PASSWORD } }],
  'POST /api/policies/:id/cancel/': () => [{ body: { cancelled_at: '2026-03-01', reason: 'Sold the car' } }],
  'POST /api/policies/:id/not-renewing/': () => [{ body: { reason: 'Moving abroad' } }],
  'GET /api/alerts/expiring/': () => [
    {},
    { query: { within_days: '90', include_lapsed: 'false', ordering: '-total_premium', search: 'POL' } },
  ],
  'GET /api/alerts/expiring/csv/': () => [{ query: { within_days: '60', ordering: 'total_premium' } }],
  'POST /api/policies/:id/renew/': () => [{ body: {} }, { body: { total_premium: '1300.00' } }],
  'POST /api/claims/': (agency) => [{ body: claimBody(agency), status: 201 }],
  'PUT /api/claims/:id/': (agency) => [{ body: { ...claimBody(agency), amount_claimed: '1250.00' } }],
  'POST /api/claims/:id/transition/': () => [
    { body: { status: 'in_review', note: 'Sent to the insurer' } },
    { body: { status: 'closed' } },
  ],
  'POST /api/claims/:id/notes/': () => [{ body: { note: 'Photos received.' } }],
  'POST /api/leads/': leadBodies,
  'PUT /api/leads/:id/': leadBodies,
  'PATCH /api/leads/:id/': () => [
    { body: { status: 'contacted' } },
    { body: { status: 'lost', lost_reason: 'Chose another broker' } },
  ],
  'POST /api/leads/:id/activities/': () => [
    { body: { activity_type: 'call', summary: 'Asked for a quote.' } },
    {
      body: { activity_type: 'meeting', summary: 'Met at the office.', occurred_at: '2026-01-05T10:00:00Z' },
    },
  ],
  'POST /api/leads/:id/convert/': (agency) => [
    { status: 201 },
    { body: { customer_id: agency.ids.customer } },
  ],
  'GET /api/leads/stats/': () => [{ query: { date_from: '2026-01-01', date_to: '2026-03-31' } }],
  'GET /api/calendar/events/': (agency): ValidRequest[] => [
    { query: { start: '2026-01-01', end: '2026-01-31' } },
    {
      query: {
        start: '2026-01-01',
        end: '2027-02-04',
        kinds: 'renewal,meeting',
        company: agency.ids.company,
      },
    },
    { query: { start: '2026-01-01', end: '2026-01-31', assignee: agency.userId } },
  ],
  'GET /api/search/': (agency): ValidRequest[] => [
    { query: { q: 'Levi' } },
    {
      query: {
        q: '052-123 4567',
        type: 'policies',
        date_from: '2026-01-01',
        date_to: '2026-12-31',
        company: agency.ids.company,
        status: 'active',
        amount_min: '100',
        amount_max: '5000.50',
        limit: '5',
      },
    },
  ],
  'POST /api/imports/': (agency): ValidRequest[] => [
    {
      query: { kind: 'customers', file_name: 'customers.csv' },
      file: {
        rawBody: `first_name;last_name;email\nNoa;Peretz;noa-${unique(agency.userId).replace(/\W/g, '')}@example.com\n`,
        contentType: 'text/csv',
      },
      status: 201,
    },
  ],
  'PUT /api/imports/:id/': () => [
    { body: { columns: ['first_name', 'last_name', 'email'], duplicates: 'update', all_or_nothing: false } },
  ],
  'GET /api/calendar/meetings/': () => [{ query: { start: '2026-01-01', end: '2026-01-31' } }],
  'POST /api/calendar/meetings/': meetingBodies,
  'PUT /api/calendar/meetings/:id/': meetingBodies,
  'POST /api/installments/:id/payment/': () => [
    { body: { payment_method: 'cash' } },
    {
      body: { amount: '50.00', paid_date: '2026-01-05', payment_method: 'bank_transfer', reference: 'TX-1' },
    },
  ],
  'POST /api/notifications/settings/': () => [
    { body: { notification_type: 'payment_reminder', channel: 'in_app', lead_time: 5 }, status: 201 },
  ],
  'PATCH /api/notifications/settings/:id/': () => [{ body: { lead_time: 7, channel: 'both' } }],
  'POST /api/notifications/settings/bulk_update/': () => [
    { body: { settings: [{ notification_type: 'policy_renewal', enabled: true, lead_time: 45 }] } },
  ],
  'POST /api/notifications/settings/test_notification/': () => [
    { body: { notification_type: 'meeting_reminder' }, status: 201 },
  ],
  'POST /api/notifications/dashboard/mark-all-read/': () => [{ body: {} }],
  'PUT /api/notifications/templates/:slot/': () => [
    { body: { subject: 'Payment due: {policy_number}', body: '{customer_name} owes {amount}.' } },
  ],
  'PUT /api/installments/:id/payment/': () => [
    { body: { amount_paid: '50.00', paid_date: '2026-01-05', payment_method: 'card', reference: 'TX-2' } },
  ],
  'POST /api/team/invitations/': () => [
    { body: { email: `${unique('invitee').replace(' ', '-')}@example.com`, role: 'viewer' }, status: 201 },
  ],
  // The owner's own share: every other change to the last owner is refused (409).
  'PATCH /api/team/members/:id/': () => [{ body: { commission_split_percentage: '12.50' } }],
  'PATCH /api/team/settings/': () => [{ body: { agents_see_own_book: false } }],
  'POST /api/team/reassign/': (agency) => [
    { body: { to: agency.userId, customer_ids: [agency.ids.customer] } },
    {
      body: {
        to: agency.userId,
        policy_ids: [agency.ids.policy],
        claim_ids: [agency.ids.claim],
        lead_ids: [agency.ids.lead],
      },
    },
  ],
  // A real token only comes by email; a made-up one opens nothing.
  'POST /api/team/invitations/preview/': () => [{ body: { token: 'not-a-token-we-sent' }, status: 404 }],
  'POST /api/team/invitations/accept/': () => [
    {
      body: { token: 'not-a-token-we-sent', password: PASSWORD, first_name: 'Mira', last_name: 'Katz' },
      status: 404,
    },
  ],
};

/** The operation's valid requests; none when it needs a body or query nobody described yet. */
export function validRequests(operation: Operation, agency: Agency): ValidRequest[] {
  const described = VALID_REQUESTS[operation.key];
  if (described) return described(agency);
  if (operation.body || (operation.query && !operation.query.safeParse({}).success)) return [];
  return [{}];
}

/** The path with each parameter filled in: ids from `ids`, a wildcard with a harmless name. */
export function fillPath(operation: Operation, ids: Partial<Record<IdKind, string>>): string {
  let path = operation.path;
  for (const param of operation.params) {
    const value = param.kind ? ids[param.kind] : 'probe';
    if (value === undefined) throw new Error(`no ${param.kind} id for ${operation.key}`);
    path = path.replace(param.name === '*' ? '*' : `:${param.name}`, encodeURIComponent(value));
  }
  return path;
}

export function withQuery(path: string, query: Record<string, string> | undefined): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}
