// Starting and stopping the built API for a benchmark.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/** Migrations on a cold PGlite take a few seconds; a server not up after this is broken. */
const STARTUP_TIMEOUT_MS = 60_000;
/** Past this the server gets SIGKILL; it gives itself 10 s to drain. */
const SHUTDOWN_TIMEOUT_MS = 15_000;

/**
 * Node's own flags for the server, from `BENCH_SERVER_NODE_FLAGS` (space-separated): `--cpu-prof`
 * or `--heapsnapshot-signal=SIGUSR2` to see where a benchmark's time and memory go.
 */
const SERVER_NODE_FLAGS = process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];

export interface RunningServer {
  url: string;
  process: ChildProcess;
  pid: number;
  logFile: string;
  /** The server's JWT secret, so a benchmark can sign access tokens of its own. */
  jwtSecret: string;
}

export async function startServer(
  serverEntry: string,
  settings: {
    DATA_DIR: string;
    DATABASE_URL: string;
    DATABASE_POOL_SIZE: string;
    LOG_LEVEL: string;
    logFile: string;
  },
): Promise<RunningServer> {
  const { logFile, ...env } = settings;
  const jwtSecret = randomBytes(32).toString('base64url');
  const port = await freeLoopbackPort();
  const log = openSync(logFile, 'w');
  // The server logs to a file, not to a pipe into this process: a pipe would make the load
  // generator pay for reading every log line and could stall the server when it falls behind.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, serverEntry], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: jwtSecret,
      // Nothing outside the seeded agencies, and no mail leaving the machine.
      DEMO_ENABLED: 'false',
      ADMIN_EMAILS: '',
      SMTP_URL: '',
      // The seeded agencies all register from this machine.
      REGISTRATIONS_PER_HOUR: '100000',
    },
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilHealthy(url, child);
  } catch (error) {
    await stopServer(child);
    throw new Error(`${error instanceof Error ? error.message : error}; see ${logFile}`);
  }
  // A server that answered the health check is running, so it has a pid.
  return { url, process: child, pid: child.pid as number, logFile, jwtSecret };
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilHealthy(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(new URL('/api/health/', url), { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet: migrations run before the port opens.
    }
    await sleep(200);
  }
  throw new Error(`server not healthy after ${STARTUP_TIMEOUT_MS / 1000}s`);
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // Unreferenced, so a server that exits at once does not keep this process waiting for the timer.
  const timer = sleep(SHUTDOWN_TIMEOUT_MS, 'timeout', { ref: false });
  if ((await Promise.race([exited, timer])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}
