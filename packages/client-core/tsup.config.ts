import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'three/index': 'src/three/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['@avatar-drive/core', '@pixiv/three-vrm', '@sparkjsdev/spark', 'three', /^three\//],
});
