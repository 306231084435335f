/**
 * A short layered cut with a swept fringe, built of alpha-textured cards over the scalp shell:
 * volume on the crown (the hair's base stands 1–2 cm off the scalp there), layers of locks from a
 * whorl at the back of the crown whose tips end at different lengths and flick out a little, a
 * fringe of separate pieces of different lengths swept to the avatar's right, and sides and nape
 * tapered close to the head round the ears.
 */
import { mulberry32 } from '@avatar-drive/core';
import type { FaceLayout } from '../layout.js';
import { gauss, lerp, linearRgb, mix3, scale, smoothstep, type V3 } from '../math.js';
import type { Part } from '../part.js';
import { appendCard, appendWisp, type CardMesh, cardsPart, lockSlice } from './cards.js';
import type { LockPoint } from './locks.js';
import { angles, direction, type HairShape, hairSurface, slerpDir, turn, wobble } from './shape.js';
import { buildHairShell } from './shell.js';

const LOCK_SAMPLES = 14;
/** How much wider a card is than the lock it carries (the texture's alpha narrows it again). */
const CARD_WIDTH = 2.2;

/**
 * The short cut's hairline round the ear (elevation in radians by |azimuth|): high over the
 * temple, a sideburn down in front of the ear, up over the ear (the ear stands free of the hair,
 * which is tucked behind it) and down behind it to the nape.
 */
const EAR_HAIRLINE: readonly [number, number][] = [
  [0, 0.62],
  [0.6, 0.52],
  [0.95, 0.34],
  [1.18, 0.08],
  [1.3, -0.1],
  [1.42, 0.2],
  [1.75, 0.36],
  [2.08, 0.22],
  [2.4, -0.34],
  [2.8, -0.58],
  [Math.PI, -0.66],
];

/** Smooth (cosine) interpolation through `points` sorted by x. */
function curveAt(points: readonly [number, number][], x: number): number {
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i]!;
    if (x > x1) continue;
    const [x0, y0] = points[i - 1]!;
    const f = (1 - Math.cos((Math.PI * (x - x0)) / (x1 - x0))) / 2;
    return lerp(y0, y1, f);
  }
  return points[points.length - 1]![1];
}

/**
 * The short cut's hairline: the fringe's line over the forehead (higher on the side it is swept
 * from, scalloped between pieces) going round the ears (see {@link EAR_HAIRLINE}), wandering a little.
 */
function hairlineAround(phi: number): number {
  const front = ((1 + Math.cos(phi)) / 2) ** 2.2;
  const sweep = phi > 0 ? 0.1 : -0.05;
  const scallop = 0.015 * Math.abs(Math.sin(phi * 9)) ** 1.5 * front;
  return curveAt(EAR_HAIRLINE, Math.abs(phi)) + sweep * front + scallop + 0.012 * wobble(phi, 0.6);
}

/** The short cut's hairline (round the ears) and its volume. */
export function shortCutShape(): HairShape {
  const hairline = hairlineAround;
  return {
    hairline,
    volume(dir) {
      const { phi, el } = angles(dir);
      const top = smoothstep(0.15, 0.85, dir[1]);
      const back = smoothstep(0.2, -0.6, dir[2]);
      // Most on the crown and a little behind it; close over the temples, ears and nape.
      const v = 0.002 + 0.0115 * top * (0.8 + 0.2 * back);
      return v * smoothstep(-0.04, 0.45, el - hairline(phi)) + 0.0004;
    },
  };
}

/** The short cut: the shell and the cards. */
export function buildShortCutHair(layout: FaceLayout): Part[] {
  const shape = shortCutShape();
  const shell = buildHairShell(layout, shape, { hairlineSkin: 0.4, shade: 0.7, inset: 0.05 });
  const root = linearRgb(layout.style.colors.hair);
  const tip = linearRgb(layout.style.colors.hairTip);
  const mesh: CardMesh = { positions: [], colors: [], uvs: [], indices: [] };
  layeredLocks(layout, shape, root, tip, mesh);
  fringePieces(layout, shape, root, tip, mesh);
  wisps(layout, shape, root, tip, mesh);
  return [shell, cardsPart(mesh)];
}

/** Where the sheen catches the hair: a band over the top of the head, brightest towards the front. */
function sheen(dir: V3): number {
  return 1 + 0.4 * gauss((dir[1] - 0.75) ** 2, 0.12) * smoothstep(-0.6, 0.4, dir[2]);
}

/**
 * Three layers of locks from the whorl to the hairline, everywhere but over the forehead (the
 * fringe pieces cover that). Upper layers stand further off the base and flick out at the tips at
 * the sides and back, which breaks the silhouette into layers.
 */
