import { defineConfig } from 'tsup';

// ESM only: this is a Node app, never imported by CommonJS code.
export default defineConfig({
  // engine-worker sits next to the chunks so the pool finds it at ./engine-worker.js.
  entry: { index: 'src/index.ts', main: 'src/main.ts', 'engine-worker': 'src/engine-pool/engine-worker.ts' },
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
