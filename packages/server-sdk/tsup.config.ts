import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'node',
  },
  {
    // The deprecated browser subpath (RelayClient moved to client-core): re-exports only; no ws, no node: modules.
    entry: ['src/relay-client.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'browser',
    external: ['@avatar-drive/core', '@avatar-drive/client-core'],
  },
]);
