import { defineConfig } from 'tsup';

// ESM with JSX compiled to react/jsx-runtime; React, three and the SDK stay external (the app's own copies).
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'browser',
  esbuildOptions(options) {
    options.jsx = 'automatic';
  },
  external: [/^@avatar-drive\//, 'react', 'react/jsx-runtime', 'three', /^three\//],
});
