import { z } from 'zod';
import { REQUIRED, requiredText, text, uuid } from './fields.js';
import { paged, pageQuery } from './pagination.js';

/** What a ticket is about; the admins sort their inbox by it. */
export const TICKET_CATEGORIES = ['billing', 'technical', 'account', 'feature_request', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  billing: 'Billing',
  technical: 'Technical problem',
  account: 'Account',
  feature_request: 'Feature request',
  other: 'Other',
};

/**
 * open: waiting on Coverdesk; pending: answered, waiting on the broker; resolved: done (a broker's
 * reply opens it again).
 */
export const TICKET_STATUSES = ['open', 'pending', 'resolved'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  open: 'Open',
  pending: 'Waiting on you',
  resolved: 'Resolved',
};

/** An attachment's limits, checked by the server and told to the broker beside the file field. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const ATTACHMENT_TYPES = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'text/csv': '.csv',
} as const;
export type AttachmentType = keyof typeof ATTACHMENT_TYPES;
export const ATTACHMENT_HINT = 'PNG, JPEG, PDF, TXT or CSV, up to 5 MB.';

const messageText = text({ error: REQUIRED })
  .trim()
  .min(1, 'Write a message.')
  .max(10_000, 'Ensure this field has no more than 10000 characters.');

/** The text fields of a new ticket, sent as multipart/form-data beside an optional `attachment`. */
export const ticketBody = z.object({
  subject: requiredText(200),
  category: z.enum(TICKET_CATEGORIES, { error: 'Choose a category.' }),
  message: messageText,
});
export type TicketBody = z.infer<typeof ticketBody>;

/** A reply, sent as multipart/form-data beside an optional `attachment`. */
export const ticketReplyBody = z.object({ message: messageText });

export const ticketAttachment = z.object({
  id: uuid,
  file_name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});
export type TicketAttachment = z.infer<typeof ticketAttachment>;

export const ticketMessage = z.object({
  id: uuid,
  author_name: z.string(),
  is_staff: z.boolean(),
  body: z.string(),
  created_at: z.string(),
  attachments: z.array(ticketAttachment),
});
export type TicketMessage = z.infer<typeof ticketMessage>;

/** A ticket as its agency sees it. */
export const ticketSummary = z.object({
  id: uuid,
  subject: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  status: z.enum(TICKET_STATUSES),
  opened_by_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  last_reply_at: z.string(),
});
export type TicketSummary = z.infer<typeof ticketSummary>;
export const ticketPage = paged(ticketSummary);

export const ticketDetail = ticketSummary.extend({ messages: z.array(ticketMessage) });
export type TicketDetail = z.infer<typeof ticketDetail>;

export const ticketListQuery = pageQuery.extend({ status: z.enum(TICKET_STATUSES).optional() });
export type TicketListQuery = z.infer<typeof ticketListQuery>;

export const ticketAttachmentParams = z.object({ id: uuid, attachmentId: uuid });

/**
 * A ticket in the admins' inbox: an agency's, or a message from the public contact form (no agency;
 * answered by email to `requester_email`).
 */
export const adminTicketSummary = ticketSummary.extend({
  tenant_id: uuid.nullable(),
  agency_name: z.string().nullable(),
  requester_email: z.string(),
  company: z.string().nullable(),
  from_contact_form: z.boolean(),
  assigned_to: uuid.nullable(),
  assigned_to_name: z.string().nullable(),
});
export type AdminTicketSummary = z.infer<typeof adminTicketSummary>;
export const adminTicketPage = paged(adminTicketSummary);

export const adminTicketDetail = adminTicketSummary.extend({ messages: z.array(ticketMessage) });
export type AdminTicketDetail = z.infer<typeof adminTicketDetail>;

/** `assignee`: an admin's id, `me`, or `none` for tickets nobody has taken. */
export const adminTicketListQuery = ticketListQuery.extend({
  assignee: z.union([uuid, z.literal('me'), z.literal('none')]).optional(),
});
export type AdminTicketListQuery = z.infer<typeof adminTicketListQuery>;

/** `null` takes the ticket off everyone's desk. */
export const ticketAssignBody = z.object({
  assigned_to: z.union([uuid, z.null()], { error: 'Choose an admin.' }),
});

export const supportAdmin = z.object({ id: uuid, name: z.string(), email: z.string() });
export type SupportAdmin = z.infer<typeof supportAdmin>;
export const supportAdminList = z.object({ results: z.array(supportAdmin) });
