/**
 * Hair in two layers: a thin scalp shell in the root colour (a hairline that frames the face and a
 * rolled edge tucked into the skin) under a few hundred overlapping locks that give the volume,
 * the strands and a broken silhouette. One style per avatar.
 */
import { mulberry32 } from '@avatar-drive/core';
import type { FaceLayout } from '../layout.js';
import { add, gauss, lerp, linearRgb, mix3, norm, scale, smoothstep, type V3, v3 } from '../math.js';
import { fanIndices, gridIndices, orientAway, type Part } from '../part.js';
import { buildBunHair } from './bun.js';
import { appendLock, type LockPoint } from './locks.js';
import { direction, slerpDir, turn } from './shape.js';
import { buildShortCutHair } from './short.js';

const AROUND = 120;
const ROWS = 30;

/** Hairline elevation (radians above the head's equator) at azimuth phi (0 = face) of the solid hair. */
function hairline(style: FaceLayout['style'], phi: number): number {
  const front = ((1 + Math.cos(phi)) / 2) ** 2.2;
  const side = Math.sin(phi) ** 2;
  const sideDrop = 0.12;
  if (style.hair === 'swept-fringe') {
    // A fringe swept to the avatar's right, points hanging between strands; bob over the ears.
    const sweep = phi > 0 ? 0.1 : -0.05;
    const scallop = 0.015 * Math.abs(Math.sin(phi * 9)) ** 1.5 * front;
    const base = lerp(-0.58, 0.6 + sweep * front, front) - sideDrop * side * (1 - front);
    return base + scallop;
  }
  // Pulled back into a bun: a clean, high hairline.
  return lerp(lerp(-0.45, 0.22, side), 0.6, front);
}

/**
 * The hair. With `cards` (the built-ins, which carry textures) the style is built of
 * alpha-textured cards in their own part (`HairCards`, material `hairCards`) over a scalp shell
 * (short.ts, bun.ts); without (the toon samples, whose materials drop textures and
 * vertex colours), it is one shell with solid tube locks merged into it.
 */
