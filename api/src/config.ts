import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Where Prometheus scrapes `/metrics`; never the app's port, and no metrics server without it. */
  metricsPort: number | undefined;
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
  /**
   * The admin portal asks for a sign-in through both steps (password and an authenticator's code).
   * Off only on a laptop (ADMIN_MFA_REQUIRED=false).
   */
  adminMfaRequired: boolean;
  logLevel: string;
  /**
   * Seconds an instance told to stop keeps accepting requests, health answering 503, so a load
   * balancer stops sending before the instance stops listening.
   */
  shutdownDelaySeconds: number;
  /**
   * Which X-Forwarded-For entries to believe when throttling by address: none (false), those added by
   * the last this many proxies, or those added by proxies at these addresses, ranges or named ranges.
   */
  trustProxy: false | number | string[];
  /** Registration attempts allowed from one address per hour. */
  registrationsPerHour: number;
  /** Paddle Billing; without it billing uses the manual provider (changes apply at once). */
  paddle: PaddleConfig | undefined;
  /** Seconds before a reminder email that failed is tried again; doubled for each later try. */
  notificationRetrySeconds: number;
  /**
   * The AES-256 key that encrypts the secrets admins save (the SMTP password, Paddle's keys); without
   * it those screens refuse to save a secret.
   */
  settingsEncryptionKey: Buffer | undefined;
  /** Where documents' bytes are kept: `DATA_DIR/files` on disk, or an S3-compatible bucket. */
  files: FilesConfig;
  /** How fast a request's body must arrive, and how many uploads may be in flight at once. */
  bodies: BodiesConfig;
}

export interface BodiesConfig {
  /** Seconds a body may go without a byte; also its head start before its pace counts. */
  idleSeconds: number;
  /** Bytes a second a body must keep up, on average, after its head start. */
  minBytesPerSecond: number;
  /** Uploads (file forms) in flight at once from one address, and into one agency, per instance. */
  uploadsPerAddress: number;
  uploadsPerAgency: number;
}

/** The file store: a directory, or a bucket when `S3_BUCKET` is set. */
export type FilesConfig = { kind: 'disk'; dir: string } | ({ kind: 's3' } & S3Config);

export interface S3Config {
  bucket: string;
  /** Another S3-compatible service than AWS (MinIO, R2, a local test server); addressed by path. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

export interface PaddleConfig {
  apiKey: string;
  clientToken: string;
  webhookSecret: string;
  environment: 'sandbox' | 'production';
  /** Paddle's price ids per plan name, written onto the plans at start. */
  prices: Record<string, { monthly: string; yearly: string }>;
}

type Env = Record<string, string | undefined>;

/** Reads the configuration from the environment; the README's table lists every variable. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  const port = portNumber('PORT', env.PORT || '8080');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    metricsPort: metricsPort(env.METRICS_PORT, port),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: Number(env.DATABASE_POOL_SIZE || 10),
    jwtSecret: new TextEncoder().encode(env.JWT_SECRET || persistentSecret(dataDir)),
    adminEmails: parseList(env.ADMIN_EMAILS),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Coverdesk <no-reply@coverdesk.local>',
    appUrl: (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    demoEnabled: env.DEMO_ENABLED !== 'false',
    adminMfaRequired: env.ADMIN_MFA_REQUIRED !== 'false',
    logLevel: env.LOG_LEVEL || 'info',
    shutdownDelaySeconds: shutdownDelay(env.SHUTDOWN_DELAY_SECONDS),
    trustProxy: trustedProxies(env.TRUST_PROXY),
    registrationsPerHour: positiveInteger('REGISTRATIONS_PER_HOUR', env.REGISTRATIONS_PER_HOUR, 10),
    paddle: paddleConfig(env),
    notificationRetrySeconds: positiveInteger(
      'NOTIFICATION_RETRY_SECONDS',
      env.NOTIFICATION_RETRY_SECONDS,
      60,
    ),
    settingsEncryptionKey: encryptionKey(env.SETTINGS_ENCRYPTION_KEY),
    files: filesConfig(env, dataDir),
    bodies: {
      idleSeconds: positiveInteger('BODY_IDLE_SECONDS', env.BODY_IDLE_SECONDS, 30),
      minBytesPerSecond: positiveInteger('BODY_MIN_BYTES_PER_SECOND', env.BODY_MIN_BYTES_PER_SECOND, 1024),
      uploadsPerAddress: positiveInteger('UPLOADS_PER_ADDRESS', env.UPLOADS_PER_ADDRESS, 4),
      uploadsPerAgency: positiveInteger('UPLOADS_PER_AGENCY', env.UPLOADS_PER_AGENCY, 10),
    },
  };
}

function filesConfig(env: Env, dataDir: string): FilesConfig {
  if (!env.S3_BUCKET) return { kind: 'disk', dir: path.join(dataDir, 'files') };
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together, or neither (the SDK then finds the credentials).',
    );
  }
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId,
    secretAccessKey,
  };
}

function portNumber(name: string, value: string): number {
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number, got "${value}"`);
  }
  return port;
}

/**
 * Metrics are served apart from the app so that a proxy publishing the app never publishes them.
 * Port 0 picks a free port each time, so two zeros never meet.
 */
