/**
 * The head grid's coordinates around the mouth: ring `t` (0 at the lip seam, 1 at the back of the
 * head) and angle `alpha` (0 at the left corner, π/2 up). The grid (head.ts) maps them forwards to
 * angular offsets from the mouth axis; the bake needs the way back, to paint lips and seam at the
 * same rings the geometry puts them.
 */
import { SMILE_CURVE } from '../layout.js';
import { smoothstep } from '../math.js';

/** Vertical half-opening of the lip seam (radians): the lips touch but do not coincide. */
export const SEAM = 0.0025;

/**
 * Angular offsets (u across, v up, radians) from the mouth axis of grid point (t, alpha), for a
 * mouth whose half-width is `theta0` radians.
 */
export function mouthOffset(t: number, alpha: number, theta0: number): [number, number] {
  const ca = Math.cos(alpha);
  const a = theta0 + (Math.PI - theta0) * t;
  const b = SEAM + (Math.PI - SEAM) * t;
  const near = 1 - smoothstep(0, 0.15, t);
  return [a * ca, b * Math.sin(alpha) + SMILE_CURVE * ca * ca * near];
}

/**
 * The grid point (t, alpha) at angular offsets (u, v): Gauss–Newton from the ellipse the grid is
 * close to. Points inside the seam slit come back with t = 0.
 */
export function mouthPolarOf(u: number, v: number, theta0: number): { t: number; alpha: number } {
  // Start: treat the grid as ellipses of half-axes a(t), b(t) without the smile curve.
  let alpha = Math.atan2(v, u * ((SEAM + 0.05) / (theta0 + 0.05)));
  let t = Math.max(0, (Math.hypot(u, v) - theta0 * Math.abs(Math.cos(alpha))) / Math.PI);
  for (let k = 0; k < 12; k++) {
    const [fu, fv] = mouthOffset(t, alpha, theta0);
    const ru = fu - u;
    const rv = fv - v;
    if (ru * ru + rv * rv < 1e-14) break;
    const h = 1e-5;
    const [tu, tv] = mouthOffset(t + h, alpha, theta0);
    const [au, av] = mouthOffset(t, alpha + h, theta0);
    const j11 = (tu - fu) / h;
    const j21 = (tv - fv) / h;
    const j12 = (au - fu) / h;
    const j22 = (av - fv) / h;
    const det = j11 * j22 - j12 * j21;
    if (Math.abs(det) < 1e-12) break;
    t -= (j22 * ru - j12 * rv) / det;
    alpha -= (-j21 * ru + j11 * rv) / det;
    if (t < 0) t = 0;
  }
  return { t: Math.min(1, t), alpha };
}
