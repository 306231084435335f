/**
 * Hair cards: a lock as a thin, slightly arched strip lying along the scalp that wears the strand
 * texture (strands.ts) — its alpha cuts out the strands and ragged tips, so layered cards
 * read as hair with depth instead of one surface with grooves. The card follows the same
 * centreline samples as a tube lock (locks.ts).
 */

import type { FaceLayout } from '../layout.js';
import { add, scale, type V3 } from '../math.js';
import { gridIndices, type Part } from '../part.js';
import { faceTowards, type LockPoint, lockFrame } from './locks.js';
import { type HairShape, hairSurface, slerpDir } from './shape.js';
import { LOCK_STRIP, WISP_STRIP } from './strands.js';

/** Vertices across a card: edges and an arched middle, so it shades round, not flat. */
const ACROSS = 3;

/** The mesh arrays cards are appended to. */
export interface CardMesh {
  positions: V3[];
  colors: V3[];
  uvs: [number, number][];
  indices: number[];
}

/**
 * Appends one card along `points` (root first). `u0..u1` is the slice of the strand texture it
 * wears across its width (cards wear different slices, so neighbours do not repeat); `v1` how far
 * down the texture its tip reaches (less than 1: only the longer strands reach the tip);
 * `vPower` > 1 spends more of the card on the texture's solid root half and keeps the frayed
 * tips to the card's end (a long card otherwise thins out over a third of its length).
 */
export function appendCard(
  points: readonly LockPoint[],
  u0: number,
  u1: number,
  mesh: CardMesh,
  v1 = 1,
  vPower = 1,
): void {
  const start = mesh.positions.length;
  for (let i = 0; i < points.length; i++) {
    const { p, width, thickness, color } = points[i]!;
    const { side, normal } = lockFrame(points, i);
    const v = v1 * (i / (points.length - 1)) ** vPower;
    for (let j = 0; j < ACROSS; j++) {
      const s = (2 * j) / (ACROSS - 1) - 1;
      // The middle stands off the scalp by the lock's thickness; the edges rest closer to it.
      const lift = thickness * (1 - s * s);
      mesh.positions.push(add(p, add(scale(side, width * s), scale(normal, lift))));
      mesh.colors.push(color);
      mesh.uvs.push([u0 + ((u1 - u0) * (s + 1)) / 2, v]);
    }
  }
  const grid = gridIndices(points.length, ACROSS, false, start);
  // Front faces look away from the scalp (the material is single-sided: the side seen from outside).
  faceTowards(grid, mesh.positions, points[0]!.up);
  mesh.indices.push(...grid);
}

/** Samples along a loose strand. */
const WISP_SAMPLES = 10;

/**
 * Appends one loose strand (a flyaway or a wisp): a narrow card in the texture's wisp strip along
 * the arc from direction `start` to `end`, standing `lift(k)` off the hair's base surface at
 * fraction `k` of its length.
 */
export function appendWisp(
  layout: FaceLayout,
  shape: HairShape,
  arc: { start: V3; end: V3 },
  lift: (k: number) => number,
  look: { width: number; color: V3 },
  mesh: CardMesh,
): void {
  const points: LockPoint[] = [];
  for (let s = 0; s < WISP_SAMPLES; s++) {
    const k = s / (WISP_SAMPLES - 1);
    const dir = slerpDir(arc.start, arc.end, k);
    points.push({ p: hairSurface(layout, shape, dir, lift(k)), up: dir, thickness: 0.0002, ...look });
  }
  appendCard(points, WISP_STRIP[0], WISP_STRIP[1], mesh, 0.9);
}

/** A slice of the lock strip for one card (half the strip wide, at a random offset). */
export function lockSlice(rand: () => number): [number, number] {
  const [a, b] = LOCK_STRIP;
  const u0 = a + (b - a) * 0.5 * rand();
  return [u0, u0 + (b - a) * 0.5];
}

/** The cards appended to `mesh` as the avatar's `HairCards` part. */
export function cardsPart(mesh: CardMesh): Part {
  const { positions, colors, indices, uvs } = mesh;
  return { name: 'HairCards', material: 'hairCards', positions, colors, indices, uvs };
}
