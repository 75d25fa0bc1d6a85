import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from '../../db/columns.js';

/**
 * The platform's own settings, one row per screen of the admin portal that sets them: `general`
 * (sign-ups, the demo, trial days), `email` (the mail server) and `paddle`. Not tenant-owned: only
 * the connecting role reads it, never a tenant transaction. Secrets inside `value` are sealed with
 * SETTINGS_ENCRYPTION_KEY (see secrets.ts), never stored in the clear.
 */
export const platformSettings = pgTable('platform_settings', {
  key: text('key', { enum: ['general', 'email', 'paddle'] }).primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
  /** The admin who saved it last. */
  updatedBy: uuid('updated_by'),
});

export type PlatformSettingsKey = (typeof platformSettings.$inferSelect)['key'];
