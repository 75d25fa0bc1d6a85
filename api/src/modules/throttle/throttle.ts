import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { HttpError } from '../../http/errors.js';
import { throttleBuckets } from './tables.js';

/** At most `limit` attempts per key in a fixed window of `windowSeconds`. */
export interface ThrottleRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one attempt against every rule, then refuses with 429 and Retry-After if any rule is past
 * its limit. Counting before checking means parallel requests cannot all slip under the limit.
 */
export async function consumeAttempt(executor: Executor, rules: ThrottleRule[]): Promise<void> {
  const waits: number[] = [];
  for (const rule of rules) {
    const windowEnd = sql`now() + make_interval(secs => ${rule.windowSeconds})`;
    const [bucket] = await executor
      .insert(throttleBuckets)
      .values({ key: rule.key, hits: 1, windowEndsAt: windowEnd })
      .onConflictDoUpdate({
        target: throttleBuckets.key,
        set: {
          hits: sql`case when ${throttleBuckets.windowEndsAt} <= now() then 1 else ${throttleBuckets.hits} + 1 end`,
          windowEndsAt: sql`case when ${throttleBuckets.windowEndsAt} <= now() then ${windowEnd} else ${throttleBuckets.windowEndsAt} end`,
        },
      })
      .returning({
        hits: throttleBuckets.hits,
        retryAfter: sql<number>`greatest(ceil(extract(epoch from ${throttleBuckets.windowEndsAt} - now())), 1)::int`,
      });
    if (bucket && bucket.hits > rule.limit) waits.push(bucket.retryAfter);
  }
  if (waits.length > 0) {
    // A refused attempt tried nothing: it must not push the window further out of reach.
    await refundAttempt(executor, rules);
    const retryAfter = Math.max(...waits);
    throw new HttpError(
      429,
      { detail: `Too many attempts. Please try again in ${describeWait(retryAfter)}.` },
      { 'retry-after': String(retryAfter) },
    );
  }
}

/** Gives an attempt back: a successful sign-in is not a failure worth counting. */
export async function refundAttempt(executor: Executor, rules: ThrottleRule[]): Promise<void> {
  await executor
    .update(throttleBuckets)
    .set({ hits: sql`greatest(${throttleBuckets.hits} - 1, 0)` })
    .where(
      inArray(
        throttleBuckets.key,
        rules.map((rule) => rule.key),
      ),
    );
}

export async function clearAttempts(executor: Executor, rules: ThrottleRule[]): Promise<void> {
  await executor.delete(throttleBuckets).where(
    inArray(
      throttleBuckets.key,
      rules.map((rule) => rule.key),
    ),
  );
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
