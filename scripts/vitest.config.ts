import { defineProject } from 'vitest/config';

// The repo's own tooling (scripts/): the dependency checks.
export default defineProject({
  test: {
    name: 'scripts',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
