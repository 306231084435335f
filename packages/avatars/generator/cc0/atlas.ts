/**
 * A texture atlas for the bust: the hm08 UV layout spreads the head, ears and neck over a body
 * texture, so the bust's islands are cut out and packed into one square at an even texel density
 * (the face island denser), rows of islands side by side (shelf packing), with a gutter between.
 */
import type { V3 } from '../math.js';
import type { Piece } from './bust.js';

export interface AtlasIsland {
  /** The piece's vertices in this island. */
  vertices: number[];
  /** Placement: atlas uv = offset + scale · (source uv − min), source uv with v down the image. */
  min: [number, number];
  scale: number;
  offset: [number, number];
}

/** Gutter between islands, as a fraction of the atlas side (mip levels must not bleed). */
const GUTTER = 0.006;

/**
 * Packs the islands of `piece` (by shared texture coordinates). `sourceUv` gives each vertex's
 * OBJ texture coordinate (v = 0 at the image bottom); `weight(island centre)` scales an island's
 * density (2: twice the texels per metre across it). Returns the atlas uv of each vertex (glTF:
 * v down the image).
 */
export function packAtlas(
  piece: Piece,
  positions: readonly V3[],
  sourceUv: (vertex: number) => [number, number],
  weight: (centre: V3) => number,
): { uvs: [number, number][]; islands: AtlasIsland[] } {
  const n = piece.source.length;
  // Islands: vertices joined by triangles (the piece's vertices are already split at UV seams).
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const idx = piece.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const a = find(idx[t]!);
    parent[find(idx[t + 1]!)] = a;
    parent[find(idx[t + 2]!)] = a;
  }
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    if (!byRoot.has(r)) byRoot.set(r, []);
    byRoot.get(r)!.push(i);
  }
  const uv = (i: number): [number, number] => {
    const [u, v] = sourceUv(i);
    return [u, 1 - v];
  };
  // Per island: bounding box, and the density that makes a texel cover the same skin everywhere.
  const area3 = new Map<number, number>();
  const areaUv = new Map<number, number>();
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t]!, idx[t + 1]!, idx[t + 2]!];
    const r = find(a);
    const [pa, pb, pc] = [positions[a]!, positions[b]!, positions[c]!];
    const e1: V3 = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    const e2: V3 = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
    const cx = e1[1] * e2[2] - e1[2] * e2[1];
    const cy = e1[2] * e2[0] - e1[0] * e2[2];
    const cz = e1[0] * e2[1] - e1[1] * e2[0];
    area3.set(r, (area3.get(r) ?? 0) + Math.hypot(cx, cy, cz) / 2);
    const [ua, ub, uc] = [uv(a), uv(b), uv(c)];
    const auv = Math.abs((ub[0] - ua[0]) * (uc[1] - ua[1]) - (uc[0] - ua[0]) * (ub[1] - ua[1])) / 2;
    areaUv.set(r, (areaUv.get(r) ?? 0) + auv);
  }
  const islands = [...byRoot.entries()]
    .map(([root, vertices]) => {
      const us = vertices.map((i) => uv(i));
      const min: [number, number] = [Math.min(...us.map((p) => p[0])), Math.min(...us.map((p) => p[1]))];
      const max: [number, number] = [Math.max(...us.map((p) => p[0])), Math.max(...us.map((p) => p[1]))];
      const centre: V3 = [0, 1, 2].map(
        (k) => vertices.reduce((s, i) => s + positions[i]![k]!, 0) / vertices.length,
      ) as V3;
      const density =
        Math.sqrt((area3.get(root) ?? 0) / Math.max(1e-12, areaUv.get(root) ?? 0)) * weight(centre);
      return { vertices, min, size: [max[0] - min[0], max[1] - min[1]] as [number, number], density };
    })
    // Deterministic order: tallest first, then by position in the source layout.
    .sort(
      (a, b) => b.size[1] * b.density - a.size[1] * a.density || a.min[0] - b.min[0] || a.min[1] - b.min[1],
    );
  // The largest global scale at which the shelves fit in the unit square (bisection).
  const place = (g: number): [number, number][] | null => {
    const out: [number, number][] = [];
    let x = GUTTER;
    let y = GUTTER;
    let row = 0;
    for (const island of islands) {
      const w = island.size[0] * island.density * g;
      const h = island.size[1] * island.density * g;
      if (x + w + GUTTER > 1) {
        x = GUTTER;
        y += row + GUTTER;
        row = 0;
      }
      if (x + w + GUTTER > 1 || y + h + GUTTER > 1) return null;
      out.push([x, y]);
      x += w + GUTTER;
      row = Math.max(row, h);
    }
    return out;
  };
  let lo = 0;
  let hi = 1e3;
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    if (place(mid)) lo = mid;
    else hi = mid;
  }
  const offsets = place(lo)!;
  const uvs: [number, number][] = new Array(n);
  const placed: AtlasIsland[] = islands.map((island, k) => {
    const scale = island.density * lo;
    const offset = offsets[k]!;
    for (const i of island.vertices) {
      const [u, v] = uv(i);
      uvs[i] = [offset[0] + (u - island.min[0]) * scale, offset[1] + (v - island.min[1]) * scale];
    }
    return { vertices: island.vertices, min: island.min, scale, offset };
  });
  return { uvs, islands: placed };
}
