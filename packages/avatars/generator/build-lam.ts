/**
 * Writes a LAM "arkitWithBSData" avatar zip made from a built-in (test data for the splat view and
 * the upload path; not committed): `pnpm --filter @avatar-drive/avatars build:lam [id] [out.zip]`,
 * default `juno` into `dist/<id>-lam.zip`. Takes any built-in GLB under dist/.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLamZip } from './lam/build-lam.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

async function main(): Promise<void> {
  const id = process.argv[2] ?? 'juno';
  const out = process.argv[3] ?? join(dist, `${id}-lam.zip`);
  const started = performance.now();
  const zip = await buildLamZip(new Uint8Array(await readFile(join(dist, id, 'avatar.glb'))));
  await writeFile(out, zip);
  console.log(
    `lam: ${out} ${(zip.byteLength / 1024).toFixed(0)} KiB in ${(performance.now() - started).toFixed(0)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
