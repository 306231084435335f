import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // The fast codecs use TextEncoder/TextDecoder (globals in browsers and Node); the declaration
  // build sees only src/, without @types/node, so it needs the DOM lib to know them.
  dts: { compilerOptions: { lib: ['ES2022', 'DOM'] } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
