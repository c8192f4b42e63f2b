import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Embedded databases are memory-hungry; two workers suit the 2-core machines this runs on.
    maxWorkers: 2,
  },
});
