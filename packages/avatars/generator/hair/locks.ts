/**
 * Hair locks: flattened, tapered tubes along a centreline, the unit the hair is built from (many
 * overlapping locks in layers read as hair with volume and strands, unlike one shell).
 */
import { add, cross, mix3, norm, scale, sub, type V3 } from '../math.js';
import { gridIndices } from '../part.js';

/** One sample along a lock's centreline. */
export interface LockPoint {
  p: V3;
  /** Away from the scalp at this point (the lock's thin direction). */
  up: V3;
  /** Half-width across the lock and half-thickness along `up` (metres). */
  width: number;
  thickness: number;
  /** Linear RGB at this point. */
  color: V3;
}

const AROUND = 6;

/**
 * The lock's cross-section axes at sample `i`: `side` across its width, `normal` away from the
 * scalp (both unit, perpendicular to the centreline's direction there).
 */
export function lockFrame(points: readonly LockPoint[], i: number): { side: V3; normal: V3 } {
  const next = points[Math.min(i + 1, points.length - 1)]!.p;
  const prev = points[Math.max(i - 1, 0)]!.p;
  const along = norm(sub(next, prev));
  const side = norm(cross(along, points[i]!.up));
  return { side, normal: norm(cross(side, along)) };
}

/** Flips every triangle of `grid` (in place) unless its first one already faces along `direction`. */
export function faceTowards(grid: number[], positions: readonly V3[], direction: V3): void {
  const [a, b, c] = [positions[grid[0]!]!, positions[grid[1]!]!, positions[grid[2]!]!];
  const n = cross(sub(b, a), sub(c, a));
  if (!(n[0] * direction[0] + n[1] * direction[1] + n[2] * direction[2] < 0)) return;
  for (let i = 0; i < grid.length; i += 3) {
    const t = grid[i + 1]!;
    grid[i + 1] = grid[i + 2]!;
    grid[i + 2] = t;
  }
}

/** Appends one lock to the mesh arrays (vertices, colours, triangles). */
export function appendLock(
  points: readonly LockPoint[],
  positions: V3[],
  colors: V3[],
  indices: number[],
): void {
  const start = positions.length;
  for (let i = 0; i < points.length; i++) {
    const { p, width, thickness, color } = points[i]!;
    const { side, normal } = lockFrame(points, i);
    for (let j = 0; j < AROUND; j++) {
      const a = (2 * Math.PI * j) / AROUND;
      const c = Math.cos(a);
      const s = Math.sin(a);
      positions.push(add(p, add(scale(side, width * c), scale(normal, thickness * s))));
      // The underside of a lock sits in the shade of the ones above it.
      colors.push(mix3(scale(color, 0.55), color, 0.5 + 0.5 * s));
    }
  }
  // Winding: a ring runs side → normal → −side, so (along, ring) triangles face outwards when
  // listed as gridIndices lists them; check one and flip the lot if not.
  const grid = gridIndices(points.length, AROUND, true, start);
  faceTowards(grid, positions, sub(positions[grid[0]!]!, points[0]!.p));
  indices.push(...grid);
}
