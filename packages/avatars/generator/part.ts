/** One mesh of an avatar before it becomes three.js geometry. */
import type { ArkitBlendshape } from '@avatar-drive/core';
import type { V3 } from './math.js';

/** Named materials; `materials.ts` turns each into a three.js material. */
export type MaterialKey =
  | 'skin'
  | 'lashes'
  | 'mouth'
  | 'eye'
  | 'cornea'
  | 'teeth'
  | 'tongue'
  | 'hair'
  | 'hairCards'
  | 'scalp'
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
  /**
   * For a part that can wear a baked texture: texture coordinates per vertex and the vertex
   * colours to use with the texture (they multiply it, so mostly white).
   */
  texture?: {
    uvs: [number, number][];
    colors: V3[];
    /**
     * Wear the normal map too (default true). false: base colour and occlusion/roughness only —
     * for parts whose UVs fold over themselves (an ear's front and back share texels), where
     * tangents are undefined, and which are too small or far from the face to show pores.
     */
    relief?: boolean;
  };
  /** Texture coordinates into the part's own material's texture (hair cards' strand texture). */
  uvs?: [number, number][];
  /**
   * For a mesh split at texture seams: the source vertex of each vertex. Vertices of one source
   * vertex share their normal (and morph normals), so seams shade smooth.
   */
  weld?: number[];
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

/**
 * Cuts a textured part open where its texture wraps (u jumps from 1 back to 0): every triangle
 * that spans more than half the texture gets copies of its low-u vertices shifted to u + 1 (the
 * sampler repeats, so they read the same texels), so no triangle smears the whole texture across
 * itself. The copies move with their originals in every morph target.
 */
export function splitTextureSeam(part: Part): Part {
  const texture = part.texture;
  if (!texture) return part;
  const uvs = texture.uvs.slice();
  const positions = part.positions.slice();
  const colors = part.colors.slice();
  const texColors = texture.colors.slice();
  const copies: number[] = [];
  const copyOf = new Map<number, number>();
  const indices = part.indices.slice();
  for (let t = 0; t < indices.length; t += 3) {
    const us = [0, 1, 2].map((k) => texture.uvs[indices[t + k]!]![0]);
    if (Math.max(...us) - Math.min(...us) <= 0.5) continue;
    for (let k = 0; k < 3; k++) {
      const i = indices[t + k]!;
      if (texture.uvs[i]![0] >= 0.5) continue;
      let copy = copyOf.get(i);
      if (copy === undefined) {
        copy = positions.length;
        copyOf.set(i, copy);
        copies.push(i);
        positions.push(part.positions[i]!);
        colors.push(part.colors[i]!);
        texColors.push(texture.colors[i]!);
        uvs.push([texture.uvs[i]![0] + 1, texture.uvs[i]![1]]);
      }
      indices[t + k] = copy;
    }
  }
  const targets = part.targets;
  return {
    ...part,
    positions,
    colors,
    indices,
    texture: { ...texture, uvs, colors: texColors },
    ...(targets
      ? {
          targets: (name) => {
            const deltas = targets(name);
            return deltas ? [...deltas, ...copies.map((i) => deltas[i]!)] : null;
          },
        }
      : {}),
  };
}
