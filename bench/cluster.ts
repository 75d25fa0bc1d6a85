// The policy list's throughput with one and with two instances behind nginx (deploy/nginx), on one
// PostgreSQL database: the deploy recipe's topology. The demo agency's first policy page, as a broker
// opens it, 10 connections. On two cores the second instance shares the cores with the first, nginx,
// PostgreSQL and the load generator, so no gain is expected; the figure is there to be known.
// Needs `npm run build`; the README lists the figures.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { Instance } from '../api/test/cluster/instances.js';
import { positiveInteger } from './seed.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '20' },
    'admin-database-url': { type: 'string', default: 'postgres://root@127.0.0.1:5432/test' },
  },
});
// The test harness makes its databases on the server TEST_DATABASE_URL names, read when it loads.
process.env.TEST_DATABASE_URL = values['admin-database-url'];
const { createServerDatabase } = await import('../api/test/database.js');
const { startInstance, startNginx, stopInstance } = await import('../api/test/cluster/instances.js');
const connections = positiveInteger('connections', values.connections);
const duration = positiveInteger('duration', values.duration);
const LIST_PATH = `/api/policies/?${new URLSearchParams({ status: 'active', ordering: '-start_date' })}`;

async function demoToken(url: string): Promise<string> {
  const response = await fetch(`${url}/api/accounts/login/demo/`, { method: 'POST' });
  if (!response.ok) throw new Error(`demo sign-in: HTTP ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function measure(label: string, url: string, token: string) {
  const request = { method: 'GET' as const, path: LIST_PATH, headers: { authorization: `Bearer ${token}` } };
  // Warm: prepared statements, caches, nginx's connections to the instances.
  await autocannon({ url, connections, duration: 3, requests: [request] });
  const result = await autocannon({ url, connections, duration, requests: [request] });
  const failed = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${failed} failed of ${result.requests.total}`,
  );
}

const dir = mkdtempSync(path.join(tmpdir(), 'coverdesk-cluster-bench-'));
const database = await createServerDatabase('coverdesk_cluster_bench');
const instances: Instance[] = [];
try {
  const jwtSecret = randomBytes(32).toString('base64url');
  const settings = {
    databaseUrl: database.url,
    jwtSecret,
    dir,
    env: { DEMO_ENABLED: 'true', LOG_LEVEL: 'warn' },
  };
  const a = await startInstance({ ...settings, name: 'a' });
  instances.push(a);
  const token = await demoToken(a.url);
  await measure('one instance, direct', a.url, token);
  const single = await startNginx(dir, [a, a]);
  await measure('one instance behind nginx', single.url, token);
  await single.stop();
  const b = await startInstance({ ...settings, name: 'b' });
  instances.push(b);
  const pair = await startNginx(dir, [a, b]);
  await measure('two instances behind nginx', pair.url, token);
  await pair.stop();
} finally {
  await Promise.all(instances.map((instance) => stopInstance(instance)));
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
