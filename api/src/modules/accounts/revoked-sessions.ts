import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { CHANNELS, type DatabaseNotifications } from '../../db/notifications.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './tokens.js';

/**
 * Notifications bring other instances' revocations at once; the poll is the database's word in case
 * one was lost (a connection that died silently before keep-alive noticed).
 */
const POLL_INTERVAL_MS = 15_000;
/**
 * A revocation is stamped when its transaction starts and seen by others when it commits; each poll
 * reads this far back past the previous one, so one that committed late is still caught.
 */
const POLL_OVERLAP_SECONDS = 60;
const ACCESS_TOKEN_TTL_MS = ACCESS_TOKEN_TTL_SECONDS * 1000;

/**
 * The sign-ins (refresh-token families) revoked while access tokens issued to them may still be
 * unexpired. Every authenticated request asks `isRevoked` of its token's sign-in: a lookup in memory,
 * never a query. This instance learns of its own revocations as it makes them (`add`); those made by
 * other instances arrive as the database's notifications, sent when the revoking transaction commits,
 * so before the signed-out browser's next request can reach another instance. When the listening
 * connection was lost and opened again, and every 15 seconds, the recently revoked refresh tokens are
 * read from the database: one small indexed query per instance whatever the traffic.
 */
export class RevokedSessions {
  /** Family id -> when every access token issued to it has expired (milliseconds since the epoch). */
  readonly #revoked = new Map<string, number>();
  /** The database's clock at the previous poll; undefined before the first. */
  #polledAt: Date | undefined;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #stopped = false;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    notifications: DatabaseNotifications,
  ) {
    notifications.subscribe(CHANNELS.revokedSessions, {
      onNotification: (familyIds) => this.add(familyIds.split(',')),
      onResync: () => this.#pollNow(),
    });
  }

  isRevoked(familyId: string): boolean {
    return this.#revoked.has(familyId);
  }

  /** Revocations this instance has just committed: refused from the next request on. */
  add(familyIds: Iterable<string>): void {
    const until = Date.now() + ACCESS_TOKEN_TTL_MS;
    for (const familyId of familyIds) this.#revoked.set(familyId, until);
  }

  /** Reads the revocations made since the previous poll (at first, within an access token's life). */
  async #poll(): Promise<void> {
    const since = this.#polledAt
      ? sql`${this.#polledAt}::timestamptz - make_interval(secs => ${POLL_OVERLAP_SECONDS})`
      : sql`now() - make_interval(secs => ${ACCESS_TOKEN_TTL_SECONDS})`;
    const { rows } = await this.db.execute<{ polled_at: Date; family_ids: string[] }>(sql`
      select now() as polled_at, array(
        select distinct family_id::text from refresh_tokens where revoked_at > ${since}
      ) as family_ids`);
    const [result] = rows;
    if (!result) return;
    this.#polledAt = result.polled_at;
    this.add(result.family_ids);
    this.#forgetExpired();
  }

  /** Polls now (start it once notifications are being listened to) and then regularly until `stop`. */
  async start(): Promise<void> {
    await this.#poll();
    this.#scheduleNext();
  }

  #scheduleNext(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#pollNow(), POLL_INTERVAL_MS);
    this.#timer.unref();
  }

  /** A poll out of turn, e.g. after notifications may have been missed; the schedule restarts from it. */
  #pollNow(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const previous = this.#polling ?? Promise.resolve();
    this.#polling = previous
      .then(() => this.#poll())
      .catch((err: unknown) => this.log.warn({ err }, 'could not read revoked sessions'))
      .finally(() => this.#scheduleNext());
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#polling;
  }

  #forgetExpired(): void {
    const now = Date.now();
    for (const [familyId, until] of this.#revoked) {
      if (until <= now) this.#revoked.delete(familyId);
    }
  }
}
