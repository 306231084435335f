import { defineConfig } from 'tsup';

// ESM only: this is a Node app, never imported by CommonJS code.
export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts', 'src/engine/engine-worker.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
