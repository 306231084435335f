/** Neck, shoulders and a collar: a calm base that frames the head. Static. */
import type { FaceLayout } from './layout.js';
import { lerp, linearRgb, mix3, smoothstep, type V3, v3 } from './math.js';
import { gridIndices, orientAway, type Part } from './part.js';
import { uvOfDirection } from './skin/uv.js';

const AROUND = 64;
/** The neck's axis sits this far behind the head centre: the throat well behind the chin. */
const NECK_BACK = 0.028;

/** Superellipse point: rounder than a box, flatter than an ellipse. */
function superellipse(a: number, w: number, d: number, n: number): [number, number] {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [w * Math.sign(s) * Math.abs(s) ** (2 / n), d * Math.sign(c) * Math.abs(c) ** (2 / n)];
}

/**
 * Neck (skin) from inside the head down into the torso. Its top flares — wider, and forward
 * under the chin — so it meets the jaw's underside at a shallow angle over a few centimetres
 * instead of as a tube pushed into the head. `headY` is the body origin's height above the head
 * centre (the neck wears the head's skin texture, addressed from the head centre).
 */
export function buildNeck(layout: FaceLayout, headY = 0): Part {
  const skin = linearRgb(layout.style.colors.skin);
  const shadow = mix3(skin, linearRgb(0x5a3a30), 0.45);
  const positions: V3[] = [];
  const colors: V3[] = [];
  const uvs: [number, number][] = [];
  const multipliers: V3[] = [];
  const rows = 24;
  const columns = AROUND + 1; // the last column repeats the first with u one slice on: no wrap seam
  for (let i = 0; i <= rows; i++) {
    const k = i / rows;
    const y = lerp(0.0, -0.17, k);
    // Flare where the neck enters the head (head-space y from −0.07 up), full at the top.
    const flare = smoothstep(-0.135 - headY, -0.07 - headY, y);
    // Clearly narrower than the jaw (a neck as wide as the jaw reads as a block), widening
    // towards the shoulders.
    const w = 0.048 + 0.012 * smoothstep(0.55, 1, k) + 0.003 * flare;
    const d = 0.046 + 0.008 * smoothstep(0.55, 1, k);
    for (let j = 0; j < columns; j++) {
      // Columns start and end at the back, where the texture band's two ends meet.
      const a = Math.PI + (2 * Math.PI * j) / AROUND;
      const [x, z0] = superellipse(a, w, d, 2.2);
      // The front runs forward under the chin; the back rises into the skull a little further back.
      const z = z0 > 0 ? z0 + 0.02 * flare ** 1.5 * (z0 / d) : z0 - 0.006 * flare * (-z0 / d);
      positions.push(v3(x, y, z - NECK_BACK));
      // The jaw shades the top of the neck at the front and sides (behind the ear the neck runs
      // up into the skull in the open), so the jaw's edge reads as a lit edge over a shadow.
      const underJaw = (1 - smoothstep(0.05, 0.4, k)) * smoothstep(-0.04, 0.0, z);
      const color = mix3(skin, shadow, underJaw);
      colors.push(color);
      multipliers.push(
        v3(Math.min(1, color[0] / skin[0]), Math.min(1, color[1] / skin[1]), Math.min(1, color[2] / skin[2])),
      );
      uvs.push(neckUv(j / AROUND, k));
    }
  }
  return {
    name: 'Neck',
    material: 'skin',
    positions,
    colors,
    indices: orientAway(
      positions,
      gridIndices(rows + 1, columns, false),
      v3(0, -0.1, -0.014),
      8 * AROUND * 2,
    ),
    texture: { uvs, colors: multipliers, relief: false },
  };
}

/**
 * Where the neck reads the head's skin texture: a band of plain skin behind the ear (under the
 * hair: no cheeks, lips or brows in it), unrolled around the neck.
 */
function neckUv(around: number, down: number): [number, number] {
  const azimuth = lerp(1.95, 2.95, around);
  const elevation = lerp(-0.12, -0.52, down);
  const c = Math.cos(elevation);
  return uvOfDirection([c * Math.sin(azimuth), Math.sin(elevation), c * Math.cos(azimuth)]);
}

/** Shoulders and upper chest in a soft knit; bottom left open below the frame. */
export function buildTorso(layout: FaceLayout): Part {
  const cloth = linearRgb(layout.style.colors.shirt);
  const fold = mix3(cloth, v3(0, 0, 0), 0.25);
  const positions: V3[] = [];
  const colors: V3[] = [];
  const rows = 26;
  const half = layout.style.shoulders;
  for (let i = 0; i <= rows; i++) {
    const k = i / rows;
    // k 0: chest cut; 0.7: shoulder line; 1: round into the neck opening.
    const body = smoothstep(0, 0.7, k);
    const cap = smoothstep(0.62, 1, k);
    // The shoulder line: a rounded shoulder point, then the trapezius rising to the neck (a
    // slope, not a dome from the neck out).
    const y = lerp(-0.46, -0.2, body) + 0.058 * (0.7 * Math.sin((cap * Math.PI) / 2) + 0.3 * cap ** 2.5);
    const w = lerp(half * 0.92, half, smoothstep(0.3, 0.65, k)) * (1 - cap ** 1.4 * 0.74);
    const d = lerp(0.1, 0.108, body) * (1 - cap ** 1.4 * 0.52);
    for (let j = 0; j < AROUND; j++) {
      const a = (2 * Math.PI * j) / AROUND;
      const [x, z] = superellipse(a, w, d, lerp(3.2, 2.2, cap));
      positions.push(v3(x, y, z - 0.02));
      const knit = 0.5 + 0.5 * Math.cos(a * 48);
      colors.push(mix3(cloth, fold, 0.18 * knit * (1 - cap) + 0.25 * (1 - smoothstep(0, 0.5, k))));
    }
  }
  return {
    name: 'Torso',
    material: 'cloth',
    positions,
    colors,
    indices: orientAway(positions, gridIndices(rows + 1, AROUND, true), v3(0, -0.35, -0.02), 8 * AROUND * 2),
  };
}

/** A rolled collar where the neck meets the clothes. */
export function buildCollar(layout: FaceLayout): Part {
  const color = linearRgb(layout.style.colors.collar);
  const positions: V3[] = [];
  const colors: V3[] = [];
  const rows = 12;
  for (let i = 0; i < rows; i++) {
    const t = (2 * Math.PI * i) / rows;
    for (let j = 0; j < AROUND; j++) {
      const a = (2 * Math.PI * j) / AROUND;
      const front = (1 + Math.cos(a)) / 2;
      const tube = 0.008;
      const [x, z] = superellipse(a, 0.058 + tube * Math.cos(t), 0.06 + tube * Math.cos(t), 2.2);
      positions.push(v3(x, -0.147 - 0.012 * front ** 3 + tube * 0.8 * Math.sin(t), z - 0.016));
      colors.push(mix3(color, v3(0.5, 0.5, 0.5), 0.1 * (0.5 + 0.5 * Math.cos(a * 40))));
    }
  }
  const idx = gridIndices(rows, AROUND, true);
  // Close the tube: last ring to the first.
  for (let j = 0; j < AROUND; j++) {
    const a = (rows - 1) * AROUND + j;
    const b = (rows - 1) * AROUND + ((j + 1) % AROUND);
    idx.push(a, j, b, b, j, (j + 1) % AROUND);
  }
  const ring = v3(0, -0.16, 0.034);
  return {
    name: 'Collar',
    material: 'collar',
    positions,
    colors,
    indices: orientAway(positions, idx, ring, 0),
  };
}
