import type { EmailTestResult } from '@coverdesk/contract';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { SecretUnreadable } from '../platform-settings/secrets.js';
import type { PlatformSettings, SmtpSettings } from '../platform-settings/store.js';
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
  /**
   * Never throws: a message that cannot be sent is kept in the outbox and logged. True when the mail
   * server took it; false when it was kept (no mail server set up, or it refused).
   */
  send(message: EmailMessage): Promise<boolean>;
  /**
   * Sends now or throws `EmailNotSent` with the reason, for senders that keep their own record and
   * retry (reminders); nothing goes to the outbox.
   */
  deliver(message: EmailMessage): Promise<void>;
  close(): void;
}

/** The app's mailer, which also answers the admin's test send. */
export interface AppMailer extends Mailer {
  /**
   * Sends a test and returns the mail server's answer, accepted or not; never throws. Why a test
   * failed is logged in full on `log`, the request's, and answered in a plain sentence.
   */
  test(message: EmailMessage, log: FastifyBaseLogger): Promise<EmailTestResult>;
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

/** Why a test email failed, as the admin is told it. */
const TEST_FAILURES = {
  signIn: 'The mail server refused the user name or password.',
  refused: 'The mail server refused the test email.',
  timedOut: 'The mail server did not answer in time.',
  tls: 'A secure connection to the mail server could not be made: check the security setting.',
  unreachable: 'Could not connect to the mail server.',
};

/**
 * Node's codes for a TLS handshake or certificate that failed: ERR_SSL_WRONG_VERSION_NUMBER,
 * CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE…
 */
const TLS_ERROR_CODE = /^ERR_(SSL|TLS)_|CERT|^UNABLE_TO_/;

/**
 * A failed test in a plain sentence, with the SMTP reply code when a mail server gave one. The
 * transport's own error names the host, port and socket error ("connect ECONNREFUSED
 * 127.0.0.1:22") and quotes whatever answered, so with it an admin could probe which internal
 * ports are open; it goes to the log only.
 */
function testFailure(err: unknown): Pick<EmailTestResult, 'code' | 'response'> {
  const { code, originalCode, responseCode } = (err ?? {}) as Record<string, unknown>;
  const reply = typeof responseCode === 'number' ? responseCode : null;
  // Nodemailer's codes (EAUTH, ETLS…); the socket's own is kept as originalCode.
  if (code === 'EAUTH' || code === 'ENOAUTH') return { code: reply, response: TEST_FAILURES.signIn };
  if (code === 'EENVELOPE' || code === 'EMESSAGE') return { code: reply, response: TEST_FAILURES.refused };
  if (code === 'ETIMEDOUT') return { code: null, response: TEST_FAILURES.timedOut };
  if (code === 'ETLS' || (typeof originalCode === 'string' && TLS_ERROR_CODE.test(originalCode))) {
    return { code: null, response: TEST_FAILURES.tls };
  }
  return { code: null, response: TEST_FAILURES.unreachable };
}

/** A mail server saved in /admin/email-setup, as nodemailer takes it. */
function transportOptions(smtp: SmtpSettings) {
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: smtp.security === 'none',
    auth: smtp.username ? { user: smtp.username, pass: smtp.password ?? '' } : undefined,
    // A server that does not answer fails the send (and a test) in seconds, not minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

const formatSender = (smtp: SmtpSettings) =>
  smtp.fromName ? { name: smtp.fromName, address: smtp.fromEmail } : smtp.fromEmail;

interface Route {
  transport: Transporter;
  from: string | { name: string; address: string };
}

/**
 * Sends through the mail server saved in /admin/email-setup, or else SMTP_URL. The saved settings are
 * read before each message (cached briefly by PlatformSettings), so a change applies without a restart.
 */
export function createMailer(
  config: Config,
  db: Database,
  settings: PlatformSettings,
  log: FastifyBaseLogger,
): AppMailer {
  let current: { signature: string; route: Route | undefined } | undefined;

  /** The transport for the settings now in force, built again only when they change. */
  async function route(): Promise<Route | undefined> {
    const saved = await settings.smtp();
    const signature = JSON.stringify(saved ?? config.smtpUrl ?? null);
    if (current?.signature === signature) return current.route;
    current?.route?.transport.close();
    let next: Route | undefined;
    if (saved)
      next = { transport: nodemailer.createTransport(transportOptions(saved)), from: formatSender(saved) };
    else if (config.smtpUrl)
      next = { transport: nodemailer.createTransport(config.smtpUrl), from: config.mailFrom };
    current = { signature, route: next };
    return next;
  }

  /** The route, or why there is none: the saved password cannot be opened with this server's key. */
  async function routeOrReason(): Promise<{ route: Route | undefined } | { unreadable: string }> {
    try {
      return { route: await route() };
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      log.error({ err: error }, 'the saved mail server password cannot be read');
      return { unreadable: `The saved mail server password cannot be read: ${error.message}.` };
    }
  }

  async function keep(message: EmailMessage, status: 'not_configured' | 'failed', error?: string) {
    await db
      .insert(emailOutbox)
      .values({ recipient: message.to, subject: message.subject, textBody: message.text, status, error })
      .catch((err: unknown) => log.error({ err }, 'could not store email in the outbox'));
  }

  return {
    async send(message) {
      const found = await routeOrReason().catch((err: unknown) => ({ unreadable: String(err) }));
      if ('unreadable' in found) {
        await keep(message, 'failed', found.unreadable);
        return false;
      }
      if (!found.route) {
        log.info(
          { to: message.to, subject: message.subject, text: message.text },
          'email kept in outbox (no mail server set up)',
        );
        await keep(message, 'not_configured');
        return false;
      }
      try {
        await found.route.transport.sendMail({ from: found.route.from, ...message });
        log.info({ to: message.to, subject: message.subject }, 'email sent');
        return true;
      } catch (err) {
        log.error(
          { err, to: message.to, subject: message.subject },
          'email could not be sent; kept in outbox',
        );
        // Admins read the outbox: the transport's error, with its host and port, stays in the log.
        await keep(message, 'failed', refusalOf(err));
        return false;
      }
    },
    async deliver(message) {
      const found = await routeOrReason();
      if ('unreadable' in found) throw new EmailNotSent(found.unreadable);
      if (!found.route) throw new EmailNotSent('Email is not set up on this server (SMTP_URL is empty).');
      try {
        await found.route.transport.sendMail({ from: found.route.from, ...message });
      } catch (err) {
        log.warn({ err, to: message.to, subject: message.subject }, 'email not delivered');
        throw new EmailNotSent(refusalOf(err));
      }
      log.info({ to: message.to, subject: message.subject }, 'email sent');
    },
    async test(message, requestLog) {
      const found = await routeOrReason();
      const refused = (code: EmailTestResult['code'], response: string) => ({
        delivered: false,
        to: message.to,
        code,
        response,
      });
      if ('unreadable' in found) return refused(null, found.unreadable);
      if (!found.route) return refused(null, 'Email is not set up: save the mail server first.');
      try {
        const info = (await found.route.transport.sendMail({ from: found.route.from, ...message })) as {
          response?: string;
        };
        const response = info.response ?? '';
        return {
          delivered: true,
          to: message.to,
          code: Number(/^\d{3}/.exec(response)?.[0]) || null,
          response,
        };
      } catch (err) {
        requestLog.warn({ err, to: message.to }, 'test email not sent');
        const { code, response } = testFailure(err);
        return refused(code, response);
      }
    },
    close() {
      current?.route?.transport.close();
    },
  };
}
