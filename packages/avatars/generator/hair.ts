/**
 * Hair as a sculpted shell over the skull: chunky strands carved into its thickness, a hairline
 * that frames the face, and a rolled edge tucked into the skin. One style per avatar.
 */
import type { FaceLayout } from './layout.js';
import { add, gauss, lerp, linearRgb, mix3, norm, scale, smoothstep, type V3, v3 } from './math.js';
import { fanIndices, gridIndices, orientAway, type Part } from './part.js';

const AROUND = 120;
const ROWS = 30;

/** Hairline elevation (radians above the head's equator) at azimuth phi (0 = face). */
function hairline(style: FaceLayout['style'], phi: number): number {
  const front = ((1 + Math.cos(phi)) / 2) ** 2.2;
  const side = Math.sin(phi) ** 2;
  if (style.hair === 'swept-fringe') {
    // A fringe swept to the avatar's right, points hanging between strands; bob over the ears.
    const sweep = phi > 0 ? 0.1 : -0.05;
    const scallop = 0.06 * Math.abs(Math.sin(phi * 9)) ** 1.5 * front;
    const base = lerp(-0.58, 0.5 + sweep * front, front) - 0.12 * side * (1 - front);
    return base + scallop;
  }
  // Pulled back into a bun: a clean, high hairline.
  return lerp(lerp(-0.45, 0.22, side), 0.6, front);
}

export function buildHair(layout: FaceLayout): Part {
  const style = layout.style;
  const root = linearRgb(style.colors.hair);
  const tip = linearRgb(style.colors.hairTip);
  const fringe = style.hair === 'swept-fringe';
  const positions: V3[] = [];
  const colors: V3[] = [];
  for (let row = 0; row <= ROWS + 2; row++) {
    for (let j = 0; j < AROUND; j++) {
      const phi = -Math.PI + (2 * Math.PI * j) / AROUND;
      const low = hairline(style, phi);
      const k = Math.max(0.6, Math.min(row, ROWS)) / ROWS;
      const el = lerp(Math.PI / 2, low, k ** 0.85);
      const dir = norm(v3(Math.cos(el) * Math.sin(phi), Math.sin(el), Math.cos(el) * Math.cos(phi)));
      const skin = layout.skinAt(dir);
      // Volume: more on top and at the back, strands carved as soft grooves.
      const front = ((1 + Math.cos(phi)) / 2) ** 2;
      const volume = fringe ? 0.0125 - 0.004 * front : 0.0065 - 0.002 * front;
      const strandFreq = fringe ? 26 : 40;
      const strands = 0.0022 * Math.abs(Math.sin(phi * strandFreq * 0.5 + (fringe ? 2.2 * el : 0))) ** 0.7;
      // Thin out towards the hairline so hair meets skin softly instead of as a hard rim.
      const edgeTaper = 1 - (fringe ? 0.75 : 0.92) * smoothstep(0.7, 1, k);
      let thick = (volume - strands * (fringe ? 1 : 0.6)) * edgeTaper;
      if (row > ROWS) thick = row === ROWS + 1 ? (fringe ? 0.0015 : -0.0005) : -0.003;
      let p = add(skin, scale(dir, thick));
      if (fringe) {
        // The fringe lifts off the forehead a little so it reads as a separate lock.
        const lift = gauss(phi * phi, 0.5) * smoothstep(0.55, 0.95, k) * 0.003;
        p = add(p, v3(0, 0, lift));
      }
      positions.push(p);
      const shade = 0.55 + 0.45 * Math.abs(Math.sin(phi * strandFreq * 0.5 + (fringe ? 2.2 * el : 0)));
      colors.push(scale(mix3(root, tip, smoothstep(0.2, 1, k) * 0.7), 0.75 + 0.25 * shade));
    }
  }
  // Crown: the centre of the first ring, lifted a little, so the fan has no pinch.
  const crown = positions.length;
  const first = positions.slice(0, AROUND);
  const mean = scale(
    first.reduce((acc, p) => add(acc, p), v3(0, 0, 0)),
    1 / AROUND,
  );
  positions.push(add(mean, v3(0, 0.0008, 0)));
  colors.push(root);
  let indices = [...gridIndices(ROWS + 3, AROUND, true), ...fanIndices(crown, 0, AROUND, true)];
  indices = orientAway(positions, indices, v3(0, 0, 0), AROUND * 2 * 4);
  if (style.hair === 'bun') indices = addBun(layout, positions, colors, indices, root, tip);
  return { name: 'Hair', material: 'hair', positions, colors, indices };
}

/** A round bun high on the back of the head, wrapped by a visible twist. */
function addBun(
  layout: FaceLayout,
  positions: V3[],
  colors: V3[],
  indices: number[],
  root: V3,
  tip: V3,
): number[] {
  const up = norm(v3(0, 0.9, -0.42));
  const centre = add(layout.skinAt(up), scale(up, 0.03));
  const r = 0.036;
  const rows = 20;
  const cols = 36;
  const start = positions.length;
  for (let i = 0; i <= rows; i++) {
    const th = (Math.PI * i) / rows;
    for (let j = 0; j < cols; j++) {
      const ph = (2 * Math.PI * j) / cols;
      const twist = 0.0022 * Math.abs(Math.sin(ph * 4 + th * 3)) ** 0.8;
      const rr = r - twist;
      positions.push(
        add(
          centre,
          v3(rr * Math.sin(th) * Math.cos(ph), rr * Math.cos(th) * 0.85, rr * Math.sin(th) * Math.sin(ph)),
        ),
      );
      const shade = 0.6 + 0.4 * Math.abs(Math.sin(ph * 4 + th * 3));
      colors.push(scale(mix3(root, tip, 0.5), 0.75 + 0.25 * shade));
    }
  }
  const grid = gridIndices(rows + 1, cols, true, start);
  return [...indices, ...orientAway(positions, grid, centre, 8 * cols * 2)];
}
