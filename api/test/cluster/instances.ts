// Several Coverdesk instances from the built app (`npm run build`) on one PostgreSQL database, behind
// Debian's nginx with the proxy configuration of deploy/: the deploy recipe's topology without Docker.
// Used by the multi-instance test and by the throughput benchmark (bench/cluster.ts).

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'api/dist/main.js');
const NGINX_TEMPLATE = path.join(REPO_ROOT, 'deploy/nginx/coverdesk.conf.template');
const NGINX = '/usr/sbin/nginx';

/** Migrations on a fresh database take a few seconds; an instance not up after this is broken. */
const STARTUP_TIMEOUT_MS = 60_000;

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface Instance {
  name: string;
  url: string;
  metricsUrl: string;
  port: number;
  process: ChildProcess;
  /** The exit code, or the signal's name when killed. */
  exited: Promise<number | string>;
  logFile: string;
}

export interface InstanceSettings {
  name: string;
  databaseUrl: string;
  jwtSecret: string;
  /** Where the instance's data directory and log go. */
  dir: string;
  /** The same port again when an instance is restarted behind the proxy. */
  port?: number;
  env?: Record<string, string>;
}

/** Starts `node api/dist/main.js` and waits until its health check answers 200. */
export async function startInstance(settings: InstanceSettings): Promise<Instance> {
  const port = settings.port ?? (await freeLoopbackPort());
  const metricsPort = await freeLoopbackPort();
  const logFile = path.join(settings.dir, `${settings.name}.log`);
  mkdirSync(settings.dir, { recursive: true });
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(settings.dir, `${settings.name}-data`),
      DATABASE_URL: settings.databaseUrl,
      DATABASE_POOL_SIZE: '5',
      JWT_SECRET: settings.jwtSecret,
      METRICS_PORT: String(metricsPort),
      TRUST_PROXY: 'loopback',
      DEMO_ENABLED: 'false',
      ADMIN_MFA_REQUIRED: 'false',
      LOG_LEVEL: 'info',
      // Every test agency registers from this machine.
      REGISTRATIONS_PER_HOUR: '1000',
      SHUTDOWN_DELAY_SECONDS: '1',
      ...settings.env,
    },
  });
  closeSync(log);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      const last = readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n');
      throw new Error(`${settings.name} exited at start:\n${last}`);
    }
    const healthy = await fetch(`${url}/api/health/`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${settings.name} was not healthy within a minute; see ${logFile}`);
    }
    await sleep(200);
  }
  return {
    name: settings.name,
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    port,
    process: child,
    exited,
    logFile,
  };
}

/** Stops an instance with `signal` and waits for it to exit; the exit code or signal name. */
export async function stopInstance(instance: Instance, signal: NodeJS.Signals = 'SIGTERM') {
  if (instance.process.exitCode === null && instance.process.signalCode === null) {
    instance.process.kill(signal);
  }
  return instance.exited;
}

/**
 * nginx in front of two instances, configured by deploy/nginx/coverdesk.conf.template with its
 * three variables filled in, as the nginx image's template step fills them in the compose recipe.
 */
export async function startNginx(dir: string, instances: [Instance, Instance]) {
  const port = await freeLoopbackPort();
  const prefix = path.join(dir, 'nginx');
  mkdirSync(prefix, { recursive: true });
  // Its workers run as an unprivileged user when nginx starts as root; they write request bodies
  // under the prefix, so they must be able to reach it.
  chmodSync(dir, 0o711);
  chmodSync(prefix, 0o777);
  const values: Record<string, string> = {
    COVERDESK_LISTEN: `127.0.0.1:${port}`,
    COVERDESK_INSTANCE_1: `127.0.0.1:${instances[0].port}`,
    COVERDESK_INSTANCE_2: `127.0.0.1:${instances[1].port}`,
  };
  const site = readFileSync(NGINX_TEMPLATE, 'utf8').replace(/\$\{(\w+)\}/g, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${NGINX_TEMPLATE} uses \${${name}}, which nobody sets`);
    return value;
  });
  writeFileSync(path.join(prefix, 'coverdesk.conf'), site);
  const main = path.join(prefix, 'nginx.conf');
  writeFileSync(
    main,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/coverdesk.conf;
}
`,
  );
  const checked = spawnSync(NGINX, ['-t', '-q', '-e', `${prefix}/error.log`, '-p', prefix, '-c', main], {
    encoding: 'utf8',
  });
  if (checked.status !== 0) throw new Error(`nginx refused the configuration: ${checked.stderr}`);
  const child = spawn(NGINX, ['-e', `${prefix}/error.log`, '-p', prefix, '-c', main], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    const up = await fetch(`${url}/api/health/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (attempt > 50) throw new Error(`nginx did not start; see ${prefix}/error.log`);
    await sleep(100);
  }
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    },
  };
}
