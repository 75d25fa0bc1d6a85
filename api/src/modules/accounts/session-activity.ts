import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { refreshTokens } from './tables.js';

/** How stale a session's "Last active" may grow while it is in use. */
export const ACTIVITY_INTERVAL_MINUTES = 5;
const ACTIVITY_INTERVAL_MS = ACTIVITY_INTERVAL_MINUTES * 60_000;
/** Sessions remembered at once; past it, those not seen within the interval are forgotten. */
const MAX_REMEMBERED = 50_000;

/**
 * When each sign-in last made a request, for the user's list of sessions. An access token lives for
 * 15 minutes and a refresh (which writes a new token) happens only when one has expired, so without
 * this a session in steady use read "Last active" at its sign-in or its last refresh. Each instance
 * writes a session's time at most once per interval, remembered in memory; the UPDATE's own guard
 * keeps several instances from each writing it within the same interval.
 */
export class SessionActivity {
  /** Family id -> when this instance last wrote its activity (milliseconds since the epoch). */
  readonly #written = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A request of the session arrived: its time is written unless it was within the interval. */
  async seen(familyId: string): Promise<void> {
    const now = Date.now();
    const written = this.#written.get(familyId);
    if (written !== undefined && now - written < ACTIVITY_INTERVAL_MS) return;
    if (this.#written.size >= MAX_REMEMBERED) this.#forget(now);
    this.#written.set(familyId, now);
    await this.db
      .update(refreshTokens)
      .set({ lastActiveAt: sql`now()` })
      .where(
        and(
          eq(refreshTokens.familyId, familyId),
          isNull(refreshTokens.usedAt),
          isNull(refreshTokens.revokedAt),
          or(
            isNull(refreshTokens.lastActiveAt),
            lt(refreshTokens.lastActiveAt, sql`now() - make_interval(mins => ${ACTIVITY_INTERVAL_MINUTES})`),
          ),
        ),
      )
      // The request goes on whatever: a time not written is shown a few minutes older.
      .catch((err: unknown) => this.log.warn({ err }, 'could not record a session as active'));
  }

  #forget(now: number) {
    for (const [familyId, written] of this.#written) {
      if (now - written >= ACTIVITY_INTERVAL_MS) this.#written.delete(familyId);
    }
  }
}
