import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'react-native',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
