import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { tenants } from '../tenants/tables.js';
import { settle } from './settle.js';

/** How often the schedule applies ended trials, period ends and renewals. */
const SETTLE_EVERY_MS = 10 * 60_000;

/**
 * Applies what fell due by `now` to every agency's subscription, one short transaction each. Each
 * row is locked and re-read before it changes, so instances running it at once change it once.
 */
export async function settleAllSubscriptions(db: Database, now: Date): Promise<number> {
  const agencies = await db.select({ id: tenants.id }).from(tenants);
  for (const { id } of agencies) await withTenant(db, id, (tx) => settle(tx, id, now));
  return agencies.length;
}

/** Runs `settleAllSubscriptions` every ten minutes; every request checks too, so this only keeps records current. */
export function scheduleBillingSettlement(db: Database, log: FastifyBaseLogger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        await settleAllSubscriptions(db, new Date());
      } catch (err) {
        log.error({ err, job: 'billing-settle' }, 'applying subscription period ends failed');
      }
    });
  }, SETTLE_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
