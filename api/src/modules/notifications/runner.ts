import type { NotificationType } from '@coverdesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Transaction } from '../../db/client.js';
import { asConnectingRole, withTenant } from '../../db/tenant.js';
import { inTransaction, JobQueue } from '../../jobs/queue.js';
import { findModuleAccess } from '../billing/queries.js';
import { EmailNotSent, type Mailer } from '../mail/mailer.js';
import { agencyUsers, tenants } from '../tenants/tables.js';
import { settingsOf } from './queries.js';
import {
  type Agency,
  CANCELLED_BECAUSE,
  causeRemains,
  deliveryOf,
  type EmailToSend,
  meetingReminders,
  paymentReminders,
  type Reminder,
  renewalReminders,
  writeReminders,
} from './reminders.js';
import { notificationHistory } from './tables.js';

export const GENERATE_QUEUE = 'notification-generate';
export const EMAIL_QUEUE = 'notification-email';
/** Reminders are looked for every five minutes: a meeting's comes at most that late. */
export const GENERATE_CRON = '*/5 * * * *';
/** An email is tried this many times more after its first failure, waiting longer each time. */
export const EMAIL_RETRIES = 3;

export interface EmailJob {
  tenantId: string;
  historyId: string;
}

export interface NotificationRunnerOptions {
  appUrl: string;
  /** The wait before the first retry of an email; pg-boss doubles it for each one after. */
  retryDelaySeconds: number;
}

/**
 * Writes reminders and sends their emails, on pg-boss in the app's own database. Every instance
 * works both queues: a generator run (sent by pg-boss's cron, once per schedule across instances)
 * looks through every agency, and each email is a job of its own with retries and backoff. Nothing
 * here counts on running once: the history's unique key keeps a reminder from being written twice,
 * and an email leaves `pending` once, under a row lock.
 */
