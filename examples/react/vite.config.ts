import { defineConfig } from 'vite';

// The page reads its endpoints from /demo-config.json at run time (the demo stack's server serves
// it: apps/demo/server), so one build works on any ports. JSX compiles to react/jsx-runtime.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  build: { target: 'es2022', chunkSizeWarningLimit: 1024 },
});
