import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../../test/database.js';
import type { DatabaseHandle } from '../db/client.js';
import { JobQueue } from './queue.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase(inject('databaseTemplate'));
});
afterAll(() => database.close());

it('stops only once a job that a late fetch brought back has run and been completed', async () => {
  // Every fetch waits at the gate, so one is on its way when the queue is told to stop.
  let openGate = () => {};
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  let fetching = () => {};
  const fetched = new Promise<void>((resolve) => {
    fetching = resolve;
  });
  let stopped = false;
  const afterStop: string[] = [];
  const queue = new JobQueue(
    {
      async query(text: string, values?: unknown[]) {
        if (stopped) afterStop.push(text);
        if (text.includes('SKIP LOCKED')) {
          fetching();
          await gate;
        }
        return database.pool.query(text, values);
      },
    } as never,
    { supervise: false },
  );
  await queue.boss.start();
  const id = await queue.boss.send('import', { which: 'late' });
  const ran: string[] = [];
  await queue.work<{ which: string }>('import', { pollingIntervalSeconds: 1 }, async ([job]) => {
    await delay(50);
    ran.push(job?.data.which ?? '');
  });
  await fetched;

  const stopping = queue.stop({ graceful: true, wait: true, timeout: 1_000 });
  setTimeout(openGate, 200);
  await stopping;
  stopped = true;
  expect(ran).toEqual(['late']);
  await delay(300);
  expect(afterStop).toEqual([]);
  const { rows } = await database.pool.query('select state from pgboss.job where id = $1', [id]);
  expect(rows).toEqual([{ state: 'completed' }]);
});

it('takes the next job at once after one, instead of waiting out the polling interval', async () => {
  const queue = new JobQueue(database.pool, { supervise: false });
  await queue.boss.start();
  for (const which of ['first', 'second', 'third']) await queue.boss.send('import', { which });
  const ran: string[] = [];
  await queue.work<{ which: string }>('import', { pollingIntervalSeconds: 60 }, async ([job]) => {
    ran.push(job?.data.which ?? '');
  });
  try {
    await expect.poll(() => ran.length, { timeout: 15_000 }).toBe(3);
    expect(ran.sort()).toEqual(['first', 'second', 'third']);
  } finally {
    await queue.stop();
  }
});
