#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Bundle size of @avatar-drive/client-web as an app ships it: minified ESM with its dependencies
// (@avatar-drive/client-core, @avatar-drive/core, @avatar-drive/avatars, @bufbuild/protobuf) bundled and three excluded (a peer dependency), then
// gzip -9 and brotli. The raw protobuf-es runtime alone is printed as the peer figure.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// With code splitting, as an app's bundler does: the entry file is measured, not the lazily
// imported chunks (local mode's engine), which are measured on their own below.
async function measure(label, options) {
  const result = await build({
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
    splitting: true,
    outdir: join(root, '.size'),
    entryNames: 'entry',
    chunkNames: 'chunks/[name]-[hash]',
    ...options,
  });
  const bytes = result.outputFiles.find((f) => /[\\/]entry\.js$/.test(f.path)).contents;
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `${label.padEnd(52)} min ${kb(bytes.length).padStart(10)}  gzip ${kb(gzip).padStart(9)}  brotli ${kb(brotli).padStart(9)}`,
  );
  return { min: bytes.length, gzip, brotli };
}

await measure('standalone browser module (three included)', {
  entryPoints: [join(root, 'src/index.ts')],
});
await measure('client-web + client-core + core + avatars + protobuf (no three)', {
  entryPoints: [join(root, 'src/index.ts')],
  external: ['three', 'three/*'],
});
await measure('  of which client-web itself (deps external)', {
  entryPoints: [join(root, 'src/index.ts')],
  external: [
    'three',
    'three/*',
    '@avatar-drive/client-core',
    '@avatar-drive/core',
    '@avatar-drive/avatars',
    '@bufbuild/protobuf',
  ],
});
await measure("local mode's engine chunk (engine + weights, lazy)", {
  entryPoints: [join(root, 'src/gen/engine-worker-source.ts')],
});
await measure('  the worker script itself (dist/engine-worker.js)', {
  stdin: {
    contents: (await import('node:fs')).readFileSync(join(root, 'dist/engine-worker.js'), 'utf8'),
    loader: 'js',
  },
  bundle: false,
  splitting: false,
});
await measure('  of which client-core (core external)', {
  entryPoints: [join(root, '../client-core/src/index.ts')],
  external: ['@avatar-drive/core', '@bufbuild/protobuf'],
});
await measure('peer: @bufbuild/protobuf runtime alone', {
  stdin: {
    contents: "export * from '@bufbuild/protobuf'; export * from '@bufbuild/protobuf/wire';",
    resolveDir: join(root, '../core'),
  },
});
await measure('for scale: three (core build, what the view imports)', {
  stdin: {
    contents:
      "export * from 'three'; export { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'; export { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';",
    resolveDir: root,
  },
});
