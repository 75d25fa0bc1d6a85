import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './tokens.js';

const POLL_INTERVAL_MS = 1000;
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
 * other instances arrive by reading the recently revoked refresh tokens from the database every
 * second, one small indexed query per instance whatever the traffic.
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
  ) {}

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

  /** Polls now and then every second until `stop`. */
  async start(): Promise<void> {
    await this.#poll();
    const scheduleNext = () => {
      if (this.#stopped) return;
      this.#timer = setTimeout(() => {
        this.#polling = this.#poll()
          .catch((err: unknown) => this.log.warn({ err }, 'could not read revoked sessions'))
          .finally(scheduleNext);
      }, POLL_INTERVAL_MS);
      this.#timer.unref();
    };
    scheduleNext();
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
