import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Starts the real LiveKit server (scripts/livekit.sh) unless LIVEKIT_URL points at one.
    globalSetup: ['test/support/livekit-global-setup.ts'],
    // rtc-node logs at debug level unless NODE_ENV is production.
    env: { NODE_ENV: 'production' },
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // One browser and one room server on 2 shared cores: files run one at a time.
    fileParallelism: false,
  },
});
