/**
 * The head-and-shoulders bust cut from the hm08 base mesh: the skin (body faces above the
 * chest), and the helper meshes the Face Units targets move with the face (tongue, lower and
 * upper teeth, eyelash strips), each with its 52 ARKit targets from the Face Units files. The
 * rest of the body and its helper geometry (tights, skirt, hair proxy, joint cubes, genitals) is
 * dropped.
 */
import type { ArkitBlendshape } from '@avatar-drive/core';
import type { V3 } from '../math.js';
import type { ObjFace, ObjMesh, Target } from './hm08.js';

/** hm08 decimetres → metres, placed like the procedural built-ins (eyes ≈ 1.6 m, eyes at z ≈ 7.5 cm). */
export const UNIT = 0.1;
export const OFFSET: V3 = [0, 0.87, -0.05];
export const toWorld = (p: V3): V3 => [
  p[0] * UNIT + OFFSET[0],
  p[1] * UNIT + OFFSET[1],
  p[2] * UNIT + OFFSET[2],
];

/**
 * The chest cut (hm08 decimetres): faces with every vertex above this height and inside the
 * shoulder width stay. It sits below the collarbones and keeps the shoulders' round.
 */
const CUT_Y = 4.7;
const CUT_HALF_WIDTH = 2.2;

/** A mesh cut from the OBJ: its triangles over its own vertex list, with the OBJ vertex of each. */
export interface Piece {
  /** OBJ vertex index of each of this piece's vertices (several share one where the UVs split). */
  source: number[];
  /** OBJ texture-coordinate index of each vertex (-1 when the group has none). */
  uvSource: number[];
  /** Triangles over this piece's vertices, counter-clockwise from outside (as the OBJ winds them). */
  indices: number[];
}

/** Cuts `faces` (quads split along a diagonal) into a piece; vertices split where the UVs do. */
export function pieceOf(faces: readonly ObjFace[], splitByUv: boolean): Piece {
  const source: number[] = [];
  const uvSource: number[] = [];
  const slot = new Map<string, number>();
  const indices: number[] = [];
  const vertex = (v: number, vt: number): number => {
    const key = splitByUv ? `${v}/${vt}` : `${v}`;
    let i = slot.get(key);
    if (i === undefined) {
      i = source.length;
      slot.set(key, i);
      source.push(v);
      uvSource.push(splitByUv ? vt : -1);
    }
    return i;
  };
  for (const f of faces) {
    const ids = f.v.map((v, k) => vertex(v, f.vt[k]!));
    for (let k = 1; k + 1 < ids.length; k++) indices.push(ids[0]!, ids[k]!, ids[k + 1]!);
  }
  return { source, uvSource, indices };
}

/** The bust's skin faces: body faces above the chest cut and inside the shoulders. */
export function skinFaces(obj: ObjMesh): ObjFace[] {
  return obj.faces.filter(
    (f) =>
      f.group === 'body' &&
      f.v.every((v) => {
        const p = obj.positions[v]!;
        return p[1] > CUT_Y && Math.abs(p[0]) < CUT_HALF_WIDTH;
      }),
  );
}

/** The faces of one OBJ group. */
export const groupFaces = (obj: ObjMesh, group: string): ObjFace[] =>
  obj.faces.filter((f) => f.group === group);

/** The centre and radius of a helper group's vertices (the eyeball proxies are spheres). */
export function sphereOf(obj: ObjMesh, group: string): { centre: V3; radius: number } {
  const vs = [...new Set(groupFaces(obj, group).flatMap((f) => f.v))].map((v) => toWorld(obj.positions[v]!));
  const centre: V3 = [0, 1, 2].map((k) => vs.reduce((s, p) => s + p[k]!, 0) / vs.length) as V3;
  const radius =
    vs.reduce((s, p) => s + Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]), 0) / vs.length;
  return { centre, radius };
}

/**
 * The Face Units deltas of a piece's vertices (metres), per ARKit name; null where the target does
 * not move the piece. `offset` is subtracted from nothing (deltas are translation-free).
 */
export function pieceTargets(
  piece: Piece,
  targets: ReadonlyMap<ArkitBlendshape, Target>,
): (name: ArkitBlendshape) => V3[] | null {
  return (name) => {
    const target = targets.get(name);
    if (!target) throw new Error(`no Face Units target ${name}`);
    let moved = false;
    const out = piece.source.map((v): V3 => {
      const d = target.get(v);
      if (!d) return [0, 0, 0];
      moved = true;
      return [d[0] * UNIT, d[1] * UNIT, d[2] * UNIT];
    });
    return moved ? out : null;
  };
}
