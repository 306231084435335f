import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  external: ['@livekit/agents', '@livekit/rtc-node', 'livekit-server-sdk', '@avatar-drive/core'],
});
