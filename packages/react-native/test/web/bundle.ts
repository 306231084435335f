/**
 * Bundles the react-native-web test page with esbuild the way a React Native web build resolves
 * modules: `react-native` → react-native-web, `.web.*` files first (expo-gl's GLView.web,
 * react-native-audio-api's api.web), React Native's globals defined. The one stand-in is
 * expo-file-system, which has no web implementation (see expo-file-system.web.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** esbuild options that resolve a React Native module graph for the browser. */
export function reactNativeWebOptions(): BuildOptions {
  return {
    // esbuild resolves alias targets from the working directory: this package's, whatever the caller's.
    absWorkingDir: join(here, '../..'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    resolveExtensions: ['.web.tsx', '.web.ts', '.web.js', '.tsx', '.ts', '.jsx', '.js', '.json'],
    mainFields: ['browser', 'module', 'main'],
    alias: {
      'react-native': 'react-native-web',
      'expo-file-system': join(here, 'expo-file-system.web.ts'),
    },
    define: {
      __DEV__: 'false',
      'process.env.NODE_ENV': '"production"',
      'process.env.EXPO_OS': '"web"',
      global: 'globalThis',
    },
    jsx: 'automatic',
    // Images (react-native-audio-api's player icons) become data URLs, as a web bundler's asset step would.
    loader: { '.js': 'jsx', '.png': 'dataurl' },
    logLevel: 'silent',
  };
}

let pagePromise: Promise<string> | undefined;

/** The test page (test/web/page.tsx with the package's source), bundled once per process. */
export function pageBundle(): Promise<string> {
  pagePromise ??= build({
    ...reactNativeWebOptions(),
    entryPoints: [join(here, 'page.tsx')],
    write: false,
    sourcemap: 'inline',
  }).then((result) => result.outputFiles![0]!.text);
  return pagePromise;
}
