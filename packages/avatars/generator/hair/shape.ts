/**
 * The shape a card-built hairstyle has on the head: where its hairline runs and how far the hair
 * stands off the skin. The scalp shell (shell.ts) and the cards that lie on it read the same
 * shape, so the cards never sink into the shell and the shell never shows past the cards.
 */
import type { FaceLayout } from '../layout.js';
import { add, norm, scale, type V3, v3 } from '../math.js';

export interface HairShape {
  /** Hairline elevation (radians above the head's equator) at azimuth phi (0 = face, + = the avatar's left). */
  hairline(phi: number): number;
  /** How far the hair's base surface stands off the skin in unit direction `dir` (metres). */
  volume(dir: V3): number;
}

/** Unit direction at elevation `el` and azimuth `phi` (0 = face, + towards the avatar's left). */
export function direction(phi: number, el: number): V3 {
  return norm(v3(Math.cos(el) * Math.sin(phi), Math.sin(el), Math.cos(el) * Math.cos(phi)));
}

/** Azimuth and elevation of a direction (inverse of {@link direction}). */
export function angles(dir: V3): { phi: number; el: number } {
  const d = norm(dir);
  return { phi: Math.atan2(d[0], d[2]), el: Math.asin(Math.max(-1, Math.min(1, d[1]))) };
}

/** Normalised interpolation between two directions (through the shorter arc). */
export function slerpDir(a: V3, b: V3, t: number): V3 {
  return norm(add(scale(a, 1 - t), scale(b, t)));
}

/** Rotates a direction about the vertical axis. */
export function turn(d: V3, angle: number): V3 {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return v3(d[0] * c + d[2] * s, d[1], -d[0] * s + d[2] * c);
}

/**
 * A smooth periodic wobble of azimuth (−1..1 roughly): a few incommensurate sines, so a hairline
 * or a parting wanders irregularly but the same way on every build.
 */
export function wobble(phi: number, seed: number): number {
  return (
    0.5 * Math.sin(5 * phi + seed) +
    0.3 * Math.sin(11 * phi + 2.3 * seed + 0.7) +
    0.2 * Math.sin(23 * phi + 3.7 * seed + 1.9)
  );
}

/** The hair's base surface in direction `dir`: the skin lifted by the style's volume. */
export function hairSurface(layout: FaceLayout, shape: HairShape, dir: V3, lift = 0): V3 {
  const d = norm(dir);
  return add(layout.skinAt(d), scale(d, shape.volume(d) + lift));
}
