import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'service',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
