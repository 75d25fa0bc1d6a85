import { TICKET_CATEGORIES, TICKET_STATUSES } from '@coverdesk/contract';
import { boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id, timestamptz, updatedAt } from '../../db/columns.js';
import { tenants } from '../tenants/tables.js';

/**
 * The agency a support row belongs to, or none for a message from the public contact form, which
 * arrives before its sender has an account. Row-level security shows an agency its own rows only;
 * rows without an agency are seen by the platform admins alone.
 */
const supportTenantId = () => uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' });

/**
 * A conversation between an agency (or a visitor of the contact form) and the platform admins.
 * Users are platform rows the tenant role cannot read, so the requester's name and email are kept
 * as they were when the ticket was opened; `opened_by` and `assigned_to` are user ids without
 * foreign keys, as elsewhere for users. Tenant-owned.
 */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: id(),
    tenantId: supportTenantId(),
    /** The broker who opened it; null for the contact form. */
    openedBy: uuid('opened_by'),
    requesterName: text('requester_name').notNull(),
    /** Where admin replies are emailed when the ticket has no broker behind it. */
    requesterEmail: text('requester_email').notNull(),
    /** The company a contact-form visitor named. */
    company: text('company'),
    subject: text('subject').notNull(),
    category: text('category', { enum: TICKET_CATEGORIES }).notNull(),
    status: text('status', { enum: TICKET_STATUSES }).notNull().default('open'),
    /** The platform admin handling it. */
    assignedTo: uuid('assigned_to'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastReplyAt: timestamptz('last_reply_at').notNull().defaultNow(),
  },
  (t) => [
    index('support_tickets_tenant_reply_idx').on(t.tenantId, t.lastReplyAt.desc()),
    index('support_tickets_inbox_idx').on(t.status, t.lastReplyAt.desc()),
  ],
);

/** One message of a ticket's thread, from its requester or from an admin. Tenant-owned. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: id(),
    tenantId: supportTenantId(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    /** Null for the contact form's sender. */
    authorId: uuid('author_id'),
    authorName: text('author_name').notNull(),
    isStaff: boolean('is_staff').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('support_messages_ticket_idx').on(t.ticketId, t.createdAt)],
);

/**
 * A file sent with a message, at most 5 MB of an allowed type. Kept in the database like an import's
 * file: PGlite and PostgreSQL store it the same way, it is in every backup, any instance can serve
 * it, and row-level security guards it as it does the ticket. Tenant-owned.
 */
export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: id(),
    tenantId: supportTenantId(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => supportMessages.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('support_attachments_message_idx').on(t.messageId)],
);
