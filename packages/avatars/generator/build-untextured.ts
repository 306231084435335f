/**
 * Writes the built-ins as they would be without the baked skin textures (the face in vertex
 * colours only, same geometry) to scratch/<id>-vertex-colours.glb: the peer that the client's
 * render bench (packages/client-web/scripts/bench-render.ts) compares the textured model with.
 * Not part of the build.
 *
 *   pnpm --filter @avatar-drive/avatars exec tsx generator/build-untextured.ts [id] [--hair-cards]
 *
 * `--hair-cards` keeps the hair cards and their strand texture (only the skin loses its textures),
 * written to scratch/<id>-vertex-skin-hair-cards.glb: the peer that separates the two costs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARKIT_SHAPES, buildAvatarScene } from './assemble.js';
import { exportGlb } from './export-glb.js';
import { AVATAR_STYLES } from './style.js';

const scratch = join(dirname(fileURLToPath(import.meta.url)), '..', 'scratch');
const only = process.argv.slice(2).find((a) => !a.startsWith('--'));
const hairCards = process.argv.includes('--hair-cards');
await mkdir(scratch, { recursive: true });
for (const style of AVATAR_STYLES) {
  if (only && style.id !== only) continue;
  const glb = await exportGlb(buildAvatarScene(style, ARKIT_SHAPES, { skinTextures: false, hairCards }));
  const file = join(scratch, `${style.id}-${hairCards ? 'vertex-skin-hair-cards' : 'vertex-colours'}.glb`);
  await writeFile(file, glb);
  console.log(`${file}: ${(glb.byteLength / 1024).toFixed(0)} KiB`);
}
