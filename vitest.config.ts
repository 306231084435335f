import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One root config; each package declares its own project (environment, setup files).
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'scripts/vitest.config.ts'],
    // Vitest's default is one worker per core less one: a single worker on a 2-core machine, which
    // ran the suite file after file. Most files wait on what they start (the service, Redis,
    // Chromium, LiveKit), so two run side by side even there. Projects that must run alone
    // (cluster, e2e) set `fileParallelism: false` and still do.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
