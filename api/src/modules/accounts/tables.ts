import { TEAM_ROLES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from '../../db/columns.js';
import { tenants } from '../tenants/tables.js';

/**
 * Users are platform identity: sign-in looks them up by email before any tenant is known, so this
 * table is read outside tenant scope by the accounts module only.
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Stored lower-cased; the unique index makes the rule explicit. */
    email: text('email').notNull(),
    /** Null for accounts that cannot sign in with a password (the demo user). */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    isAdmin: boolean('is_admin').notNull().default(false),
    isDemoUser: boolean('is_demo_user').notNull().default(false),
    /** What the member may do in their agency (`docs/permissions.md`); the registrant is its owner. */
    role: text('role', { enum: TEAM_ROLES }).notNull().default('agent'),
    /** Set while a platform admin has disabled the account: it cannot sign in or refresh a session. */
    disabledAt: timestamptz('disabled_at'),
    /**
     * Set while the agency has deactivated the member: they cannot sign in either. Apart from
     * `disabled_at`, so an agency cannot lift a platform admin's block, nor an admin an agency's.
     */
    deactivatedAt: timestamptz('deactivated_at'),
    /** The member's default share, in percent, of the agency's commission on what they produce. */
    commissionSplitPercentage: numeric('commission_split_percentage', { precision: 5, scale: 2 })
      .notNull()
      .default('0'),
    dateJoined: timestamptz('date_joined').notNull().defaultNow(),
    lastLogin: timestamptz('last_login'),
    /** The TOTP secret (base32) of two-step sign-in; null while it is off. */
    mfaSecret: text('mfa_secret'),
    /** A secret shown for setting two-step sign-in up, kept until a right code confirms it. */
    mfaPendingSecret: text('mfa_pending_secret'),
    mfaEnabledAt: timestamptz('mfa_enabled_at'),
    /** The last 30-second step a code was accepted for: a code is good once (no replay). */
    mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_tenant_idx').on(t.tenantId),
    // What tenant rows' assignees refer to, so an assignee is always of the row's own agency.
    unique('users_tenant_id_id_key').on(t.tenantId, t.id),
  ],
);

/** Opaque refresh tokens, stored as SHA-256 hashes; one family per sign-in, rotated on every use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    revokedAt: timestamptz('revoked_at'),
    /** The sign-in came through both steps (password and code): the admin portal asks for it. */
    twoStep: boolean('two_step').notNull().default(false),
    /** Where and with what the token was handed out, for the user's list of sessions. */
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /**
     * The session's latest request, written at most every few minutes (session-activity.ts); a
     * refresh's own new token says it by its `createdAt`.
     */
    lastActiveAt: timestamptz('last_active_at'),
  },
  (t) => [
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    // Every instance reads the sign-ins revoked in the last minute, every second.
    index('refresh_tokens_revoked_idx').on(t.revokedAt).where(sql`revoked_at is not null`),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Two-step sign-in's recovery codes: ten per setup, each good once, stored as SHA-256 hashes. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
);

/**
 * A sign-in half done: the password was right and the code is awaited. Its token (stored hashed) is
 * good for five minutes and five tries.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('mfa_challenges_user_idx').on(t.userId)],
);

/**
 * An invitation to join an agency, sent by email: its token (stored hashed) is good for seven days
 * and one use. Read by token before any tenant is known, so it is a platform table.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    role: text('role', { enum: TEAM_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    acceptedAt: timestamptz('accepted_at'),
    /** The mail server took the invitation email; false until it does, or for good when it did not. */
    emailSent: boolean('email_sent').notNull().default(true),
  },
  (t) => [
    index('team_invitations_tenant_idx').on(t.tenantId),
    // One open invitation per address and agency: inviting again sends a new link instead.
    uniqueIndex('team_invitations_open_unique')
      .on(t.tenantId, sql`lower(${t.email})`)
      .where(sql`accepted_at is null`),
  ],
);
