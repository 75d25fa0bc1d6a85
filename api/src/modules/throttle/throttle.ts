import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { HttpError } from '../../http/errors.js';
import { throttleBuckets } from './tables.js';

/** At most `limit` hits per key in a fixed window of `windowSeconds`. */
export interface ThrottleRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** Refuses with 429 and Retry-After when any rule's key has used up its window. */
export async function assertNotThrottled(executor: Executor, rules: ThrottleRule[]): Promise<void> {
  const rows = await executor
    .select({
      key: throttleBuckets.key,
      hits: throttleBuckets.hits,
      retryAfter: sql<number>`ceil(extract(epoch from ${throttleBuckets.windowEndsAt} - now()))::int`,
    })
    .from(throttleBuckets)
    .where(
      inArray(
        throttleBuckets.key,
        rules.map((rule) => rule.key),
      ),
    );
  const waits = rows
    .filter(
      (row) => row.retryAfter > 0 && row.hits >= (rules.find((rule) => rule.key === row.key)?.limit ?? 0),
    )
    .map((row) => row.retryAfter);
  if (waits.length > 0) {
    const retryAfter = Math.max(...waits);
    throw new HttpError(
      429,
      { detail: `Too many attempts. Please try again in ${describeWait(retryAfter)}.` },
      { 'retry-after': String(retryAfter) },
    );
  }
}

/** Counts one hit against each rule's key, starting a new window where the old one has ended. */
export async function recordHits(executor: Executor, rules: ThrottleRule[]): Promise<void> {
  for (const rule of rules) {
    const windowEnd = sql`now() + make_interval(secs => ${rule.windowSeconds})`;
    await executor
      .insert(throttleBuckets)
      .values({ key: rule.key, hits: 1, windowEndsAt: windowEnd })
      .onConflictDoUpdate({
        target: throttleBuckets.key,
        set: {
          hits: sql`case when ${throttleBuckets.windowEndsAt} <= now() then 1 else ${throttleBuckets.hits} + 1 end`,
          windowEndsAt: sql`case when ${throttleBuckets.windowEndsAt} <= now() then ${windowEnd} else ${throttleBuckets.windowEndsAt} end`,
        },
      });
  }
}

export async function clearHits(executor: Executor, keys: string[]): Promise<void> {
  await executor.delete(throttleBuckets).where(inArray(throttleBuckets.key, keys));
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
