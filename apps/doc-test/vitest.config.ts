import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'doc-test',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 900_000,
  },
});
