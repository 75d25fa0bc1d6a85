import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Where the embedded database and the generated JWT secret live. */
  dataDir: string;
  /** A PostgreSQL server; without it Coverdesk runs on embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** Connections per instance to the PostgreSQL server. */
  databasePoolSize: number;
  jwtSecret: Uint8Array;
  adminEmails: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The public address of the web app, used in links sent by email. */
  appUrl: string;
  demoEnabled: boolean;
  logLevel: string;
  /** Honour X-Forwarded-For from a reverse proxy when throttling by address. */
  trustProxy: boolean;
  /** Registration attempts allowed from one address per hour. */
  registrationsPerHour: number;
  /** Seconds before a reminder email that failed is tried again; doubled for each later try. */
  notificationRetrySeconds: number;
}

type Env = Record<string, string | undefined>;

/** Reads the configuration from the environment; the README's table lists every variable. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  const port = Number(env.PORT || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: Number(env.DATABASE_POOL_SIZE || 10),
    jwtSecret: new TextEncoder().encode(env.JWT_SECRET || persistentSecret(dataDir)),
    adminEmails: parseList(env.ADMIN_EMAILS),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Coverdesk <no-reply@coverdesk.local>',
    appUrl: (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    demoEnabled: env.DEMO_ENABLED !== 'false',
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === 'true',
    registrationsPerHour: positiveInteger('REGISTRATIONS_PER_HOUR', env.REGISTRATIONS_PER_HOUR, 10),
    notificationRetrySeconds: positiveInteger(
      'NOTIFICATION_RETRY_SECONDS',
      env.NOTIFICATION_RETRY_SECONDS,
      60,
    ),
  };
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new Error(`${name} must be a whole number above 0, got "${value}"`);
  }
  return number;
}

function parseList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Without JWT_SECRET a secret is generated once and kept in the data directory, so tokens survive a
 * restart on a laptop. Several instances must share JWT_SECRET instead.
 */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another process started at the same moment and wrote it first: use theirs.
      return readFileSync(file, 'utf8').trim();
    }
  }
}
