#!/usr/bin/env node
// The standalone browser bundle: one ES module with three.js, @avatar-drive/core,
// @avatar-drive/avatars and @bufbuild/protobuf inside, so a plain `<script type="module">` page
// can `import { AvatarView } from './avatar-drive.js'` with no import map and no bundler.
// The on-device engine (local mode) is a separate chunk next to it, dist/browser/chunks/, loaded
// only by pages that drive locally. Runs after tsup (whose `clean` empties dist/) as part of `build`.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/browser');
mkdirSync(outdir, { recursive: true });

const result = await build({
  entryPoints: { 'avatar-drive': join(root, 'src/index.ts') },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  // Keep the licence headers of what is bundled (three.js is MIT) at the end of the file.
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  console.log(
    `client-web browser bundle: ${file.replace(/.*dist\//, 'dist/')} ${(output.bytes / 1024).toFixed(1)} KiB (minified)`,
  );
}

// The Basis Universal transcoder of the three.js this package was built with, for KTX2 textures:
// AvatarView's default ktx2TranscoderPath is the basis/ folder next to the module that runs
// (dist/index.js or dist/browser/avatar-drive.js), so both get one.
// three's exports hide package.json; its main file is build/three.cjs.
const basis = join(dirname(createRequire(import.meta.url).resolve('three')), '../examples/jsm/libs/basis');
for (const dir of [join(root, 'dist/basis'), join(outdir, 'basis')]) {
  mkdirSync(dir, { recursive: true });
  for (const file of ['basis_transcoder.js', 'basis_transcoder.wasm'])
    copyFileSync(join(basis, file), join(dir, file));
}
console.log('client-web: Basis transcoder copied to dist/basis/ and dist/browser/basis/');
