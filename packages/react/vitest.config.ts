import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'react',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
  esbuild: { jsx: 'automatic' },
});
