import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('configuration', () => {
  it('generates a JWT secret once and keeps it in the data directory', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'coverdesk-config-'));
    dirs.push(dataDir);
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(Buffer.from(first.jwtSecret).toString()).toBe(
      readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8'),
    );
    expect(second.jwtSecret).toEqual(first.jwtSecret);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(64);
  });

  it('prefers JWT_SECRET and reads the other settings from the environment', () => {
    const config = loadConfig({
      DATA_DIR: '/unused',
      JWT_SECRET: 'a-long-configured-secret',
      PORT: '9090',
      ADMIN_EMAILS: ' Ops@Example.com, ,boss@example.com',
      APP_URL: 'https://app.coverdesk.example/',
      DEMO_ENABLED: 'false',
    });
    expect(Buffer.from(config.jwtSecret).toString()).toBe('a-long-configured-secret');
    expect(config.port).toBe(9090);
    expect(config.adminEmails).toEqual(['ops@example.com', 'boss@example.com']);
    expect(config.appUrl).toBe('https://app.coverdesk.example');
    expect(config.demoEnabled).toBe(false);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('refuses a port that is not one', () => {
    expect(() => loadConfig({ DATA_DIR: '/unused', JWT_SECRET: 'x', PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('keeps listening 2 seconds after a stop signal unless told otherwise, and never past 15', () => {
    const base = { DATA_DIR: '/unused', JWT_SECRET: 'x' };
    expect(loadConfig(base).shutdownDelaySeconds).toBe(2);
    expect(loadConfig({ ...base, SHUTDOWN_DELAY_SECONDS: '0' }).shutdownDelaySeconds).toBe(0);
    expect(loadConfig({ ...base, SHUTDOWN_DELAY_SECONDS: '7.5' }).shutdownDelaySeconds).toBe(7.5);
    expect(() => loadConfig({ ...base, SHUTDOWN_DELAY_SECONDS: '20' })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
    expect(() => loadConfig({ ...base, SHUTDOWN_DELAY_SECONDS: 'soon' })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
  });

  it("serves metrics only when METRICS_PORT is set, and never on the app's port", () => {
    const base = { DATA_DIR: '/unused', JWT_SECRET: 'x', PORT: '8080' };
    expect(loadConfig(base).metricsPort).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ ...base, METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ ...base, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ ...base, METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ DATA_DIR: '/unused', JWT_SECRET: 'x', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
  });

  it('allows 10 registrations an hour from one address unless told otherwise', () => {
    const base = { DATA_DIR: '/unused', JWT_SECRET: 'x' };
    expect(loadConfig(base).registrationsPerHour).toBe(10);
    expect(loadConfig({ ...base, REGISTRATIONS_PER_HOUR: '50' }).registrationsPerHour).toBe(50);
    expect(() => loadConfig({ ...base, REGISTRATIONS_PER_HOUR: '0' })).toThrow(/REGISTRATIONS_PER_HOUR/);
  });

  it('believes no X-Forwarded-For entry unless told how many proxies are in front, or which', () => {
    const base = { DATA_DIR: '/unused', JWT_SECRET: 'x' };
    const trustProxy = (value: string) => loadConfig({ ...base, TRUST_PROXY: value }).trustProxy;
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('0')).toBe(false);
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(' 2 ')).toBe(2);
    expect(trustProxy('10.0.0.5, 10.1.0.0/16,loopback, FD00::/8')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'loopback',
      'fd00::/8',
    ]);
  });

  it('refuses TRUST_PROXY=true, naming the settings that replace it', () => {
    const base = { DATA_DIR: '/unused', JWT_SECRET: 'x' };
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true .*number of proxies .*\(1 behind one reverse proxy.*addresses/,
    );
  });

  it('refuses proxy addresses it cannot read, and a range that holds every client', () => {
    const base = { DATA_DIR: '/unused', JWT_SECRET: 'x' };
    for (const value of [
      'yes',
      '10.0.0',
      '10.0.0.0/33',
      '10.0.0.0/0',
      '::/0',
      '10.0.0.0/8/8',
      '1,10.0.0.1',
    ]) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.1,nginx' })).toThrow(/got "nginx"/);
  });

  it('reads the settings encryption key as 32 bytes in hex or base64, and refuses anything weaker', () => {
    const base = { DATA_DIR: '/unused', JWT_SECRET: 'x' };
    const key = Buffer.alloc(32, 7);
    expect(loadConfig(base).settingsEncryptionKey).toBeUndefined();
    expect(
      loadConfig({ ...base, SETTINGS_ENCRYPTION_KEY: key.toString('hex') }).settingsEncryptionKey,
    ).toEqual(key);
    expect(
      loadConfig({ ...base, SETTINGS_ENCRYPTION_KEY: key.toString('base64') }).settingsEncryptionKey,
    ).toEqual(key);
    expect(() => loadConfig({ ...base, SETTINGS_ENCRYPTION_KEY: 'secret' })).toThrow(
      /SETTINGS_ENCRYPTION_KEY/,
    );
    expect(() => loadConfig({ ...base, SETTINGS_ENCRYPTION_KEY: 'ab'.repeat(16) })).toThrow(/32 bytes/);
  });
});
