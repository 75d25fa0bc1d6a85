import { defineConfig } from 'vitest/config';

// The query-plan guard (test/plans): one agency's book grown on a fresh PostgreSQL database, its hot
// statements run under EXPLAIN (ANALYZE, BUFFERS). PostgreSQL only: `npm run test:plans`.
export default defineConfig({
  test: {
    include: ['test/plans/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
