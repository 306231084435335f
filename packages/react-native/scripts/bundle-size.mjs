#!/usr/bin/env node
// Bundle size and dependency weight of @avatar-drive/react-native.
//
// Bundle: minified ESM of the package with what it brings (client-core, core, avatars,
// @bufbuild/protobuf), its peers (react, react-native, expo-gl, expo-file-system,
// react-native-audio-api, three) external — what the SDK adds to an app's JS bundle — then gzip -9
// and brotli; and the whole react-native-web test page for scale. Metro's output differs in
// wrapping (its module wrapper, Hermes bytecode on device); the figures compare the SDK's own code.
//
// Dependency weight: the installed size (files, bytes on disk) of each peer the app installs, as
// pnpm lays it out here (npm tarball contents: JS, types, native sources; no built binaries).
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const PEERS = ['react', 'react-native', 'expo-gl', 'expo-file-system', 'react-native-audio-api', 'three'];

async function measure(label, options) {
  const result = await build({
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
    mainFields: ['module', 'main'],
    jsx: 'automatic',
    ...options,
  });
  const bytes = result.outputFiles[0].contents;
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(
    `${label.padEnd(58)} min ${kb(bytes.length).padStart(10)}  gzip ${kb(gzip).padStart(9)}  brotli ${kb(brotli).padStart(9)}`,
  );
}

const peerExternals = [...PEERS, 'react/*', 'react-native/*', 'three/*', 'expo-modules-core'];
await measure('react-native SDK + client-core + core + avatars + protobuf', {
  entryPoints: [join(root, 'src/index.ts')],
  external: peerExternals,
});
await measure('  of which @avatar-drive/react-native itself', {
  entryPoints: [join(root, 'src/index.ts')],
  external: [...peerExternals, '@avatar-drive/*', '@bufbuild/protobuf', '@bufbuild/protobuf/*'],
});
await measure('  of which the shared three.js scene (client-core/three)', {
  entryPoints: [join(root, '../client-core/src/three/index.ts')],
  external: ['three', 'three/*', '@avatar-drive/*'],
});

// The react-native-web test page: react-dom, react-native-web, expo-gl's web GLView,
// react-native-audio-api's web build, three and the SDK, minified.
// (Run through tsx: the bundling options are the test harness's TypeScript.)
const { reactNativeWebOptions } = await import('../test/web/bundle.ts');
await measure('for scale: the whole react-native-web test page', {
  ...reactNativeWebOptions(),
  entryPoints: [join(root, 'test/web/page.tsx')],
  minify: true,
  write: false,
});

function weigh(dir) {
  let files = 0;
  let bytes = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (entry.isFile()) {
        files += 1;
        bytes += statSync(path).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

console.log(
  '\npeer dependencies the app installs (package contents on disk, without their own dependencies):',
);
for (const name of PEERS) {
  const dir = realpathSync(join(root, 'node_modules', name));
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const { files, bytes } = weigh(dir);
  console.log(
    `${`${name}@${version}`.padEnd(36)} ${String(files).padStart(6)} files  ${kb(bytes).padStart(12)}`,
  );
}
