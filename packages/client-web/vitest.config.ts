import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'client-web',
    include: ['test/**/*.test.ts'],
    environment: 'happy-dom',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
