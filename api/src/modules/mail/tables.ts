import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.js';

/**
 * Messages that could not go out by SMTP: with no SMTP server configured (a laptop install) or when
 * the server refused them. Admins can read them, so password reset still works without SMTP.
 */
export const emailOutbox = pgTable('email_outbox', {
  id: id(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  /** `not_configured` (no SMTP_URL) or `failed` (the SMTP server refused it). */
  status: text('status', { enum: ['not_configured', 'failed'] }).notNull(),
  error: text('error'),
  createdAt: createdAt(),
});
