import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_HOST, APP_HOST } from './environment.js';

// The built app (`npm run build`) on a fresh embedded database. The runner and its workers load this
// file separately; the environment carries the first one's choices to the others.
process.env.E2E_PORT ??= String(12_000 + Math.floor(Math.random() * 3000));
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'coverdesk-e2e-'));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
const smtpPort = port + 1000;
/** Where tests read the email the app sent (see mail-catcher.ts). */
process.env.E2E_MAIL_URL = `http://127.0.0.1:${port + 2000}`;

/** Debian's Chromium: test tools cannot download browsers of their own here. */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // The admin host and the broker app's host both point at the test server (see admin-host.spec.ts).
    `--host-resolver-rules=MAP ${ADMIN_HOST} 127.0.0.1, MAP ${APP_HOST} 127.0.0.1`,
  ],
};

export default defineConfig({
  testDir: 'tests',
  globalTeardown: './global-teardown.ts',
  fullyParallel: true,
  // One browser at a time. The embedded database runs one query at a time, and with two workers a
  // test's request waited behind the other's heavy work (the demo's PDF export, a dashboard of the
  // agency's figures on every sign-in) past its timeout on a loaded two-core machine.
  workers: 1,
  retries: 0,
  // The browser and the server share two cores: a screen's first load, with its chunk compiled cold,
  // can take longer than Playwright's default 5 s wait on a busy machine without anything being wrong.
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // Reduced motion, which the app honours: the accessibility checks see toasts and dialogs at rest,
  // never half faded in or out.
  use: { baseURL, trace: 'retain-on-failure', screenshot: 'only-on-failure', reducedMotion: 'reduce' },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions: chromium },
    },
    {
      name: 'mobile',
      use: {
        ...devices['Pixel 7'],
        viewport: { width: 390, height: 844 },
        launchOptions: chromium,
      },
    },
  ],
  webServer: [
    {
      command: 'npx tsx mail-catcher.ts',
      url: `${process.env.E2E_MAIL_URL}/messages`,
      reuseExistingServer: false,
      env: { SMTP_PORT: String(smtpPort), HTTP_PORT: String(port + 2000) },
    },
    {
      command: 'node ../api/dist/main.js',
      url: `${baseURL}/api/health/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR,
        APP_URL: baseURL,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        ADMIN_EMAILS: ADMIN_EMAIL,
        // Lets the admin setup screens save secrets (a key for these tests only).
        SETTINGS_ENCRYPTION_KEY: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0',
        // Every test registers its agency from this one machine.
        REGISTRATIONS_PER_HOUR: '100000',
      },
    },
  ],
});
