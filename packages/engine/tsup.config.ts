import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: pure TypeScript, no Node-only APIs, for Node (ESM + CJS) and bundlers.
    entry: ['src/index.ts', 'src/lab.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'es2022',
  },
  {
    // The CLI: a Node ESM executable.
    entry: ['src/cli.ts'],
    format: ['esm'],
    platform: 'node',
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
