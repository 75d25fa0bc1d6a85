import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { emailOutbox } from './tables.js';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the plain text, for clients that show it. */
  html?: string;
}

/** Why `deliver` could not send a message, as its sender records it. */
export class EmailNotSent extends Error {}

export interface Mailer {
  /** Never throws: a message that cannot be sent is kept in the outbox and logged. */
  send(message: EmailMessage): Promise<void>;
  /**
   * Sends now or throws `EmailNotSent` with the reason, for senders that keep their own record and
   * retry (reminders); nothing goes to the outbox.
   */
  deliver(message: EmailMessage): Promise<void>;
  close(): void;
}

/**
 * Why an email was not sent, in words its sender may show a broker: the mail server's own answer
 * when it gave one, never the transport's error, which names hosts, ports and addresses.
 */
function refusalOf(err: unknown): string {
  const { responseCode, response } = (err ?? {}) as { responseCode?: unknown; response?: unknown };
  if (typeof responseCode !== 'number') return 'The mail server could not be reached.';
  const answer = typeof response === 'string' ? response.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  return `The mail server refused the email: ${answer || responseCode}`;
}

export function createMailer(config: Config, db: Database, log: FastifyBaseLogger): Mailer {
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;

  async function keep(message: EmailMessage, status: 'not_configured' | 'failed', error?: string) {
    await db
      .insert(emailOutbox)
      .values({ recipient: message.to, subject: message.subject, textBody: message.text, status, error })
      .catch((err: unknown) => log.error({ err }, 'could not store email in the outbox'));
  }

  return {
    async send(message) {
      if (!transport) {
        log.info(
          { to: message.to, subject: message.subject, text: message.text },
          'email kept in outbox (no SMTP_URL)',
        );
        await keep(message, 'not_configured');
        return;
      }
      try {
        await transport.sendMail({ from: config.mailFrom, ...message });
        log.info({ to: message.to, subject: message.subject }, 'email sent');
      } catch (err) {
        log.error(
          { err, to: message.to, subject: message.subject },
          'email could not be sent; kept in outbox',
        );
        await keep(message, 'failed', err instanceof Error ? err.message : String(err));
      }
    },
    async deliver(message) {
      if (!transport) throw new EmailNotSent('Email is not set up on this server (SMTP_URL is empty).');
      try {
        await transport.sendMail({ from: config.mailFrom, ...message });
      } catch (err) {
        log.warn({ err, to: message.to, subject: message.subject }, 'email not delivered');
        throw new EmailNotSent(refusalOf(err));
      }
      log.info({ to: message.to, subject: message.subject }, 'email sent');
    },
    close() {
      transport?.close();
    },
  };
}
