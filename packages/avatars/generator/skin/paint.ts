/**
 * The face's skin colour as a function of where a point sits: skin tone with warmer cheeks, nose
 * and sockets, a shaded jaw underside, cooler temples, and the lips with their seam. The vertex
 * colours (untextured exports) and the baked base-colour texture both paint with it; the texture
 * asks for a crisp lip line and noise mottle that vertices are too coarse to carry.
 */
import type { FaceLayout } from '../layout.js';
import { gauss, linearRgb, mix3, scale, smoothstep, type V3 } from '../math.js';
import { fbm } from './noise.js';

/** Where the grid is lower lip (1) or upper lip (0), by grid angle. */
export const lowerOf = (alpha: number): number => smoothstep(0.45, -0.45, Math.sin(alpha));

/** Lip fade towards the corners (1 in the middle of the lips, 0.3 at the corners). */
export const cornerOf = (alpha: number): number =>
  0.3 + 0.7 * smoothstep(0.97, 0.55, Math.abs(Math.cos(alpha)));

/**
 * The vermilion border's ring. Both lips are fullest in the middle and thin out to the corners
 * (a lip of one height end to end reads as a band); the upper border rises to two peaks either
 * side of a sharp notch in the middle (the cupid's bow under the philtrum).
 */
export function lipBorder(alpha: number): number {
  const across = Math.abs(Math.cos(alpha));
  if (lowerOf(alpha) > 0.5) return 0.01 + 0.026 * smoothstep(0.995, 0.3, across);
  const peaks = 0.008 + 0.027 * smoothstep(0.995, 0.3, across);
  return peaks - 0.006 * Math.exp(-((across / 0.12) ** 2));
}

export interface SkinPalette {
  skin: V3;
  blush: V3;
  lips: V3;
  lipsInner: V3;
}

export function skinPalette(layout: FaceLayout): SkinPalette {
  const c = layout.style.colors;
  const skin = linearRgb(c.skin);
  const lips = mix3(skin, linearRgb(c.lips), 0.75);
  return { skin, blush: linearRgb(c.blush), lips, lipsInner: mix3(lips, linearRgb(0x9b3c44), 0.5) };
}

/** What the painter may use beyond the smooth fields. */
export interface PaintDetail {
  /** Half-width of the vermilion border in ring units (vertices: 0.004; texture: sharper). */
  lipEdge: number;
  /** Position (metres, adult proportions) for noise mottle; null: a smooth analytic mottle. */
  noiseAt: V3 | null;
}

export const VERTEX_DETAIL: PaintDetail = { lipEdge: 0.004, noiseAt: null };

/** The lip mask at grid point (t, alpha): 1 on the vermilion, 0 on the skin around it. */
export function lipMaskAt(t: number, alpha: number, edge: number): number {
  const border = lipBorder(alpha);
  return (1 - smoothstep(border - edge, border + edge, t)) * (0.4 + 0.6 * cornerOf(alpha));
}

/**
 * Linear RGB of the face skin at `p` (head design space, metres), which is grid point (t, alpha)
 * of the head mesh.
 */
