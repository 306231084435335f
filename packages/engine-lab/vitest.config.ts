import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'engine-lab',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
