import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'service',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Starts the real LiveKit server (scripts/livekit.sh) for the RTC egress tests.
    globalSetup: ['test/livekit-global-setup.ts'],
    // rtc-node logs at debug level unless NODE_ENV is production.
    env: { NODE_ENV: 'production' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
