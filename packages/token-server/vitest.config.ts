import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'token-server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/livekit-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
