// Copies the Basis Universal transcoder that @avatar-drive/client-web ships (dist/basis/) into
// public/basis/, so the page can show uploaded avatars with KTX2 textures: Vite bundles the SDK
// into its own chunks, where the SDK's default path (basis/ next to its module) does not exist.
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = join(
  dirname(createRequire(import.meta.url).resolve('@avatar-drive/client-web/package.json')),
  'dist',
);
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'basis');
cpSync(join(sdk, 'basis'), out, { recursive: true });
console.log(`demo: Basis transcoder copied to ${out}`);
