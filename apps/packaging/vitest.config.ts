import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'packaging',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
