import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_HOST, APP_HOST } from './environment.js';

// The built app (`npm run build`), once per worker, each on a fresh embedded database of its own: the
// embedded database runs one query at a time, so two workers on one server waited on each other's
// heavy work (the demo's PDF export, a dashboard of the agency's figures on every sign-in) past their
// timeouts. Worker k has the app on E2E_PORT + 10k, its mail catcher's SMTP on the next port and the
// catcher's HTTP on the one after (see mail-catcher.ts). The runner and its workers load this file
// separately; the environment carries the runner's choices to the workers, and Playwright's
// TEST_PARALLEL_INDEX tells a worker which server is its own.
process.env.E2E_BASE_PORT ??= process.env.E2E_PORT ?? String(12_000 + 10 * Math.floor(Math.random() * 300));
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'coverdesk-e2e-'));
// A worker a core, at most two, unless E2E_WORKERS says otherwise. On a quiet two-core machine two
// workers ran the 257 tests in 13.9 min against 18.6 with one, none slower past its waits (much of a
// test is waiting on its server or the browser, which the other worker fills); with other builds and
// tests sharing the machine (load 10 to 30) they starved each other, so E2E_WORKERS=1 there.
const WORKERS = Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism()));
const basePort = Number(process.env.E2E_BASE_PORT);
const portsOf = (worker: number) => {
  const app = basePort + 10 * worker;
  return { app, smtp: app + 1, mail: app + 2 };
};
const own = portsOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
/** This worker's server, and where its tests read the email the app sent. */
process.env.E2E_PORT = String(own.app);
process.env.E2E_SMTP_PORT = String(own.smtp);
process.env.E2E_MAIL_URL = `http://127.0.0.1:${own.mail}`;
const baseURL = `http://127.0.0.1:${own.app}`;

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
  // Each worker with a server of its own (above).
  workers: WORKERS,
  retries: 0,
  // The browser and the server share two cores: a screen's first load, with its chunk compiled cold,
  // can take longer than Playwright's default 5 s wait on a busy machine without anything being wrong.
  expect: { timeout: 10_000 },
  // Besides the console's list, every test's time in a file the stage table reads for the slowest
  // tests (scripts/stages.sh).
  reporter: [
    ['list'],
    ['json', { outputFile: '../reports/browser-tests.json' }],
    ...(process.env.CI ? [] : [['html', { open: 'never' }] as const]),
  ],
  // Reduced motion, which the app honours: the accessibility checks see toasts and dialogs at rest,
  // never half faded in or out.
  //
  // A trace records every step's page and screenshot, which took a third of the suite's time; it is
  // kept for a failed test only when asked for (E2E_TRACE=1 npx playwright test the-failing.spec.ts).
  use: {
    baseURL,
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    reducedMotion: 'reduce',
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions: chromium },
    },
    {
      // A phone runs what differs on a phone (its layout, menus, drawers, cards and its own screens)
      // and a visit of every screen, rather than every desktop journey again: the tests whose title
      // carries @phone (docs/testing.md lists what the desk alone covers).
      name: 'mobile',
      grep: /@phone/,
      use: {
        ...devices['Pixel 7'],
        viewport: { width: 390, height: 844 },
        launchOptions: chromium,
      },
    },
  ],
  webServer: Array.from({ length: WORKERS }, (_, worker) => {
    const ports = portsOf(worker);
    const url = `http://127.0.0.1:${ports.app}`;
    const servers: PlaywrightTestConfig['webServer'] = [
      {
        command: 'npx tsx mail-catcher.ts',
        url: `http://127.0.0.1:${ports.mail}/messages`,
        reuseExistingServer: false,
        env: { SMTP_PORT: String(ports.smtp), HTTP_PORT: String(ports.mail) },
      },
      {
        command: 'node ../api/dist/main.js',
        url: `${url}/api/health/`,
        reuseExistingServer: false,
        timeout: 120_000,
        env: {
          PORT: String(ports.app),
          HOST: '127.0.0.1',
          DATA_DIR: path.join(process.env.E2E_DATA_DIR ?? '', `worker-${worker}`),
          APP_URL: url,
          LOG_LEVEL: 'warn',
          DATABASE_URL: '',
          SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
          ADMIN_EMAILS: ADMIN_EMAIL,
          // The admin portal's tests sign in with the password alone; the API tests hold the gate.
          ADMIN_MFA_REQUIRED: 'false',
          // Lets the admin setup screens save secrets (a key for these tests only).
          SETTINGS_ENCRYPTION_KEY: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0',
          // Every test registers its agency from this one machine.
          REGISTRATIONS_PER_HOUR: '100000',
          // Every test registers an agency, and many sign in: passwords hashed at a test run's cost
          // (api/src/modules/accounts/passwords.ts), a fraction of the real one's 20 ms of CPU each.
          PASSWORD_HASH_COST: 'test',
        },
      },
    ];
    return servers;
  }).flat(),
});
