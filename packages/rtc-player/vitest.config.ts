import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'rtc-player',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
