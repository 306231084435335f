import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    // expo-file-system has no implementation off-device: unit tests use the web harness's stand-in.
    alias: {
      'expo-file-system': fileURLToPath(new URL('./test/web/expo-file-system.web.ts', import.meta.url)),
    },
  },
  test: {
    name: 'react-native',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
