import { defineConfig } from 'vitest/config';

// One root config; each package declares its own project (environment, setup files).
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'scripts/vitest.config.ts'],
  },
});
