import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    /** The agency's owner: the person who registered it. Owners see their agency's audit log. */
    isOwner: boolean('is_owner').notNull().default(false),
    /** Set while a platform admin has disabled the account: it cannot sign in or refresh a session. */
    disabledAt: timestamptz('disabled_at'),
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
