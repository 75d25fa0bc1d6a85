import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A fork per core. Each file's work is done in its fork (embedded PGlite) or by the database
    // server, so Vitest's default of one core fewer, for its main process, ran the files one at a time
    // on two cores.
    maxWorkers: availableParallelism(),
    // The files of a fork share its loaded modules rather than each loading the app anew (a third of
    // the run's time). Every file builds its own app on its own database, so what they share is code;
    // the one file that mocks a module (http/probe.test.ts) loads its modules afresh.
    isolate: false,
  },
});