export class NotificationRunner {
  private queue: JobQueue | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly mailer: Mailer,
    private readonly options: NotificationRunnerOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const queue = new JobQueue(this.database.pool);
    queue.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await queue.boss.start();
    this.queue = queue;
    await queue.work(GENERATE_QUEUE, { pollingIntervalSeconds: 5 }, async () => {
      await this.generate(new Date());
    });
    await queue.work<EmailJob>(EMAIL_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
      if (job) await this.deliver(job.data);
    });
  }

  async stop(): Promise<void> {
    await this.queue?.stop();
    this.queue = undefined;
  }

  /** The agencies whose plan sells notifications, as `now` finds them: each one's reminders written. */
  async generate(now: Date): Promise<{ agencies: number; inApp: number; emails: number }> {
    const agencies = await this.database.db
      .select({ tenantId: tenants.id, name: tenants.name, currency: tenants.currency })
      .from(tenants);
    const totals = { agencies: 0, inApp: 0, emails: 0 };
    for (const agency of agencies) {
      try {
        const written = await withTenant(this.database.db, agency.tenantId, (tx) =>
          this.remindAgency(tx, { ...agency, appUrl: this.options.appUrl }, now),
        );
        if (!written) continue;
        totals.agencies += 1;
        totals.inApp += written.inApp;
        totals.emails += written.emails;
      } catch (err) {
        // One agency's failure must not keep the others from their reminders.
        this.log.error({ err, tenantId: agency.tenantId }, 'notification run failed for an agency');
      }
    }
    this.log.info({ job: GENERATE_QUEUE, ...totals }, 'reminders written');
    return totals;
  }

  /** One agency's reminders for the day `now` falls on in its time zone; undefined outside the plan. */
  private async remindAgency(tx: Transaction, agency: Agency, now: Date) {
    const access = await findModuleAccess(tx, agency.tenantId);
    if (!access?.isActive || !access.modules.includes('module_notifications')) return undefined;
    const { rows } = await tx.execute<{ day: string }>(
      sql`select (${now.toISOString()}::timestamptz)::date::text as day`,
    );
    const day = rows[0]?.day ?? '';
    const users = await tx.select({ id: agencyUsers.id, email: agencyUsers.email }).from(agencyUsers);
    const settings = await settingsOf(
      tx,
      agency.tenantId,
      users.map((user) => user.id),
    );
    // Instalments and renewals are the agency's: looked up once per lead time, whoever asked for it.
    const found = new Map<string, Promise<Reminder[]>>();
    const agencyWide = (type: NotificationType, lead: number) => {
      const key = `${type}:${lead}`;
      if (!found.has(key)) {
        found.set(
          key,
          type === 'payment_reminder'
            ? paymentReminders(tx, agency, day, lead)
            : renewalReminders(tx, agency, day, lead),
        );
      }
      return found.get(key) as Promise<Reminder[]>;
    };
    let inApp = 0;
    const emails: EmailToSend[] = [];
    for (const setting of settings) {
      const user = users.find((candidate) => candidate.id === setting.userId);
      if (!setting.enabled || !user) continue;
      const reminders =
        setting.notificationType === 'meeting_reminder'
          ? await meetingReminders(tx, agency, user.id, now, setting.leadTime)
          : await agencyWide(setting.notificationType, setting.leadTime);
      const written = await writeReminders(
        tx,
        agency,
        { userId: user.id, email: user.email },
        await deliveryOf(tx, setting, now),
        reminders,
        day,
      );
      inApp += written.rows.filter((row) => row.channel === 'in_app').length;
      emails.push(...written.emails);
    }
    await this.queueEmails(tx, agency.tenantId, emails);
    return { inApp, emails: emails.length };
  }

  /** Queues the emails in the caller's transaction: they exist if and only if their rows commit. */
  async queueEmails(tx: Transaction, tenantId: string, emails: EmailToSend[]): Promise<void> {
    if (emails.length === 0) return;
    if (!this.queue) throw new Error('the notification runner has not started');
    const { boss } = this.queue;
    // Jobs are platform rows, out of the tenant role's reach.
    await asConnectingRole(tx, async () => {
      for (const email of emails) {
        await boss.send(EMAIL_QUEUE, { tenantId, historyId: email.historyId } satisfies EmailJob, {
          db: inTransaction(tx),
          startAfter: email.at,
          retryLimit: EMAIL_RETRIES,
          retryDelay: this.options.retryDelaySeconds,
          retryBackoff: true,
          // Longer than nodemailer's own socket timeout (10 minutes): a slow SMTP conversation ends
          // by itself before pg-boss would hand the same email to another worker.
          expireInSeconds: 900,
        });
      }
    });
  }

  /**
   * Sends one email of the history. Pending only: a row already sent, failed or cancelled is left
   * alone, so a job delivered twice sends once. A reminder whose cause went away (paid, renewed,
   * the meeting gone) is cancelled instead. A failure throws so that pg-boss tries again later;
   * the last try records the row as failed with the reason.
   */
  async deliver({ tenantId, historyId }: EmailJob): Promise<void> {
    const { db } = this.database;
    const [agency] = await db
      .select({ name: tenants.name, currency: tenants.currency })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    if (!agency) return;
    const own = and(eq(notificationHistory.tenantId, tenantId), eq(notificationHistory.id, historyId));
    // Claimed and counted in one short transaction: the SMTP conversation holds no database connection.
    const claimed = await withTenant(db, tenantId, async (tx) => {
      const [row] = await tx.select().from(notificationHistory).where(own).for('update');
      if (row?.status !== 'pending' || row.channel !== 'email') return undefined;
      const remains =
        row.isTest ||
        row.subjectId === null ||
        (await causeRemains(
          tx,
          { tenantId, ...agency, appUrl: this.options.appUrl },
          row.notificationType,
          row.subjectId,
        ));
      if (!remains) {
        await tx
          .update(notificationHistory)
          .set({ status: 'cancelled', failureReason: CANCELLED_BECAUSE[row.notificationType] })
          .where(own);
        return undefined;
      }
      const [counted] = await tx
        .update(notificationHistory)
        .set({ attempts: sql`${notificationHistory.attempts} + 1` })
        .where(own)
        .returning();
      return counted;
    });
    if (!claimed) return;
    try {
      await this.mailer.deliver({
        to: claimed.recipient,
        subject: claimed.title,
        text: claimed.message,
        html: claimed.htmlBody,
      });
      await withTenant(db, tenantId, (tx) =>
        tx
          .update(notificationHistory)
          .set({ status: 'sent', sentAt: sql`now()`, failureReason: '' })
          .where(own),
      );
    } catch (error) {
      const reason = error instanceof EmailNotSent ? error.message : 'The email could not be sent.';
      if (!(error instanceof EmailNotSent))
        this.log.error({ err: error, historyId }, 'reminder email failed');
      const last = claimed.attempts > EMAIL_RETRIES;
      await withTenant(db, tenantId, (tx) =>
        tx
          .update(notificationHistory)
          .set(last ? { status: 'failed', failureReason: reason } : { failureReason: reason })
          .where(own),
      );
      if (!last) throw error;
    }
  }
}
