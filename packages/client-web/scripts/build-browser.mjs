#!/usr/bin/env node
// The standalone browser bundle: one ES module with three.js, @avatar-drive/core,
// @avatar-drive/avatars and @bufbuild/protobuf inside, so a plain `<script type="module">` page
// can `import { AvatarView } from './avatar-drive.js'` with no import map and no bundler.
// Runs after tsup (whose `clean` empties dist/) as part of `build`.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist/browser/avatar-drive.js');
mkdirSync(dirname(outfile), { recursive: true });

const result = await build({
  entryPoints: [join(root, 'src/index.ts')],
  outfile,
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
const bytes =
  result.metafile.outputs[Object.keys(result.metafile.outputs).find((k) => k.endsWith('.js'))].bytes;
console.log(
  `client-web browser bundle: dist/browser/avatar-drive.js ${(bytes / 1024).toFixed(1)} KiB (minified)`,
);
