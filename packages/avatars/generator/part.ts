/** One mesh of an avatar before it becomes three.js geometry. */
import type { ArkitBlendshape } from '@avatar-drive/core';
import type { V3 } from './math.js';

/** Named materials; `materials.ts` turns each into a three.js material. */
export type MaterialKey =
  | 'skin'
  | 'mouth'
  | 'eye'
  | 'teeth'
  | 'tongue'
  | 'hair'
  | 'brows'
  | 'cloth'
  | 'collar';

/**
 * How one vertex follows the face rig: weights the morph fields read. `jaw`: follows the lower jaw;
 * `lip`: inside the mouth region; `edge`: on the lip vermilion or its inner roll.
 */
export interface VertexRig {
  jaw: number;
  lip: number;
  edge: number;
  /** Rigid with the jaw (lower teeth, tongue): only jaw motion applies. */
  rigid?: boolean;
}

export interface Part {
  name: string;
  material: MaterialKey;
  positions: V3[];
  /** Linear RGB per vertex. */
  colors: V3[];
  /** Triangles, counter-clockwise seen from outside. */
  indices: number[];
  /**
   * Displacement of every vertex at weight 1 of a blendshape, or null when the part does not move.
   * Parts without `targets` are static and carry no morph targets.
   */
  targets?: (name: ArkitBlendshape) => V3[] | null;
}

/** Triangulates a grid of `rows × cols` vertices (row-major); `wrap` joins the last column to the first. */
export function gridIndices(rows: number, cols: number, wrap: boolean, offset = 0): number[] {
  const out: number[] = [];
  const colCount = wrap ? cols : cols - 1;
  for (let r = 0; r < rows - 1; r++) {
    for (let c = 0; c < colCount; c++) {
      const c1 = (c + 1) % cols;
      const a = offset + r * cols + c;
      const b = offset + r * cols + c1;
      const d = offset + (r + 1) * cols + c;
      const e = offset + (r + 1) * cols + c1;
      out.push(a, d, b, b, d, e);
    }
  }
  return out;
}

/** Fan from a pole vertex to a ring (ring vertices consecutive, wrapping). */
export function fanIndices(pole: number, ringStart: number, count: number, flip: boolean): number[] {
  const out: number[] = [];
  for (let c = 0; c < count; c++) {
    const a = ringStart + c;
    const b = ringStart + ((c + 1) % count);
    if (flip) out.push(pole, b, a);
    else out.push(pole, a, b);
  }
  return out;
}

/**
 * Makes a consistently wound triangle list face away from `inside`, judged on one triangle
 * (`probe`, default the middle one) well inside the surface.
 */
export function orientAway(positions: V3[], indices: number[], inside: V3, probe?: number): number[] {
  const t = 3 * (probe ?? Math.floor(indices.length / 6));
  const a = positions[indices[t]!]!;
  const b = positions[indices[t + 1]!]!;
  const c = positions[indices[t + 2]!]!;
  const e1: V3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const e2: V3 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const n: V3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  const out: V3 = [a[0] - inside[0], a[1] - inside[1], a[2] - inside[2]];
  if (n[0] * out[0] + n[1] * out[1] + n[2] * out[2] >= 0) return indices;
  const flipped = indices.slice();
  for (let i = 0; i < flipped.length; i += 3) {
    const x = flipped[i + 1]!;
    flipped[i + 1] = flipped[i + 2]!;
    flipped[i + 2] = x;
  }
  return flipped;
}
