import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from '../../db/columns.js';

/** Messages sent from the public contact form, before anyone has an account. */
export const contactMessages = pgTable('contact_messages', {
  id: id(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  company: text('company'),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: createdAt(),
  handledAt: timestamptz('handled_at'),
});
