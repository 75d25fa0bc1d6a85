import {
  DELIVERY_CHANNELS,
  type DeliveryChannel,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
  type NotificationTemplate,
  type NotificationType,
  PLACEHOLDER_PATTERN,
  TEMPLATE_PLACEHOLDERS,
  type TemplatePlaceholder,
} from '@coverdesk/contract';
import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { emailHtml, escapeHtml, paragraphHtml } from '../mail/html.js';
import { notificationTemplates } from './tables.js';

export interface TemplateText {
  subject: string;
  body: string;
}

/** What a reminder says about its subject, to fill a template with. */
export type TemplateValues = Partial<Record<TemplatePlaceholder, string>>;

// The bell routes by a title's words: "payment" opens the payments, "policy" the policy; a meeting's
// title names neither, so it opens the dashboard and its agenda. The bell shows two lines of a
// message, so the in-app wording puts what is due and when first.
const DEFAULTS: Record<NotificationType, Record<DeliveryChannel, TemplateText>> = {
  payment_reminder: {
    in_app: {
      subject: '{heading}: {policy_number}',
      body: '{amount} due {due_date} — {due_status} · {customer_name} · {policy_number} · {insurer}',
    },
    email: {
      subject: '{heading}: {customer_name}, policy {policy_number}',
      body: "Hello,\n\n{customer_name}'s instalment of {amount} on policy {policy_number} with {insurer}, due on {due_date}, is {due_status}.\n\nOnce the payment is recorded in Coverdesk, reminders of it stop.\n\n{agency_name}",
    },
  },
  policy_renewal: {
    in_app: {
      subject: '{heading}: {policy_number}',
      body: 'Ends {due_date} — {due_status} · {customer_name} · {insurer} · premium {amount}',
    },
    email: {
      subject: '{heading}: {customer_name}, policy {policy_number}',
      body: "Hello,\n\n{customer_name}'s policy {policy_number} with {insurer} ends on {due_date}, {due_status}. This term's premium is {amount}.\n\nRenew it in Coverdesk, or mark it as not renewing, and reminders of it stop.\n\n{agency_name}",
    },
  },
  meeting_reminder: {
    in_app: {
      subject: 'Meeting at {starts_at}',
      body: '{meeting_title} starts {due_status}, at {starts_at}.',
    },
    email: {
      subject: 'Meeting at {starts_at}: {meeting_title}',
      body: 'Hello,\n\n{meeting_title} starts {due_status}, at {starts_at}.\n\n{agency_name}',
    },
  },
};

export const templateSlot = (type: NotificationType, channel: DeliveryChannel) => `${type}.${channel}`;

/** Coverdesk's wording, or the agency's own where it wrote one: every slot, in a stable order. */
export async function listTemplates(tx: Transaction, tenantId: string): Promise<NotificationTemplate[]> {
  const custom = await tx
    .select()
    .from(notificationTemplates)
    .where(eq(notificationTemplates.tenantId, tenantId));
  return NOTIFICATION_TYPES.flatMap((type) =>
    DELIVERY_CHANNELS.map((channel) => {
      const own = custom.find((row) => row.notificationType === type && row.channel === channel);
      const text = own ?? DEFAULTS[type][channel];
      return {
        id: templateSlot(type, channel),
        notification_type: type,
        notification_type_display: NOTIFICATION_TYPE_LABELS[type],
        channel,
        subject: text.subject,
        body: text.body,
        is_custom: own !== undefined,
        placeholders: [...TEMPLATE_PLACEHOLDERS],
      };
    }),
  );
}

/** The slot a template id names, or undefined for an id that names none. */
export function parseTemplateSlot(id: string) {
  const [type, channel] = id.split('.') as [NotificationType, DeliveryChannel];
  if (!NOTIFICATION_TYPES.includes(type) || !DELIVERY_CHANNELS.includes(channel)) return undefined;
  return { type, channel };
}

/** Writes or replaces the agency's wording for a slot. */
export async function saveTemplate(
  tx: Transaction,
  tenantId: string,
  slot: { type: NotificationType; channel: DeliveryChannel },
  text: TemplateText,
): Promise<void> {
  await tx
    .insert(notificationTemplates)
    .values({ tenantId, notificationType: slot.type, channel: slot.channel, ...text })
    .onConflictDoUpdate({
      target: [
        notificationTemplates.tenantId,
        notificationTemplates.notificationType,
        notificationTemplates.channel,
      ],
      set: { ...text, updatedAt: new Date() },
    });
}

/** Back to Coverdesk's wording for a slot. */
export async function resetTemplate(
  tx: Transaction,
  tenantId: string,
  slot: { type: NotificationType; channel: DeliveryChannel },
): Promise<void> {
  await tx
    .delete(notificationTemplates)
    .where(
      and(
        eq(notificationTemplates.tenantId, tenantId),
        eq(notificationTemplates.notificationType, slot.type),
        eq(notificationTemplates.channel, slot.channel),
      ),
    );
}

/**
 * Fills the placeholders in one pass, so a value that itself reads "{amount}" stays as it is; a
 * placeholder without a value is left for the reader to see.
 */
const fill = (text: string, values: TemplateValues, write: (value: string) => string = (value) => value) =>
  text.replace(PLACEHOLDER_PATTERN, (whole, name: string) => {
    // Own keys only: "{constructor}" must not find Object.prototype's.
    const value = Object.hasOwn(values, name) ? values[name as TemplatePlaceholder] : undefined;
    return value === undefined ? write(whole) : write(value);
  });

export interface RenderedMessage {
  subject: string;
  /** The body alone, as the bell shows it. */
  body: string;
  /** The email's plain-text part: the body and the link. */
  text: string;
  html: string;
}

/**
 * A template written out for one reminder: the subject and plain text as they are, and an HTML part
 * in which the template's own words and every value are escaped, so neither a customer's name nor an
 * agency's wording can put markup in an email. The HTML is a single table with inline styles, which
 * the common email clients all lay out alike.
 */
export function renderTemplate(
  template: TemplateText,
  values: TemplateValues,
  link: { url: string; label: string },
): RenderedMessage {
  const subject = fill(template.subject, values).replace(/[\r\n]+/g, ' ');
  const body = fill(template.body, values);
  const text = `${body}\n\n${link.label}: ${link.url}\n`;
  const paragraphs = template.body
    .split(/\n{2,}/)
    .map((paragraph) => paragraphHtml(fill(escapeHtml(paragraph), values, escapeHtml)))
    .join('');
  const html = emailHtml({
    subject,
    heading: values.agency_name ?? 'Coverdesk',
    paragraphs,
    link,
    footer: 'Sent by Coverdesk. Choose which reminders you get under Notification Settings.',
  });
  return { subject, body, text, html };
}
