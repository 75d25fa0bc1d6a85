import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import FileTimesReporter from './test/file-times-reporter.js';

// Each file's time, for the slowest files in the stage table (scripts/stages.sh): one report per database.
const timesFile = fileURLToPath(
  new URL(
    `../reports/api-tests-${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'}.json`,
    import.meta.url,
  ),
);

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // A 50,000-line statement read and matched on PGlite takes minutes on two cores: it runs when asked
    // (`STATEMENT_LINES=50000 npx vitest run src/modules/commission-statements/large-statement.test.ts`,
    // figures in bench/README.md). Every run reads a 5,000-line one beside the probe (test/probe).
    exclude: process.env.STATEMENT_LINES ? [] : ['src/modules/commission-statements/large-statement.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // The limits catch a test that hangs. The heaviest tests (the demo's build, the probe's oversized
    // requests) take 8 to 15 s alone and passed 30 s on a two-core machine busy with other work.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A fork per core. Each file's work is done in its fork (embedded PGlite) or by the database
    // server, so Vitest's default of one core fewer, for its main process, ran the files one at a time
    // on two cores.
    maxWorkers: availableParallelism(),
    // The files of a fork share its loaded modules rather than each loading the app anew (a third of
    // the run's time). Every file builds its own app on its own database, so what they share is code;
    // the one file that mocks a module (http/probe.test.ts) loads its modules afresh.
    isolate: false,
    // Passwords hashed at a test run's cost rather than a real install's (modules/accounts/passwords.ts):
    // the files register and sign in thousands of times.
    env: { PASSWORD_HASH_COST: 'test' },
    reporters: ['default', new FileTimesReporter(timesFile)],
  },
});
