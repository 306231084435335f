import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'agent-plugin',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    env: { NODE_ENV: 'production' },
  },
});
