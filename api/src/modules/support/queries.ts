import type {
  AdminTicketListQuery,
  AdminTicketSummary,
  TicketBody,
  TicketDetail,
  TicketListQuery,
  TicketMessage,
  TicketStatus,
  TicketSummary,
} from '@coverdesk/contract';
import { and, asc, desc, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.js';
import { containing, countRows, literalLimit, one } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { displayName } from '../accounts/queries.js';
import { users } from '../accounts/tables.js';
import { tenants } from '../tenants/tables.js';
import { supportAttachments, supportMessages, supportTickets } from './tables.js';
import type { Upload } from './upload.js';

/** What moves a ticket from one status to the next. */
export type TicketEvent = 'staff_reply' | 'requester_reply' | 'resolve' | 'reopen';

/**
 * An admin's answer leaves the ticket waiting on its requester; the requester's reply, even on a
 * resolved ticket, puts it back before the admins; resolving closes it and reopening opens it.
 */
export function statusAfter(event: TicketEvent): TicketStatus {
  switch (event) {
    case 'staff_reply':
      return 'pending';
    case 'resolve':
      return 'resolved';
    case 'requester_reply':
    case 'reopen':
      return 'open';
  }
}

/** Who writes a message: a broker, an admin, or the contact form's visitor (no user id). */
export interface Author {
  id: string | null;
  name: string;
  isStaff: boolean;
}

/**
 * Adds a message, and its attachment, to a ticket and moves the ticket on as `event` says. The
 * executor is the agency's transaction for a broker, the connecting role for an admin.
 */
export async function addMessage(
  executor: Executor,
  ticket: { id: string; tenantId: string | null },
  author: Author,
  body: string,
  attachment: Upload | null,
  event: TicketEvent,
): Promise<void> {
  const now = new Date();
  const message = one(
    await executor
      .insert(supportMessages)
      .values({
        tenantId: ticket.tenantId,
        ticketId: ticket.id,
        authorId: author.id,
        authorName: author.name,
        isStaff: author.isStaff,
        body,
        createdAt: now,
      })
      .returning({ id: supportMessages.id }),
  );
  if (attachment) {
    await executor.insert(supportAttachments).values({
      tenantId: ticket.tenantId,
      messageId: message.id,
      fileName: attachment.fileName,
      contentType: attachment.contentType,
      size: attachment.content.length,
      content: attachment.content,
    });
  }
  await executor
    .update(supportTickets)
    .set({ status: statusAfter(event), lastReplyAt: now, updatedAt: now })
    .where(eq(supportTickets.id, ticket.id));
}

/** Opens a ticket with its first message; `requester` is who admins answer by email. */
export async function openTicket(
  executor: Executor,
  values: {
    tenantId: string | null;
    openedBy: string | null;
    requesterName: string;
    requesterEmail: string;
    company?: string | null;
  } & TicketBody,
  attachment: Upload | null,
): Promise<string> {
  const { message, ...ticket } = values;
  const { id } = one(
    await executor.insert(supportTickets).values(ticket).returning({ id: supportTickets.id }),
  );
  await addMessage(
    executor,
    { id, tenantId: values.tenantId },
    { id: values.openedBy, name: values.requesterName, isStaff: false },
    message,
    attachment,
    'requester_reply',
  );
  return id;
}

/** Sets a ticket's status by an admin's hand (resolve, reopen). */
export async function setTicketStatus(executor: Executor, id: string, event: TicketEvent): Promise<void> {
  await executor
    .update(supportTickets)
    .set({ status: statusAfter(event), updatedAt: new Date() })
    .where(eq(supportTickets.id, id));
}

export async function assignTicket(executor: Executor, id: string, adminId: string | null): Promise<void> {
  await executor
    .update(supportTickets)
    .set({ assignedTo: adminId, updatedAt: new Date() })
    .where(eq(supportTickets.id, id));
}

const summaryColumns = {
  id: supportTickets.id,
  subject: supportTickets.subject,
  category: supportTickets.category,
  status: supportTickets.status,
  opened_by_name: supportTickets.requesterName,
  createdAt: supportTickets.createdAt,
  updatedAt: supportTickets.updatedAt,
  lastReplyAt: supportTickets.lastReplyAt,
};

type SummaryRow = { createdAt: Date; updatedAt: Date; lastReplyAt: Date } & Omit<
  TicketSummary,
  'created_at' | 'updated_at' | 'last_reply_at'
>;

function toSummary<Row extends SummaryRow>({ createdAt, updatedAt, lastReplyAt, ...rest }: Row) {
  return {
    ...rest,
    created_at: createdAt.toISOString(),
    updated_at: updatedAt.toISOString(),
    last_reply_at: lastReplyAt.toISOString(),
  };
}

/** The agency's tickets, the most recently active first. */
export async function listAgencyTickets(
  executor: Executor,
  tenantId: string,
  query: TicketListQuery,
): Promise<{ count: number; results: TicketSummary[] }> {
  const where = and(
    eq(supportTickets.tenantId, tenantId),
    query.status ? eq(supportTickets.status, query.status) : undefined,
    query.search ? ilike(supportTickets.subject, containing(query.search)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    executor
      .select(summaryColumns)
      .from(supportTickets)
      .where(where)
      .orderBy(desc(supportTickets.lastReplyAt), desc(supportTickets.id))
      .limit(literalLimit(query.page_size))
      .offset(offsetOf(query)),
    executor.select({ count: countRows() }).from(supportTickets).where(where),
  ]);
  return { count: total?.count ?? 0, results: rows.map(toSummary) };
}

/** A ticket's messages, oldest first, each with its attachments' names and sizes (not their bytes). */
async function readThread(executor: Executor, ticketId: string): Promise<TicketMessage[]> {
  const messages = await executor
    .select()
    .from(supportMessages)
    .where(eq(supportMessages.ticketId, ticketId))
    .orderBy(asc(supportMessages.createdAt), asc(supportMessages.id));
  const files =
    messages.length === 0
      ? []
      : await executor
          .select({
            id: supportAttachments.id,
            messageId: supportAttachments.messageId,
            file_name: supportAttachments.fileName,
            content_type: supportAttachments.contentType,
            size: supportAttachments.size,
          })
          .from(supportAttachments)
          .where(
            inArray(
              supportAttachments.messageId,
              messages.map((message) => message.id),
            ),
          )
          .orderBy(asc(supportAttachments.createdAt));
  return messages.map((message) => ({
    id: message.id,
    author_name: message.authorName,
    is_staff: message.isStaff,
    body: message.body,
    created_at: message.createdAt.toISOString(),
    attachments: files
      .filter((file) => file.messageId === message.id)
      .map(({ messageId: _, ...file }) => file),
  }));
}

/** One of the agency's tickets with its thread; undefined for another agency's or none. */
export async function findAgencyTicket(
  executor: Executor,
  tenantId: string,
  id: string,
): Promise<TicketDetail | undefined> {
  const [row] = await executor
    .select(summaryColumns)
    .from(supportTickets)
    .where(and(eq(supportTickets.tenantId, tenantId), eq(supportTickets.id, id)));
  return row && { ...toSummary(row), messages: await readThread(executor, id) };
}

/**
 * An attachment of a ticket: found only through the ticket it belongs to, so a caller who may read
 * the ticket may download it and nobody else. `tenantId` null reads any ticket (admins).
 */
export async function findAttachment(
  executor: Executor,
  tenantId: string | null,
  ticketId: string,
  attachmentId: string,
) {
  const [row] = await executor
    .select({
      fileName: supportAttachments.fileName,
      contentType: supportAttachments.contentType,
      content: supportAttachments.content,
    })
    .from(supportAttachments)
    .innerJoin(supportMessages, eq(supportMessages.id, supportAttachments.messageId))
    .innerJoin(supportTickets, eq(supportTickets.id, supportMessages.ticketId))
    .where(
      and(
        eq(supportAttachments.id, attachmentId),
        eq(supportTickets.id, ticketId),
        tenantId === null ? undefined : eq(supportTickets.tenantId, tenantId),
      ),
    );
  return row;
}

const assignee = alias(users, 'assignee');
const opener = alias(users, 'opener');

const inboxColumns = {
  ...summaryColumns,
  tenant_id: supportTickets.tenantId,
  agency_name: tenants.name,
  // The broker's address as it is now; the one given when the ticket was opened otherwise.
  requester_email: sql<string>`coalesce(${opener.email}, ${supportTickets.requesterEmail})`,
  company: supportTickets.company,
  assigned_to: supportTickets.assignedTo,
  assigneeFirstName: assignee.firstName,
  assigneeLastName: assignee.lastName,
  assigneeEmail: assignee.email,
};

const inboxFrom = (executor: Executor) =>
  executor
    .select(inboxColumns)
    .from(supportTickets)
    .leftJoin(tenants, eq(tenants.id, supportTickets.tenantId))
    .leftJoin(assignee, eq(assignee.id, supportTickets.assignedTo))
    .leftJoin(opener, eq(opener.id, supportTickets.openedBy));

function toInboxSummary({
  assigneeFirstName,
  assigneeLastName,
  assigneeEmail,
  ...row
}: Awaited<ReturnType<typeof inboxFrom>>[number]): AdminTicketSummary {
  return {
    ...toSummary(row),
    from_contact_form: row.tenant_id === null,
    assigned_to_name:
      assigneeEmail === null
        ? null
        : displayName({
            firstName: assigneeFirstName ?? '',
            lastName: assigneeLastName ?? '',
            email: assigneeEmail,
          }),
  };
}

/**
 * The admins' inbox across every agency and the contact form, the most recently active first.
 * `search` matches the subject, the requester's name and email, and the agency's name.
 */
export async function listInbox(
  db: Database,
  query: AdminTicketListQuery,
  adminId: string,
): Promise<{ count: number; results: AdminTicketSummary[] }> {
  const conditions: (SQL | undefined)[] = [
    query.status ? eq(supportTickets.status, query.status) : undefined,
  ];
  if (query.assignee === 'none') conditions.push(isNull(supportTickets.assignedTo));
  else if (query.assignee) {
    conditions.push(eq(supportTickets.assignedTo, query.assignee === 'me' ? adminId : query.assignee));
  }
  if (query.search) {
    const pattern = containing(query.search);
    conditions.push(
      or(
        ilike(supportTickets.subject, pattern),
        ilike(supportTickets.requesterName, pattern),
        ilike(supportTickets.requesterEmail, pattern),
        ilike(tenants.name, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    inboxFrom(db)
      .where(where)
      .orderBy(desc(supportTickets.lastReplyAt), desc(supportTickets.id))
      .limit(literalLimit(query.page_size))
      .offset(offsetOf(query)),
    db
      .select({ count: countRows() })
      .from(supportTickets)
      .leftJoin(tenants, eq(tenants.id, supportTickets.tenantId))
      .where(where),
  ]);
  return { count: total?.count ?? 0, results: rows.map(toInboxSummary) };
}

/** One ticket of the inbox with its thread. */
export async function findInboxTicket(db: Database, id: string) {
  const [row] = await inboxFrom(db).where(eq(supportTickets.id, id));
  return row && { ...toInboxSummary(row), messages: await readThread(db, id) };
}

/** Tickets not yet resolved across the whole platform: the admin dashboard's figure. */
export async function countOpenTickets(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: countRows() })
    .from(supportTickets)
    .where(ne(supportTickets.status, 'resolved'));
  return row?.count ?? 0;
}

/** The platform admins a ticket may be assigned to. */
export async function listSupportAdmins(db: Database) {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.isAdmin, true), isNull(users.disabledAt)))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email));
  return rows.map((row) => ({ id: row.id, name: displayName(row), email: row.email }));
}