function metricsPort(value: string | undefined, appPort: number): number | undefined {
  if (!value) return undefined;
  const port = portNumber('METRICS_PORT', value);
  if (port !== 0 && port === appPort) {
    throw new Error(
      `METRICS_PORT must differ from PORT (${appPort}): metrics are never served on the app's port`,
    );
  }
  return port;
}

/** The ranges `@fastify/proxy-addr` knows by name: `loopback` is a proxy on the same machine. */
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY`: the number of proxies in front, or their addresses. A proxy appends the address it
 * was reached from, so the client's own address is the right-most entry no trusted proxy wrote;
 * anything to its left was written by the client.
 */
function trustedProxies(value: string | undefined): Config['trustProxy'] {
  const setting = value?.trim() ?? '';
  if (setting === '' || setting === 'false') return false;
  // `true` used to believe the left-most entry, which the client writes. Reading it as 1 would guess
  // the deployment: with no proxy the hole stays open, behind two every client shares one address
  // and its limits. A warning at start is easy to miss, so the operator says what is in front.
  if (setting === 'true') {
    throw new Error(
      'TRUST_PROXY=true would let clients choose their own address. Set the number of proxies in front of Coverdesk (1 behind one reverse proxy or load balancer) or their addresses, e.g. TRUST_PROXY=10.0.0.5,10.1.0.0/16 or loopback',
    );
  }
  if (/^\d+$/.test(setting)) return Number(setting) || false;
  const proxies = parseList(setting);
  const invalid = proxies.filter((proxy) => !NAMED_PROXY_RANGES.includes(proxy) && !isAddressOrRange(proxy));
  if (invalid.length > 0) {
    throw new Error(
      `TRUST_PROXY takes a number of proxies or their addresses (IP, CIDR range, ${NAMED_PROXY_RANGES.join(', ')}), got "${invalid.join('", "')}"`,
    );
  }
  return proxies;
}

/** An IP address, or a CIDR range narrower than everything (a `/0` would trust every client). */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits >= 1 && bits <= (version === 4 ? 32 : 128);
}

/** 32 bytes, written as 64 hex digits or in base64; anything else would be a weaker or broken key. */
function encryptionKey(value: string | undefined): Buffer | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-f]{64}$/i.test(trimmed)) key = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) key = Buffer.from(trimmed, 'base64');
  if (key?.length !== 32) {
    throw new Error(
      'SETTINGS_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64 (make one with: openssl rand -hex 32)',
    );
  }
  return key;
}

const PADDLE_VARIABLES = ['PADDLE_API_KEY', 'PADDLE_CLIENT_TOKEN', 'PADDLE_WEBHOOK_SECRET'] as const;

/** Paddle is on when its three secrets are set; some but not all is a mistake worth stopping for. */
function paddleConfig(env: Env): PaddleConfig | undefined {
  const missing = PADDLE_VARIABLES.filter((name) => !env[name]);
  if (missing.length === PADDLE_VARIABLES.length) return undefined;
  if (missing.length > 0) throw new Error(`Paddle needs ${missing.join(' and ')} as well`);
  const environment = env.PADDLE_ENVIRONMENT || 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new Error(`PADDLE_ENVIRONMENT must be sandbox or production, got "${environment}"`);
  }
  return {
    apiKey: env.PADDLE_API_KEY ?? '',
    clientToken: env.PADDLE_CLIENT_TOKEN ?? '',
    webhookSecret: env.PADDLE_WEBHOOK_SECRET ?? '',
    environment,
    prices: parsePaddlePrices(env.PADDLE_PRICES ?? ''),
  };
}

/** `starter=pri_a/pri_b,professional=pri_c/pri_d`: each plan's monthly and yearly price. */
function parsePaddlePrices(value: string): PaddleConfig['prices'] {
  const prices: PaddleConfig['prices'] = {};
  for (const entry of parseList(value)) {
    const match = /^([a-z0-9_-]+)=(pri_[a-z0-9]+)\/(pri_[a-z0-9]+)$/.exec(entry);
    if (!match?.[1] || !match[2] || !match[3]) {
      throw new Error(`PADDLE_PRICES entries read plan=monthly_price_id/yearly_price_id, got "${entry}"`);
    }
    prices[match[1]] = { monthly: match[2], yearly: match[3] };
  }
  return prices;
}

/** The whole stop must fit the 30 seconds a supervisor (Docker, Kubernetes, systemd) usually grants. */
const MAX_SHUTDOWN_DELAY_SECONDS = 15;

function shutdownDelay(value: string | undefined): number {
  if (!value) return 2;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || seconds > MAX_SHUTDOWN_DELAY_SECONDS) {
    throw new Error(
      `SHUTDOWN_DELAY_SECONDS must be a number of seconds from 0 to ${MAX_SHUTDOWN_DELAY_SECONDS}, got "${value}"`,
    );
  }
  return seconds;
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