export function buildHair(layout: FaceLayout, cards = false): Part[] {
  const style = layout.style;
  if (cards) return style.hair === 'bun' ? buildBunHair(layout) : buildShortCutHair(layout);
  const root = linearRgb(style.colors.hair);
  const tip = linearRgb(style.colors.hairTip);
  const fringe = style.hair === 'swept-fringe';
  const skinColor = linearRgb(style.colors.skin);
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
      const volume = fringe ? 0.005 - 0.002 * front : 0.003 - 0.001 * front;
      const strandFreq = fringe ? 26 : 40;
      const strands = 0.0022 * Math.abs(Math.sin(phi * strandFreq * 0.5 + (fringe ? 2.2 * el : 0))) ** 0.7;
      // Thin out towards the hairline so hair meets skin softly instead of as a hard rim.
      const edgeTaper = 1 - (fringe ? 0.75 : 0.92) * smoothstep(0.7, 1, k);
      let thick = (volume - strands * 0.3) * edgeTaper;
      if (row > ROWS) {
        // The rolled edge tucks into the skin.
        thick = row === ROWS + 1 ? (fringe ? 0.0015 : -0.0005) : -0.003;
      }
      let p = add(skin, scale(dir, thick));
      if (fringe) {
        // The fringe lifts off the forehead a little so it reads as a separate lock.
        const lift = gauss(phi * phi, 0.5) * smoothstep(0.55, 0.95, k) * 0.003;
        p = add(p, v3(0, 0, lift));
      }
      positions.push(p);
      const shade = 0.55 + 0.45 * Math.abs(Math.sin(phi * strandFreq * 0.5 + (fringe ? 2.2 * el : 0)));
      // A soft hairline: towards its edge the shell lets the skin colour through, as sparse
      // baby hairs do, instead of ending in a dark line.
      const hairColor = scale(mix3(root, tip, smoothstep(0.2, 1, k) * 0.4), 0.55 + 0.2 * shade);
      const edge = row > ROWS ? 1 : smoothstep(0.8, 1, k);
      colors.push(mix3(hairColor, skinColor, 0.55 * edge));
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
  if (style.hair === 'bun') {
    indices = addBun(layout, positions, colors, indices, root, tip);
    addPulledBackLocks(layout, positions, colors, indices, root, tip);
  } else {
    for (const { points } of fringeLocks(layout, root, tip)) appendLock(points, positions, colors, indices);
  }
  return [{ name: 'Hair', material: 'hair', positions, colors, indices }];
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

const LOCK_SAMPLES = 14;

/**
 * A short, layered cut: locks flow from a whorl at the back of the crown over the head to the
 * hairline; over the forehead they sweep to the avatar's right as a fringe, over the ears and
 * nape they end in soft points.
 */
function fringeLocks(layout: FaceLayout, root: V3, tip: V3): { points: LockPoint[] }[] {
  const style = layout.style;
  const locks: { points: LockPoint[] }[] = [];
  const rand = mulberry32(0x6d696b61);
  const layers = [
    { count: 64, lift: 0.0035, width: 0.0085 },
    { count: 72, lift: 0.0068, width: 0.0082 },
    { count: 60, lift: 0.0098, width: 0.0078 },
  ];
  const whorl = direction(Math.PI, 1.18);
  layers.forEach((layer, L) => {
    for (let i = 0; i < layer.count; i++) {
      const phiEnd = -Math.PI + ((i + rand() * 0.9) / layer.count) * 2 * Math.PI;
      const front = ((1 + Math.cos(phiEnd)) / 2) ** 2.2;
      // Fringe locks start further forward so they arc over the forehead instead of lying flat.
      const sweep = -0.4 * front * (0.7 + 0.5 * rand());
      // The sweep turns the lock by `sweep` towards its tip: start it that much the other way so
      // the tip still lands on (and covers) the hairline at phiEnd.
      const from = phiEnd - sweep;
      const start = slerpDir(whorl, direction(from, 1.35), 0.25 + 0.5 * front + 0.1 * rand());
      // Tips end at different lengths round the hairline (no straight cut line).
      const elEnd = hairline(style, phiEnd) - 0.03 - 0.05 * front - (0.02 + 0.08 * rand()) * (1 - front);
      const end = direction(from, elEnd);
      const width = layer.width * (0.75 + 0.5 * rand());
      const shade = 0.8 + 0.35 * rand();
      const points: LockPoint[] = [];
      for (let s = 0; s < LOCK_SAMPLES; s++) {
        const k = s / (LOCK_SAMPLES - 1);
        const dir = turn(slerpDir(start, end, k), sweep * k * k);
        const skin = layout.skinAt(dir);
        const volume =
          (0.003 + 0.0035 * (1 - front)) * Math.sin(Math.PI * Math.min(1, 0.25 + k * 0.9)) ** 0.5;
        // Volume on the crown, close to the head over the temples and ears: no bowl silhouette.
        const crown = 0.55 + 0.45 * smoothstep(0.15, 0.75, dir[1]);
        const lift = (layer.lift + volume) * crown * (1 - 0.75 * smoothstep(0.75, 1, k)) + 0.0012;
        points.push({
          p: add(skin, scale(dir, lift)),
          up: dir,
          // Tips taper to a fine rounded point (a blunt end reads as a sawtooth along the fringe).
          width:
            width * (0.4 + 0.6 * smoothstep(0, 0.3, k)) * Math.sqrt(1 - 0.99 * smoothstep(0.45, 1, k)) +
            0.0002,
          thickness: 0.0016 * (1 - 0.7 * smoothstep(0.3, 1, k)) + 0.0002,
          color: scale(mix3(root, tip, 0.25 + 0.6 * k * (L + 1) * 0.33), shade),
        });
      }
      locks.push({ points });
    }
  });
  return locks;
}

/** Hair pulled back from every side of the hairline into the bun, in tight, slightly raised locks. */
function addPulledBackLocks(
  layout: FaceLayout,
  positions: V3[],
  colors: V3[],
  indices: number[],
  root: V3,
  tip: V3,
): void {
  const style = layout.style;
  const rand = mulberry32(0x6a756e6f);
  const bun = norm(v3(0, 0.9, -0.42));
  for (const layer of [
    { count: 80, lift: 0.0022 },
    { count: 70, lift: 0.0042 },
  ]) {
    for (let i = 0; i < layer.count; i++) {
      const phi = -Math.PI + ((i + rand() * 0.9) / layer.count) * 2 * Math.PI;
      const start = direction(phi, hairline(style, phi) - 0.01);
      const end = slerpDir(bun, start, 0.12 + 0.08 * rand());
      const width = 0.009 * (0.75 + 0.5 * rand());
      const shade = 0.8 + 0.35 * rand();
      const points: LockPoint[] = [];
      for (let s = 0; s < LOCK_SAMPLES; s++) {
        const k = s / (LOCK_SAMPLES - 1);
        const dir = slerpDir(start, end, k);
        const skin = layout.skinAt(dir);
        const lift = (layer.lift + 0.0025 * Math.sin(Math.PI * k)) * smoothstep(0, 0.12, k) + 0.0006;
        points.push({
          p: add(skin, scale(dir, lift)),
          up: dir,
          width: width * (0.5 + 0.5 * smoothstep(0, 0.15, k)) * (1 - 0.6 * smoothstep(0.7, 1, k)) + 0.0006,
          thickness: 0.0012,
          color: scale(mix3(root, tip, 0.2 + 0.35 * Math.sin(Math.PI * k)), shade),
        });
      }
      appendLock(points, positions, colors, indices);
    }
  }
}
