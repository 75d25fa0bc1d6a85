import { PADDLE_ENVIRONMENTS, SMTP_SECURITY } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Config, PaddleConfig } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import { CHANNELS, type DatabaseNotifications } from '../../db/notifications.js';
import { openSecret } from './secrets.js';
import { type PlatformSettingsKey, platformSettings } from './tables.js';

export const generalSettings = z.object({
  signupsOpen: z.boolean(),
  demoEnabled: z.boolean(),
  defaultTrialDays: z.number().int().positive().nullable(),
});
export type GeneralSettings = z.infer<typeof generalSettings>;

/** Before an admin saves anything: sign-ups open, the demo on, each plan's own trial. */
const DEFAULT_GENERAL: GeneralSettings = { signupsOpen: true, demoEnabled: true, defaultTrialDays: null };

/** The mail server as stored; `password` sealed (see secrets.ts). */
export const storedEmail = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(SMTP_SECURITY),
  username: z.string(),
  password: z.string().nullable(),
  fromEmail: z.string(),
  fromName: z.string(),
});
export type StoredEmail = z.infer<typeof storedEmail>;

/** Paddle as stored; `apiKey` and `webhookSecret` sealed, each with its last four characters beside it. */
export const storedPaddle = z.object({
  environment: z.enum(PADDLE_ENVIRONMENTS),
  apiKey: z.string(),
  apiKeyLast4: z.string(),
  clientToken: z.string(),
  webhookSecret: z.string(),
  webhookSecretLast4: z.string(),
  prices: z.record(z.string(), z.object({ monthly: z.string(), yearly: z.string() })),
});
export type StoredPaddle = z.infer<typeof storedPaddle>;

const SHAPES = { general: generalSettings, email: storedEmail, paddle: storedPaddle } as const;
type Shapes = { [K in PlatformSettingsKey]: z.infer<(typeof SHAPES)[K]> };

export interface Saved<T> {
  value: T;
  updatedAt: Date;
}

/** The secrets' purposes, bound into each seal so one cannot stand in for another. */
export const SECRET_PURPOSE = {
  smtpPassword: 'email.password',
  paddleApiKey: 'paddle.api_key',
  paddleWebhookSecret: 'paddle.webhook_secret',
} as const;

/** The mail server the app sends through, secrets opened. */
export interface SmtpSettings extends Omit<StoredEmail, 'password'> {
  password: string | null;
}

/**
 * Paddle's settings as saved, read once at start (before any PlatformSettings exists) so that the
 * saved price ids, not PADDLE_PRICES, end up on the plans. Undefined when none were saved.
 */
