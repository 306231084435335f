import { defineConfig } from 'vite';

// The page reads its endpoints from /demo-config.json at run time (served by server/demo-server.ts),
// so one build works on any ports.
export default defineConfig({
  build: { target: 'es2022', chunkSizeWarningLimit: 1024 },
});
