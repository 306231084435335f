import { defineConfig } from 'tsup';

// Metro (React Native's bundler) consumes ESM with JSX compiled; every dependency stays external.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  esbuildOptions(options) {
    options.jsx = 'automatic';
  },
  external: [
    /^@avatar-drive\//,
    'react',
    'react/jsx-runtime',
    'react-native',
    'expo-gl',
    'expo-file-system',
    'react-native-audio-api',
    'three',
    /^three\//,
  ],
});
