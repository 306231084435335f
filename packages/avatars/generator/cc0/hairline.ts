/**
 * Where Noa's hair grows: a short cut's hairline on the real head, as a function of the point's
 * direction from the skull centre (azimuth 0 looking forward, +x to the avatar's left). The skin
 * bake darkens the scalp inside it (no skin shows between cards) and the cards root inside it.
 */
import { clamp, smoothstep, type V3 } from '../math.js';

export interface Skull {
  /** Skull centre (world, metres). */
  centre: V3;
  /** Eye height (world): the hairline is measured from it. */
  eyeY: number;
}

/** The skull centre of a head whose eyes sit at `eye` (one of them) — behind and above the eyes. */
export const skullOf = (eye: V3): Skull => ({ centre: [0, eye[1] + 0.025, eye[2] - 0.085], eyeY: eye[1] });

/**
 * Hair cover at `p`, 0..1 with a soft edge of a few millimetres: above the forehead 6.5 cm over the
 * eyes, dipping at the temples, round the top of the ears and down to the nape behind them.
 */
export function hairCover(p: V3, skull: Skull): number {
  const dx = p[0] - skull.centre[0];
  const dz = p[2] - skull.centre[2];
  const azimuth = Math.abs(Math.atan2(dx, dz)); // 0 front … π back
  const rise = p[1] - skull.eyeY;
  // Hairline height over the eyes by azimuth: forehead, temple dip, over the ear, nape.
  const k = azimuth / Math.PI;
  const line =
    k < 0.17
      ? 0.068 - 0.03 * smoothstep(0.05, 0.17, k) // forehead to temple corner
      : k < 0.42
        ? 0.038 - 0.005 * smoothstep(0.17, 0.3, k) // temple, sideburn
        : k < 0.62
          ? 0.033 - 0.075 * smoothstep(0.42, 0.62, k) // over the ear, then down behind it
          : -0.042 - 0.02 * smoothstep(0.62, 1, k); // the nape
  // Sideburn region in front of the ear (azimuth ~0.33–0.45) comes down a little.
  const sideburn = 0.012 * smoothstep(0.3, 0.36, k) * smoothstep(0.46, 0.4, k);
  // Small irregularity so the edge is not a ruled line.
  const wobble = 0.002 * Math.sin(azimuth * 37 + 1.3) + 0.0015 * Math.sin(azimuth * 83);
  return clamp(smoothstep(line - sideburn + wobble - 0.004, line - sideburn + wobble + 0.004, rise));
}
