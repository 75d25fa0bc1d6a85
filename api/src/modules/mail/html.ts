import type { EmailMessage } from './mailer.js';

// The HTML parts of Coverdesk's emails: escaped values, one layout for every email that leads to a link.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

/**
 * An email's HTML part: a heading, paragraphs (already HTML, their values escaped), a button to
 * `link` and a footer, in a single table with inline styles, which the common email clients all lay
 * out alike.
 */
export function emailHtml(email: {
  subject: string;
  heading: string;
  paragraphs: string;
  link: { url: string; label: string };
  footer: string;
}) {
  const { subject, heading, paragraphs, link, footer } = email;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="margin:0;padding:0;background:#f4f5f7"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#1f2933"><tr><td style="padding:24px 28px 8px;font-size:18px;font-weight:bold;color:#364fc7">${escapeHtml(heading)}</td></tr><tr><td style="padding:8px 28px 8px">${paragraphs}</td></tr><tr><td style="padding:0 28px 28px"><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#364fc7;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:bold">${escapeHtml(link.label)}</a></td></tr></table><p style="font-family:Arial,Helvetica,sans-serif;font-size:12px;color:#52606d">${escapeHtml(footer)}</p></td></tr></table></body></html>`;
}

/** One paragraph of an email's HTML part, from HTML whose line breaks are kept. */
export const paragraphHtml = (html: string) =>
  `<p style="margin:0 0 16px;line-height:1.5">${html.replace(/\n/g, '<br>')}</p>`;

/**
 * An email that leads to one link, as plain text and HTML alike: the paragraphs, then the link, in
 * the text part as its address and in the HTML part as a button.
 */
export function linkEmail(email: {
  to: string;
  subject: string;
  paragraphs: string[];
  link: { url: string; label: string };
  after: string[];
}) {
  const { to, subject, paragraphs, link, after } = email;
  const text = [...paragraphs, `${link.label}: ${link.url}`, ...after, 'Coverdesk'].join('\n\n');
  const html = emailHtml({
    subject,
    heading: 'Coverdesk',
    paragraphs: paragraphs.map((paragraph) => paragraphHtml(escapeHtml(paragraph))).join(''),
    link,
    footer: after.join(' '),
  });
  return { to, subject, text, html } satisfies EmailMessage;
}
