import { escapeHtml } from '../mail/html.js';
import type { EmailMessage } from '../mail/mailer.js';

const paragraphsOf = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');

/**
 * The email telling a requester that an admin answered: the answer itself, and for a broker the
 * link to the ticket, where they reply. A contact-form visitor has no account, so they answer the
 * email instead. Everything the admin or requester wrote is escaped in the HTML part.
 */
export function staffReplyEmail(
  to: string,
  ticket: { id: string; subject: string; fromContactForm: boolean },
  reply: { authorName: string; body: string },
  appUrl: string,
): EmailMessage {
  const link = `${appUrl}/support/${ticket.id}`;
  const next = ticket.fromContactForm
    ? 'To add something, answer this email.'
    : `Read the conversation and reply: ${link}`;
  const nextHtml = ticket.fromContactForm
    ? `<p>${escapeHtml(next)}</p>`
    : `<p><a href="${escapeHtml(link)}">Read the conversation and reply</a></p>`;
  const intro = `${reply.authorName} of Coverdesk support answered "${ticket.subject}":`;
  return {
    to,
    subject: `Re: ${ticket.subject}`,
    text: `${intro}\n\n${reply.body}\n\n${next}\n`,
    html: `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(`Re: ${ticket.subject}`)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#1f2933"><p>${escapeHtml(intro)}</p><blockquote style="margin:12px 0;padding:0 12px;border-left:3px solid #364fc7">${paragraphsOf(reply.body)}</blockquote>${nextHtml}</body></html>`,
  };
}
