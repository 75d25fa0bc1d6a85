import { z } from 'zod';
import { boundedText, isoDate, uuid } from './fields.js';
import { paged, pageQuery } from './pagination.js';

/** The agency records whose every create, update and delete the audit log keeps. */
export const AUDITED_ENTITIES = [
  'customer',
  'policy',
  'payment',
  'company',
  'lead',
  'claim',
  'subscription',
  'document',
] as const;
export type AuditedEntity = (typeof AUDITED_ENTITIES)[number];

/** Everything the log names as an entity: the agency's records, and the accounts signing in. */
export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  customer: 'Customer',
  policy: 'Policy',
  payment: 'Payment',
  company: 'Company',
  lead: 'Lead',
  claim: 'Claim',
  subscription: 'Subscription',
  document: 'Document',
  commission_statement: 'Commission statement',
  user: 'Account',
};

/**
 * The actions the log holds: a broker's own work, then what platform admins do. The log keeps any
 * name, and a name without a label reads as its words ("trial_extended" as "Trial extended").
 */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  sign_out: 'Signed out',
  refresh_token_reused: 'Sign-in ended: a used token came back',
  password_changed: 'Password changed',
  password_reset: 'Password reset',
  profile_changed: 'Profile changed',
  mfa_enabled: 'Two-step sign-in turned on',
  mfa_disabled: 'Two-step sign-in turned off',
  mfa_recovery_codes_renewed: 'New recovery codes',
  mfa_reset: 'Two-step sign-in reset by an admin',
  session_ended: 'Session ended',
  member_invited: 'Member invited',
  invitation_withdrawn: 'Invitation withdrawn',
  invitation_link_renewed: 'Invitation link renewed',
  invitation_accepted: 'Joined the agency',
  member_changed: 'Member changed',
  member_deactivated: 'Member deactivated',
  member_reactivated: 'Member reactivated',
  team_settings_changed: 'Team settings changed',
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  import: 'Imported',
  statement_uploaded: 'Statement uploaded',
  statement_accepted: 'Statement accepted',
  statement_matches_confirmed: 'Statement matches confirmed',
  statement_reopened: 'Statement reopened',
  statement_deleted: 'Statement deleted',
  statement_total_corrected: 'Statement total corrected',
  statement_line_resolved: 'Statement line resolved',
  statement_line_unresolved: 'Statement line resolution taken back',
  subscription_upgraded: 'Plan bought',
  plan_changed: 'Plan changed',
  plan_change_withdrawn: 'Plan change withdrawn',
  subscription_cancelled: 'Subscription cancelled',
  subscription_paused: 'Subscription paused',
  subscription_reactivated: 'Subscription reactivated',
  trial_extended: 'Trial extended',
  period_comped: 'Free period given',
  subscription_changed: 'Subscription changed by an admin',
  user_disabled: 'Account disabled',
  user_enabled: 'Account enabled',
  sessions_ended: 'Signed out everywhere',
  password_reset_sent: 'Password reset sent',
  admin_granted: 'Made a platform admin',
  admin_revoked: 'Platform admin removed',
  ticket_assigned: 'Ticket assigned',
  ticket_answered: 'Ticket answered',
  ticket_resolved: 'Ticket resolved',
  ticket_reopened: 'Ticket reopened',
  cache_cleared: 'Cache cleared',
  platform_settings_changed: 'Platform settings changed',
};

/** "trial_extended" reads "Trial extended" when no label names it. */
export const auditActionLabel = (action: string) =>
  AUDIT_ACTION_LABELS[action] ?? (action.charAt(0).toUpperCase() + action.slice(1)).replaceAll('_', ' ');

export const auditEntityLabel = (entity: string) => AUDIT_ENTITY_LABELS[entity] ?? entity;

const fieldChange = z.object({ before: z.unknown(), after: z.unknown() });

/** One row of the log: who did what to which record, from where, and what changed. */
export const auditEntry = z.object({
  id: z.string(),
  occurred_at: z.string(),
  user_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  entity: z.string().nullable(),
  entity_id: z.string().nullable(),
  /** Each changed field with its value before and after; null before means created, null after deleted. */
  changes: z.record(z.string(), fieldChange).nullable(),
  reason: z.string().nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditPage = paged(auditEntry);

/** A row of the whole platform's log: which agency it belongs to (none for an unknown email). */
export const adminAuditEntry = auditEntry.extend({
  tenant_id: z.string().nullable(),
  tenant_name: z.string().nullable(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntry>;
export const adminAuditPage = paged(adminAuditEntry);

const auditFilters = {
  action: boundedText(60).optional(),
  entity: boundedText(60).optional(),
  /** From this day, and to this day inclusive, in UTC. */
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
};

/** An agency's log, newest first: filtered by action, entity, one of its users and days. */
export const auditListQuery = pageQuery.omit({ search: true }).extend({
  ...auditFilters,
  user: uuid.optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

/** The platform's log: also by agency, and by a user's id or part of the email acted with. */
export const adminAuditListQuery = pageQuery.omit({ search: true }).extend({
  ...auditFilters,
  tenant: uuid.optional(),
  user: boundedText(254).optional(),
});
export type AdminAuditListQuery = z.infer<typeof adminAuditListQuery>;

/** The agency's users, for the owner's filter by user. */
export const auditUserList = z.object({
  results: z.array(z.object({ id: z.string(), email: z.string(), name: z.string() })),
});

/** Agencies whose name contains `search`, for the admin's filter by agency. */
export const auditAgencyQuery = z.object({ search: boundedText(100).optional() });
export const auditAgencyList = z.object({
  results: z.array(z.object({ id: z.string(), name: z.string() })),
});
