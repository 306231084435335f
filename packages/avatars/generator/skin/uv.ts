/**
 * The head's texture layout: a latitude/longitude map about the head centre, warped so texels
 * crowd onto the face (front of the head, eye-to-chin band) and thin out at the back and crown,
 * which the hair covers. Vertices get their UV from the direction they were generated along, and
 * the bake walks the same map backwards (texel → direction → skin point), so both agree exactly.
 */
import type { V3 } from '../math.js';

/** How much denser the texels are at the centre of each axis than on average (0: plain lat/long). */
const CROWD_U = 0.6;
const CROWD_V = 0.5;
/** Where the vertical crowding peaks, as a fraction of the quarter turn (negative: below the eyes). */
const CENTRE_V = -0.2;

/** A monotonic warp of [-1, 1] onto itself whose slope is 1 + k at `c` and 1 - k far from it. */
function crowd(x: number, k: number, c: number): number {
  return x + (k * (Math.sin(Math.PI * (x - c)) - Math.sin(Math.PI * c))) / Math.PI;
}

/** Inverse of {@link crowd} by bisection (it is strictly increasing for k < 1). */
function uncrowd(y: number, k: number, c: number): number {
  let lo = -1;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (crowd(mid, k, c) < y) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Texture coordinates (glTF: v = 0 at the top of the image) of a direction from the head centre. */
export function uvOfDirection(dir: V3): [number, number] {
  const azimuth = Math.atan2(dir[0], dir[2]);
  const elevation = Math.atan2(dir[1], Math.hypot(dir[0], dir[2]));
  const u = 0.5 + 0.5 * crowd(azimuth / Math.PI, CROWD_U, 0);
  const v = 0.5 - 0.5 * crowd(elevation / (Math.PI / 2), CROWD_V, CENTRE_V);
  return [u, v];
}

/** The unit direction a texture coordinate stands for (the inverse of {@link uvOfDirection}). */
export function directionOfUv(u: number, v: number): V3 {
  const azimuth = Math.PI * uncrowd(2 * u - 1, CROWD_U, 0);
  const elevation = (Math.PI / 2) * uncrowd(1 - 2 * v, CROWD_V, CENTRE_V);
  const c = Math.cos(elevation);
  return [c * Math.sin(azimuth), Math.sin(elevation), c * Math.cos(azimuth)];
}

/** Per-axis lookup tables for a square texture of `size` texels: the inverse is the slow part. */
export function texelDirections(size: number): (i: number, j: number) => V3 {
  const azimuths = new Float64Array(size);
  const elevations = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    const f = (k + 0.5) / size;
    azimuths[k] = Math.PI * uncrowd(2 * f - 1, CROWD_U, 0);
    elevations[k] = (Math.PI / 2) * uncrowd(1 - 2 * f, CROWD_V, CENTRE_V);
  }
  return (i, j) => {
    const a = azimuths[i]!;
    const e = elevations[j]!;
    const c = Math.cos(e);
    return [c * Math.sin(a), Math.sin(e), c * Math.cos(a)];
  };
}
