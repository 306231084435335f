/**
 * Writes the sample avatars (VRM 1.0, VRM 0.x, Ready Player Me–style GLB) into `samples/`, where
 * they are committed: `pnpm --filter @avatar-drive/avatars build:samples`. The avatars test checks
 * that a rebuild gives the committed bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SAMPLES } from './samples/build.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples');

async function main(): Promise<void> {
  await mkdir(out, { recursive: true });
  for (const [file, build] of Object.entries(SAMPLES)) {
    const started = performance.now();
    const bytes = await build();
    await writeFile(join(out, file), bytes);
    const ms = (performance.now() - started).toFixed(0);
    console.log(`samples: ${file} ${(bytes.byteLength / 1024).toFixed(0)} KiB in ${ms} ms`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