export async function savedPaddleSettings(db: Database): Promise<StoredPaddle | undefined> {
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.key, 'paddle'));
  const parsed = storedPaddle.safeParse(row?.value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The platform settings, read on hot paths (every registration, every email, every billing call and
 * every page's Content-Security-Policy), so kept in memory and refreshed when older than `ttlMs`. A
 * save on any instance reloads every instance's copy when the database tells them (`followChanges`);
 * the refresh after `ttlMs` covers a notification lost with its connection.
 */
export class PlatformSettings {
  private cached: { at: number; rows: Map<PlatformSettingsKey, Saved<unknown>> } | undefined;
  private loading: Promise<Map<PlatformSettingsKey, Saved<unknown>>> | undefined;
  /** The reload after another instance's save, while it runs. */
  private announced: Promise<void> | undefined;
  /** Paddle's environment as last read, for readers that cannot wait (the CSP header). */
  private paddleEnvironmentNow: PaddleConfig['environment'] | undefined;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    private readonly ttlMs = 5_000,
  ) {
    this.paddleEnvironmentNow = config.paddle?.environment;
  }

  get encryptionKey(): Buffer | undefined {
    return this.config.settingsEncryptionKey;
  }

  /**
   * The saved rows. Once loaded they are answered from memory, and a stale copy is refreshed in the
   * background rather than awaited: a reader may be inside a transaction (a billing call picks its
   * provider while holding the subscription's lock), and on embedded PGlite, which has one
   * connection, a query outside that transaction would wait for it for ever. Only the first read
   * waits; the app makes it at start, before any request. A reload another instance's save
   * announced is awaited too, so its change is in force from the moment this instance heard of it:
   * announcements come only on a PostgreSQL server, where the reload has a connection of its own.
   */
  private async rows(): Promise<Map<PlatformSettingsKey, Saved<unknown>>> {
    if (!this.cached) return this.load();
    if (this.announced) await this.announced;
    if (Date.now() - this.cached.at >= this.ttlMs) {
      this.load().catch((err: unknown) => this.log.warn({ err }, 'platform settings not refreshed'));
    }
    return this.cached.rows;
  }

  private load(): Promise<Map<PlatformSettingsKey, Saved<unknown>>> {
    this.loading ??= this.db
      .select()
      .from(platformSettings)
      .then((found) => {
        const rows = new Map(found.map((row) => [row.key, { value: row.value, updatedAt: row.updatedAt }]));
        this.cached = { at: Date.now(), rows };
        return rows;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  /** One setting as saved, or undefined; a row this version cannot read counts as not saved. */
  async saved<K extends PlatformSettingsKey>(key: K): Promise<Saved<Shapes[K]> | undefined> {
    const row = (await this.rows()).get(key);
    if (!row) return undefined;
    const parsed = SHAPES[key].safeParse(row.value);
    if (!parsed.success) {
      this.log.error({ key, issues: parsed.error.issues }, 'platform setting unreadable; ignored');
      return undefined;
    }
    return { value: parsed.data as Shapes[K], updatedAt: row.updatedAt };
  }

  /** Writes one setting in the caller's transaction (with its audit row) and forgets the cached copy. */
  async save<K extends PlatformSettingsKey>(
    tx: Transaction,
    key: K,
    value: Shapes[K],
    adminId: string,
  ): Promise<void> {
    const now = new Date();
    await tx
      .insert(platformSettings)
      .values({ key, value, updatedAt: now, updatedBy: adminId })
      .onConflictDoUpdate({
        target: platformSettings.key,
        set: { value, updatedAt: now, updatedBy: adminId },
      });
  }

  /** Deletes one setting in the caller's transaction, so its default or the environment applies; true if there was one. */
  async forgetSaved(tx: Transaction, key: PlatformSettingsKey): Promise<boolean> {
    const deleted = await tx
      .delete(platformSettings)
      .where(eq(platformSettings.key, key))
      .returning({ key: platformSettings.key });
    return deleted.length > 0;
  }

  /**
   * Called once the saving transaction has committed, outside it: this instance applies the change at
   * once. A load already on its way may have read before the commit, so a fresh one follows it.
   */
  async reload(): Promise<void> {
    await this.loading?.catch(() => {});
    await this.load();
  }

  /** Reloads whenever another instance saves a setting (or after the news of one may have been lost). */
  followChanges(notifications: DatabaseNotifications): void {
    const reload = () => {
      const announced = this.reload()
        .catch((err: unknown) => this.log.warn({ err }, 'platform settings not reloaded'))
        .finally(() => {
          if (this.announced === announced) this.announced = undefined;
        });
      this.announced = announced;
    };
    notifications.subscribe(CHANNELS.platformSettings, { onNotification: reload, onResync: reload });
  }

  async general(): Promise<GeneralSettings> {
    return (await this.saved('general'))?.value ?? DEFAULT_GENERAL;
  }

  /** Whether "Try the demo" works: the server allows a demo (DEMO_ENABLED) and the admin has it on. */
  async demoAvailable(): Promise<boolean> {
    return this.config.demoEnabled && (await this.general()).demoEnabled;
  }

  /** The mail server saved by an admin, password opened; undefined when none was saved. Throws SecretUnreadable. */
  async smtp(): Promise<SmtpSettings | undefined> {
    const saved = (await this.saved('email'))?.value;
    if (!saved) return undefined;
    const password =
      saved.password === null
        ? null
        : openSecret(this.encryptionKey, SECRET_PURPOSE.smtpPassword, saved.password);
    return { ...saved, password };
  }

  /** Paddle as billing uses it: saved settings win over the PADDLE_* variables. Throws SecretUnreadable. */
  async paddleConfig(): Promise<PaddleConfig | undefined> {
    const saved = (await this.saved('paddle'))?.value;
    if (!saved) return this.config.paddle;
    return {
      environment: saved.environment,
      apiKey: openSecret(this.encryptionKey, SECRET_PURPOSE.paddleApiKey, saved.apiKey),
      clientToken: saved.clientToken,
      webhookSecret: openSecret(this.encryptionKey, SECRET_PURPOSE.paddleWebhookSecret, saved.webhookSecret),
      prices: saved.prices,
    };
  }

  /**
   * Paddle's environment as last read, or undefined without Paddle: for the Content-Security-Policy,
   * which helmet computes synchronously. `refreshPaddleEnvironment` runs before each request.
   */
  paddleEnvironment(): PaddleConfig['environment'] | undefined {
    return this.paddleEnvironmentNow;
  }

  /** Brings `paddleEnvironment` up to date from the cached settings; a failed read keeps the last. */
  async refreshPaddleEnvironment(): Promise<void> {
    try {
      const saved = (await this.saved('paddle'))?.value;
      this.paddleEnvironmentNow = saved ? saved.environment : this.config.paddle?.environment;
    } catch (err) {
      this.log.warn({ err }, 'platform settings unreadable; the page keeps the last Paddle environment');
    }
  }
}
