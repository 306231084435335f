import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cluster',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    // Real processes (3 service nodes, HAProxy, 3 Redis servers, 3 sentinels) per file: one file
    // at a time, so the files do not compete for the 2 cores with each other.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
