import { eq, inArray, type SQL, sql } from 'drizzle-orm';
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
 * Returns the attempts each rule has counted in its window, this one included.
 */
export async function consumeAttempt(
  executor: Executor,
  rules: ThrottleRule[],
  refusal = 'Too many attempts.',
): Promise<number[]> {
  const attempts: number[] = [];
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
    if (!bucket) throw new Error(`throttle bucket ${rule.key} was not written`);
    attempts.push(bucket.hits);
    if (bucket.hits > rule.limit) waits.push(bucket.retryAfter);
  }
  if (waits.length > 0) {
    // A refused attempt tried nothing: it must not push the window further out of reach.
    await refundAttempt(executor, rules);
    throw tooManyAttempts(Math.max(...waits), refusal);
  }
  return attempts;
}

/**
 * Counts one attempt and tells whether every rule allows it, for quiet limits whose 429 would reveal
 * something (that an account exists).
 */
export async function withinLimit(executor: Executor, rules: ThrottleRule[]): Promise<boolean> {
  try {
    await consumeAttempt(executor, rules);
    return true;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 429) return false;
    throw error;
  }
}

/**
 * A wait between attempts that grows with each one counted: none for the first `freeAttempts`, then
 * `firstDelaySeconds`, doubling up to `maxDelaySeconds`. The count is forgotten `forgetAfterSeconds`
 * after the last attempt. Unlike a fixed window's limit, it never holds anyone back for long.
 */
export interface BackoffRule {
  key: string;
  freeAttempts: number;
  firstDelaySeconds: number;
  maxDelaySeconds: number;
  forgetAfterSeconds: number;
}

/**
 * Counts one attempt against a backoff rule, or refuses with 429 and Retry-After while the wait
 * after the previous attempt lasts. Checking and counting are one statement, so parallel attempts
 * cannot share a turn.
 */
export async function consumeBackoff(executor: Executor, rule: BackoffRule): Promise<void> {
  const { forgotten, nextAllowed } = backoffTerms(rule);
  if (await countBackoff(executor, rule, sql`${forgotten} or ${nextAllowed} <= clock_timestamp()`)) return;
  const [bucket] = await executor
    .select({
      retryAfter: sql<number>`greatest(ceil(extract(epoch from ${nextAllowed} - clock_timestamp())), 1)::int`,
    })
    .from(throttleBuckets)
    .where(eq(throttleBuckets.key, rule.key));
  throw tooManyAttempts(bucket?.retryAfter ?? 1);
}

/**
 * Counts an attempt that a backoff rule did not hold back (the caller let it through for reasons of
 * its own), so that the wait still grows with it and starts again from it.
 */
export async function countBackoffAttempt(executor: Executor, rule: BackoffRule): Promise<void> {
  await countBackoff(executor, rule);
}

/**
 * A backoff rule in SQL. Its bucket's window ends `forgetAfterSeconds` after the last attempt counted.
 * Times are read when the statement runs, not when its transaction began: a parallel attempt that
 * waited for the bucket's row lock would otherwise find the previous attempt in its future, and be
 * refused.
 */
function backoffTerms(rule: BackoffRule) {
  const forgetAfter = sql`make_interval(secs => ${rule.forgetAfterSeconds})`;
  const extraAttempts = sql`${throttleBuckets.hits} - ${rule.freeAttempts}`;
  const wait = sql`make_interval(secs => case when ${extraAttempts} <= 0 then 0
    else least(${rule.firstDelaySeconds} * 2 ^ (${extraAttempts} - 1), ${rule.maxDelaySeconds}) end)`;
  return {
    forgetAfter,
    forgotten: sql`${throttleBuckets.windowEndsAt} <= clock_timestamp()`,
    nextAllowed: sql`${throttleBuckets.windowEndsAt} - ${forgetAfter} + ${wait}`,
  };
}

/** Counts one attempt in a backoff bucket, when the bucket is new or `allowed` holds; tells which. */
async function countBackoff(executor: Executor, rule: BackoffRule, allowed?: SQL): Promise<boolean> {
  const { forgetAfter, forgotten } = backoffTerms(rule);
  const counted = await executor
    .insert(throttleBuckets)
    .values({ key: rule.key, hits: 1, windowEndsAt: sql`clock_timestamp() + ${forgetAfter}` })
    .onConflictDoUpdate({
      target: throttleBuckets.key,
      set: {
        hits: sql`case when ${forgotten} then 1 else ${throttleBuckets.hits} + 1 end`,
        windowEndsAt: sql`clock_timestamp() + ${forgetAfter}`,
      },
      setWhere: allowed,
    })
    .returning({ hits: throttleBuckets.hits });
  return counted.length > 0;
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

export async function clearAttempts(executor: Executor, rules: { key: string }[]): Promise<void> {
  await executor.delete(throttleBuckets).where(
    inArray(
      throttleBuckets.key,
      rules.map((rule) => rule.key),
    ),
  );
}

function tooManyAttempts(retryAfter: number, refusal = 'Too many attempts.'): HttpError {
  return new HttpError(
    429,
    { detail: `${refusal} Please try again in ${describeWait(retryAfter)}.` },
    { 'retry-after': String(retryAfter) },
  );
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
