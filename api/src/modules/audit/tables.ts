import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, timestamptz } from '../../db/columns.js';

/** A changed field: what it held before and what it holds now (null where it did not exist). */
export type FieldChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * Who did what, where and when: sign-ins, account changes, every change to an agency's records and
 * every admin action. Only ever added to: the app role may read and add rows, and a trigger refuses
 * any update or delete whoever asks (see the audit-log migration). No foreign keys, so the record of
 * an agency or user outlives them.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    /** The agency the action belongs to; null for a failed sign-in with an unknown email. */
    tenantId: uuid('tenant_id'),
    /** Who acted; null when nobody was signed in (a failed sign-in, a contact form). */
    userId: uuid('user_id'),
    /** The actor's email as it was then. */
    actorEmail: text('actor_email'),
    /** "sign_in", "sign_in_failed", "sign_out", "password_changed", "profile_changed", "create", "update", "delete", or an admin action such as "trial_extended". */
    action: text('action').notNull(),
    /** "customer", "policy", "payment", "company", "lead", "claim", "subscription", "user", "ticket"… */
    entity: text('entity'),
    entityId: text('entity_id'),
    changes: jsonb('changes').$type<FieldChanges>(),
    /** Why, where the action asks for a reason (every admin action on an agency does). */
    reason: text('reason'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_log_tenant_time_idx').on(t.tenantId, t.occurredAt.desc()),
    index('audit_log_time_idx').on(t.occurredAt.desc()),
    index('audit_log_user_time_idx').on(t.userId, t.occurredAt.desc()).where(sql`user_id is not null`),
  ],
);
