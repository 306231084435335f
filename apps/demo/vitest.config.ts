import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'demo',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
