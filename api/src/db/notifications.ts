import pg from 'pg';

/**
 * The channels on which the database tells every instance what another one changed that each keeps
 * in memory. Triggers send them (migration 0060), in the transaction that made the change, so they
 * arrive when it commits and whichever code path made it.
 */
export const CHANNELS = {
  /** Payload: the revoked sign-ins' family ids, separated by commas. */
  revokedSessions: 'coverdesk_revoked_sessions',
  /** Payload: the key of the platform setting saved or deleted. */
  platformSettings: 'coverdesk_platform_settings',
  /** No payload: documents were deleted, and their bytes may be released (documents-isolation). */
  documentFiles: 'coverdesk_document_files',
} as const;
type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

export interface Subscriber {
  onNotification(payload: string): void;
  /**
   * Called when notifications may have been missed: the listening connection came back after it
   * was lost. The subscriber reads the truth from the database again.
   */
  onResync(): void;
}

/** What an instance changed, as the other instances on the same database hear of it. */
export interface DatabaseNotifications {
  subscribe(channel: Channel, subscriber: Subscriber): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The embedded database serves one process, so there is no other instance to hear from: the
 * instance applies its own changes as it makes them.
 */
export class SoleInstance implements DatabaseNotifications {
  subscribe(): void {}
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

const RECONNECT_DELAYS_MS = [250, 1000, 2000, 5000];

/**
 * Listens on a connection of its own, outside the pool (a pooled connection is handed to other work
 * between queries, and LISTEN belongs to the session). A lost connection is opened again, and every
 * subscriber then reads the database anew, since what was sent meanwhile is lost.
 */
export class PostgresNotifications implements DatabaseNotifications {
  readonly #subscribers = new Map<string, Subscriber[]>();
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly onError: (error: Error) => void,
  ) {}

  subscribe(channel: Channel, subscriber: Subscriber): void {
    this.#subscribers.set(channel, [...(this.#subscribers.get(channel) ?? []), subscriber]);
  }

  async start(): Promise<void> {
    await this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    // Keep-alive probes notice a connection a network fault cut silently, so it is opened again.
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
    client.on('notification', ({ channel, payload }) => {
      for (const subscriber of this.#subscribers.get(channel) ?? []) subscriber.onNotification(payload ?? '');
    });
    client.on('error', (error) => this.onError(error));
    client.on('end', () => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      this.#reconnect(0);
    });
    await client.connect();
    if (this.#stopped) {
      await client.end();
      return;
    }
    try {
      for (const channel of this.#subscribers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.#client = client;
  }

  #reconnect(attempt: number): void {
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
    this.#retry = setTimeout(() => {
      if (this.#stopped) return;
      this.#connect()
        .then(() => {
          for (const subscribers of this.#subscribers.values()) {
            for (const subscriber of subscribers) subscriber.onResync();
          }
        })
        .catch((error: Error) => {
          this.onError(error);
          this.#reconnect(attempt + 1);
        });
    }, delay);
    this.#retry.unref();
  }
}
