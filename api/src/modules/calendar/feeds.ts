import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { calendarFeeds } from './tables.js';

/**
 * Turns a user's calendar feed off: its address answers 404 from then on, and only a new address,
 * made by the user, publishes the calendar again. True when there was one to turn off.
 */
export async function turnOffCalendarFeed(executor: Executor, userId: string): Promise<boolean> {
  const removed = await executor
    .delete(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .returning({ userId: calendarFeeds.userId });
  return removed.length > 0;
}