export function paintSkin(
  layout: FaceLayout,
  palette: SkinPalette,
  p: V3,
  t: number,
  alpha: number,
  detail: PaintDetail,
): V3 {
  const { style } = layout;
  const { skin, blush, lips, lipsInner } = palette;
  const cheeks =
    gauss((Math.abs(p[0]) - 0.045) ** 2 + (p[1] + 0.02) ** 2, 0.014) * smoothstep(0.02, 0.06, p[2]);
  const noseTip = gauss(p[0] ** 2 + (p[1] + 0.022) ** 2, 0.007) * smoothstep(0.08, 0.1, p[2]);
  const nostrils =
    gauss((Math.abs(p[0]) - 0.0072) ** 2 + (p[1] + 0.0278) ** 2, 0.0018) * smoothstep(0.07, 0.09, p[2]);
  let color = mix3(skin, blush, 0.4 * cheeks + 0.22 * noseTip);
  // Skin is not one colour: warmer, darker sockets round the eyes, a shaded underside of the
  // jaw, cooler temples, and a faint mottle so large areas do not read as plastic.
  const socket = gauss((Math.abs(p[0]) - style.eyeSpacing) ** 2 + (p[1] - 0.001) ** 2 * 0.8, 0.012);
  color = mix3(color, mix3(scale(skin, 0.78), blush, 0.25), 0.45 * socket * smoothstep(0.03, 0.06, p[2]));
  // The jaw's underside (it rises from the chin towards the ear) sits in the shade, deepest
  // where it turns into the neck: the jawline reads in a side view.
  const underJaw = smoothstep(-0.055, -0.075, p[1]) * (1 - smoothstep(0.025, 0.062, p[2]));
  color = mix3(color, scale(skin, 0.66), 0.5 * underJaw);
  // Contours that give the nose and mouth their form under flat front light: the sides of the
  // bridge, the shadow under the lower lip (above the chin's ball) and the mouth corners.
  const bridgeSides =
    gauss((Math.abs(p[0]) - 0.0085) ** 2, 0.0028) *
    smoothstep(0.012, -0.004, p[1]) *
    smoothstep(-0.03, -0.018, p[1]);
  const underLip = gauss(p[0] ** 2 * 0.3 + (p[1] + 0.052) ** 2, 0.0042) * smoothstep(0.05, 0.075, p[2]);
  const mouthCorners = gauss((Math.abs(p[0]) - 0.021) ** 2 + (p[1] + 0.037) ** 2, 0.0035);
  color = mix3(
    color,
    mix3(scale(skin, 0.72), blush, 0.2),
    0.3 * bridgeSides + 0.35 * underLip + 0.3 * mouthCorners,
  );
  const temple = gauss((Math.abs(p[0]) - 0.065) ** 2 + (p[1] - 0.02) ** 2, 0.018);
  color = mix3(color, mix3(skin, linearRgb(0x8a8aa0), 0.25), 0.3 * temple);
  if (detail.noiseAt) {
    // Blotchy redness at two scales (capillaries under the skin), stronger where blood shows.
    const [x, y, z] = detail.noiseAt;
    const blotch = fbm(x / 0.006, y / 0.006, z / 0.006, 3, 7) - 0.5;
    const fine = fbm(x / 0.0012, y / 0.0012, z / 0.0012, 2, 11) - 0.5;
    const flush = 0.5 + cheeks + noseTip;
    color = mix3(color, blush, 0.35 * blotch * flush);
    color = scale(color, 1 + 0.09 * blotch + 0.07 * fine);
  } else {
    const mottle =
      Math.sin(p[0] * 410 + 1.3) * Math.sin(p[1] * 370 + 0.7) * Math.sin(p[2] * 290 + 2.1) +
      0.5 * Math.sin(p[0] * 1130 + p[1] * 870) * Math.sin(p[2] * 990 - p[1] * 640);
    color = scale(color, 1 + 0.035 * mottle);
  }
  color = mix3(color, scale(skin, 0.5), 0.38 * nostrils);
  const lipMask = lipMaskAt(t, alpha, detail.lipEdge);
  if (detail.noiseAt) {
    // A pale rim just outside the upper lip's border (the "white roll") makes the lip line read.
    const border = lipBorder(alpha);
    const roll =
      (1 - lowerOf(alpha)) *
      smoothstep(border, border + 0.003, t) *
      (1 - smoothstep(border + 0.004, border + 0.01, t)) *
      cornerOf(alpha);
    color = mix3(color, scale(skin, 1.16), 0.45 * roll);
  }
  color = mix3(color, lips, lipMask);
  // A darker seam line so closed lips read as two lips.
  return mix3(color, scale(lipsInner, 0.5), 0.65 * (1 - smoothstep(0, 0.007, t)));
}
