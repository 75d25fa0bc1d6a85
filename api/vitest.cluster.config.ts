import { defineConfig } from 'vitest/config';

// The multi-instance test (test/cluster): processes of the built app, nginx and PostgreSQL, one
// scenario after another on the same instances.
export default defineConfig({
  test: {
    include: ['test/cluster/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