function layeredLocks(layout: FaceLayout, shape: HairShape, root: V3, tip: V3, mesh: CardMesh): void {
  const rand = mulberry32(0x6d696b61);
  const layers = [
    { count: 48, lift: 0.0006, width: 0.0095 },
    { count: 56, lift: 0.0026, width: 0.0085 },
    { count: 46, lift: 0.0046, width: 0.0078 },
  ];
  const whorl = direction(Math.PI, 1.18);
  layers.forEach((layer, L) => {
    for (let i = 0; i < layer.count; i++) {
      const phiLine = -Math.PI + ((i + rand() * 0.9) / layer.count) * 2 * Math.PI;
      // The nape tapers: locks at the back converge a little towards its middle.
      const nape = smoothstep(2.1, 2.9, Math.abs(phiLine));
      const phiEnd = phiLine - Math.sign(phiLine) * 0.3 * nape * (Math.PI - Math.abs(phiLine));
      const front = ((1 + Math.cos(phiEnd)) / 2) ** 2.2;
      // Over the forehead the locks sweep to the avatar's right like the fringe above them.
      const sweep = -0.35 * front * (0.7 + 0.5 * rand());
      const from = phiEnd - sweep;
      const start = slerpDir(whorl, direction(from, 1.35), 0.25 + 0.5 * front + 0.1 * rand());
      const hl = shape.hairline(phiEnd);
      // Tips end at different lengths round the hairline; the lower layers reach past it.
      const elEnd =
        hl -
        (0.07 - 0.04 * L) -
        0.06 * front -
        (0.02 + 0.08 * rand()) * (1 - front) -
        nape * (0.1 * rand() + 0.08 * gauss((Math.abs(phiLine) - Math.PI) ** 2, 0.35));
      // Locks that end low (the nape, behind the ears) hug the head towards their tips.
      const hug = smoothstep(0.2, -0.4, elEnd);
      const end = direction(from, elEnd);
      const width = layer.width * (0.75 + 0.5 * rand());
      const shade = (0.8 + 0.35 * rand()) * [0.7, 0.88, 1.05][L]!;
      const lift = layer.lift * (0.7 + 0.6 * rand());
      // Tips flick out a little over the ears and the back of the crown (not over the face,
      // nor at the nape, which lies close).
      const flick =
        L > 0 ? (0.002 + 0.004 * rand()) * (1 - front) * (1 - nape) * smoothstep(0, 0.3, elEnd) : 0;
      const points: LockPoint[] = [];
      for (let s = 0; s < LOCK_SAMPLES; s++) {
        const k = s / (LOCK_SAMPLES - 1);
        const dir = turn(slerpDir(start, end, k), sweep * k * k);
        const arch = 0.0015 * Math.sin(Math.PI * Math.min(1, 0.2 + k * 0.9));
        const close = smoothstep(0.5, 1, k) * hug;
        // Layers stand apart on the crown and lie closer below it, so the cut narrows towards
        // the ears and nape instead of flaring like a bowl.
        const layered = 0.45 + 0.55 * smoothstep(0, 0.6, dir[1]);
        const up =
          lift * layered * (1 - 0.6 * smoothstep(0.7, 1, k)) * (1 - 0.8 * close) +
          arch * (1 - close) +
          flick * smoothstep(0.55, 1, k) ** 2;
        points.push({
          p: hairSurface(layout, shape, dir, up + 0.0008),
          up: dir,
          width: CARD_WIDTH * width * (0.35 + 0.65 * smoothstep(0, 0.3, k)),
          thickness: 0.0012,
          color: scale(mix3(root, tip, 0.2 + 0.5 * k), 1.3 * shade * sheen(dir)),
        });
      }
      const [u0, u1] = lockSlice(rand);
      appendCard(points, u0, u1, mesh, 1, 1.7);
    }
  });
}

/**
 * The fringe: separate pieces from the front of the crown that rise off the volume and fall over
 * the forehead, swept to the avatar's right, each of its own width and length.
 */
function fringePieces(layout: FaceLayout, shape: HairShape, root: V3, tip: V3, mesh: CardMesh): void {
  const rand = mulberry32(0x66726e67);
  const count = 15;
  for (let i = 0; i < count; i++) {
    // Across the forehead, from the avatar's left temple to its right.
    const phiEnd = 0.95 - (1.9 * (i + 0.2 + 0.6 * rand())) / count;
    const sweep = -(0.3 + 0.2 * rand());
    const from = phiEnd - sweep;
    const start = direction(from, 1.05 + 0.15 * rand());
    const hl = shape.hairline(phiEnd);
    // Lengths differ piece to piece; the longest reach a little way down the forehead.
    const elEnd = hl - 0.04 - 0.13 * rand() * (1 - 0.5 * Math.abs(phiEnd));
    const end = direction(from, elEnd);
    const width = (0.008 + 0.005 * rand()) * (1 - 0.25 * Math.abs(phiEnd));
    const shade = 0.9 + 0.3 * rand();
    const stand = 0.0025 + 0.0025 * rand();
    const points: LockPoint[] = [];
    for (let s = 0; s < LOCK_SAMPLES; s++) {
      const k = s / (LOCK_SAMPLES - 1);
      const dir = turn(slerpDir(start, end, k), sweep * k * k);
      // Stands off the volume where it turns down over the hairline, and lies close at the tip.
      const off = stand * Math.sin(Math.PI * Math.min(1, 0.15 + k)) + 0.0015;
      points.push({
        p: hairSurface(layout, shape, dir, off + 0.003 * (1 - k)),
        up: dir,
        width: CARD_WIDTH * width * (0.25 + 0.75 * smoothstep(0, 0.35, k)),
        thickness: 0.0014,
        color: scale(mix3(root, tip, 0.25 + 0.5 * k), 1.25 * shade * sheen(dir)),
      });
    }
    const [u0, u1] = lockSlice(rand);
    appendCard(points, u0, u1, mesh);
  }
}

/** A few fine loose strands: over the crown's silhouette and at the temples and nape. */
function wisps(layout: FaceLayout, shape: HairShape, root: V3, tip: V3, mesh: CardMesh): void {
  const rand = mulberry32(0x77697370);
  for (let i = 0; i < 14; i++) {
    const phi = -Math.PI + 2 * Math.PI * ((i + rand()) / 14);
    const hl = shape.hairline(phi);
    const start = direction(phi, hl + 0.25 + 0.4 * rand());
    const end = direction(phi + 0.2 * (rand() - 0.5), hl - 0.02 - 0.05 * rand());
    const rise = 0.002 + 0.004 * rand();
    const lift = (k: number): number => 0.006 + rise * Math.sin(Math.PI * k);
    appendWisp(
      layout,
      shape,
      { start, end },
      lift,
      { width: 0.0045, color: scale(mix3(root, tip, 0.5), 1.25) },
      mesh,
    );
  }
}
