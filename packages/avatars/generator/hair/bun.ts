/**
 * Hair pulled back into a high bun, built of alpha-textured cards over the scalp shell: locks run
 * from a soft, irregular hairline over the head into the bun's base in clumps of slightly
 * different direction and colour; the bun is a core wrapped in strands; a few baby hairs lie at
 * the hairline and temples and a few flyaways stand off the crown.
 */
import { mulberry32 } from '@avatar-drive/core';
import type { FaceLayout } from '../layout.js';
import {
  add,
  cross,
  dot,
  gauss,
  lerp,
  linearRgb,
  mix3,
  norm,
  scale,
  smoothstep,
  sub,
  type V3,
  v3,
} from '../math.js';
import { gridIndices, orientAway, type Part } from '../part.js';
import { appendCard, appendWisp, type CardMesh, cardsPart, lockSlice } from './cards.js';
import type { LockPoint } from './locks.js';
import { angles, direction, type HairShape, hairSurface, slerpDir, wobble } from './shape.js';
import { buildHairShell } from './shell.js';
import { WISP_STRIP } from './strands.js';

/** Where the bun sits: high on the back of the head. */
const BUN_AXIS = norm(v3(0, 0.9, -0.42));
/** The bun's core (metres): its radius across the axis and along it. */
const BUN_RADIUS = 0.03;
const BUN_SQUASH = 0.82;
/** Card samples along a head lock and along a wrap of the bun. */
const LOCK_SAMPLES = 14;
const WRAP_SAMPLES = 16;

/** The pulled-back style's hairline and volume. */
export function bunShape(): HairShape {
  const hairline = (phi: number): number => {
    const front = ((1 + Math.cos(phi)) / 2) ** 2.2;
    const side = Math.sin(phi) ** 2;
    const base = lerp(lerp(-0.72, 0.22, side), 0.6, front);
    // The temples recede a little; the line wanders, more over the forehead than at the nape.
    const temples = 0.05 * gauss((Math.abs(phi) - 0.8) ** 2, 0.2);
    return base + temples + 0.02 * wobble(phi, 1.7) * (0.5 + 0.5 * front);
  };
  return {
    hairline,
    volume(dir) {
      const { phi, el } = angles(dir);
      // Pulled taut: 1.5 mm at the hairline, a few mm over the crown.
      return 0.0015 + 0.0028 * smoothstep(0, 0.7, el - hairline(phi));
    },
  };
}

/** Rotates `d` about the unit `axis` by `angle` (Rodrigues). */
function rotateAbout(d: V3, axis: V3, angle: number): V3 {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return add(add(scale(d, c), scale(cross(axis, d), s)), scale(axis, dot(axis, d) * (1 - c)));
}

/** The bun style: the shell (with the bun's core) and the cards. */
export function buildBunHair(layout: FaceLayout): Part[] {
  const shape = bunShape();
  const shell = buildHairShell(layout, shape, { hairlineSkin: 0.3, shade: 0.75, inset: 0.012 });
  const centre = add(layout.skinAt(BUN_AXIS), scale(BUN_AXIS, BUN_RADIUS * 0.95));
  const frame = bunFrame();
  addBunCore(layout, shell, centre, frame);
  const root = linearRgb(layout.style.colors.hair);
  const tip = linearRgb(layout.style.colors.hairTip);
  const mesh: CardMesh = { positions: [], colors: [], uvs: [], indices: [] };
  headLocks(layout, shape, root, tip, mesh);
  bunWraps(centre, frame, root, tip, mesh);
  babyHairs(layout, shape, root, tip, mesh);
  flyaways(layout, shape, root, tip, mesh);
  return [shell, cardsPart(mesh)];
}

/** The bun's axes: two across it and its axis. */
function bunFrame(): [V3, V3, V3] {
  const e1 = v3(1, 0, 0);
  return [e1, norm(cross(BUN_AXIS, e1)), BUN_AXIS];
}

/** A point on the bun at polar angle `th` from its top and azimuth `ph`, `r` from the centre. */
function onBun(centre: V3, [e1, e2, a]: [V3, V3, V3], th: number, ph: number, r: number): V3 {
  const across = add(scale(e1, Math.cos(ph)), scale(e2, Math.sin(ph)));
  return add(centre, add(scale(across, r * Math.sin(th)), scale(a, r * BUN_SQUASH * Math.cos(th))));
}

/** The bun's core: a squashed ball in the shell's dark tone, under the wraps. */
function addBunCore(layout: FaceLayout, shell: Part, centre: V3, frame: [V3, V3, V3]): void {
  const rows = 16;
  const cols = 32;
  const dark = scale(linearRgb(layout.style.colors.hair), 0.45);
  const start = shell.positions.length;
  for (let i = 0; i <= rows; i++) {
    for (let j = 0; j < cols; j++) {
      shell.positions.push(onBun(centre, frame, (Math.PI * i) / rows, (2 * Math.PI * j) / cols, BUN_RADIUS));
      shell.colors.push(dark);
    }
  }
  const grid = gridIndices(rows + 1, cols, true, start);
  shell.indices.push(...orientAway(shell.positions, grid, centre, 8 * cols * 2));
}

/**
 * Locks from the hairline to the bun's base, in three layers. The card's root end (solid in the
 * texture) is at the bun and its frayed end at the hairline, so the hairline is drawn by strands
 * of different lengths, not by a cut edge.
 */
function headLocks(layout: FaceLayout, shape: HairShape, root: V3, tip: V3, mesh: CardMesh): void {
  const rand = mulberry32(0x6a756e6f);
  const layers = [
    { count: 78, lift: 0.0003, width: 0.0105, reach: 0.025 },
    { count: 64, lift: 0.0011, width: 0.0095, reach: 0 },
    { count: 36, lift: 0.0019, width: 0.0085, reach: -0.06 },
  ];
  layers.forEach((layer, L) => {
    for (let i = 0; i < layer.count; i++) {
      const phi = -Math.PI + ((i + rand() * 0.9) / layer.count) * 2 * Math.PI;
      const hl = shape.hairline(phi);
      // The frayed ends of the lower layers straddle the hairline (the texture's strands end
      // at different lengths there); the top layer stops short of it, so the hair thickens
      // gradually from the line up.
      const start = direction(phi, hl - layer.reach - 0.02 * rand());
      const end = slerpDir(BUN_AXIS, start, 0.14 + 0.08 * rand());
      // Clumps: each lock bows a little to one side on its way back.
      const bow = (rand() - 0.5) * 0.16;
      const width = layer.width * (0.8 + 0.4 * rand());
      const shade = (0.75 + 0.45 * rand()) * [0.85, 1, 1.12][L]!;
      const tint = 0.15 + 0.35 * rand();
      const points: LockPoint[] = [];
      for (let s = 0; s < LOCK_SAMPLES; s++) {
        const k = s / (LOCK_SAMPLES - 1);
        const dir = rotateAbout(slerpDir(end, start, k), BUN_AXIS, bow * Math.sin(Math.PI * k));
        const { el } = angles(dir);
        // Locks arch a little between bun and hairline: they stand off the head, not painted on.
        const arch = 0.0009 * Math.sin(Math.PI * Math.min(1, k * 1.2));
        // The sheen catches the hair across the top of the forehead's curve: brighter there.
        const sheen = 1 + 0.8 * gauss((el - (hl + 0.42)) ** 2, 0.14) * (0.4 + 0.6 * rand());
        points.push({
          p: hairSurface(layout, shape, dir, layer.lift + arch),
          up: dir,
          width: width * (0.45 + 0.55 * k),
          thickness: 0.0008,
          // Darker towards the hairline, where the frayed ends thin out over the skin (a light
          // fringe of mip-blurred strand ends would read as a band along the forehead).
          color: scale(
            mix3(root, tip, tint + 0.1 * k),
            2.1 * shade * sheen * (1 - 0.4 * smoothstep(0.7, 1, k)),
          ),
        });
      }
      const [u0, u1] = lockSlice(rand);
      appendCard(points, u0, u1, mesh, 1, 3.2);
    }
  });
}

/** The bun: strands wound round the core in spirals, and a swirl over its top. */
function bunWraps(centre: V3, frame: [V3, V3, V3], root: V3, tip: V3, mesh: CardMesh): void {
  const rand = mulberry32(0x62756e73);
  const wraps: { th0: number; th1: number; ph0: number; sweep: number; lift: number }[] = [];
  for (let w = 0; w < 16; w++) {
    const th0 = lerp(0.92, 0.3, w / 15) * Math.PI + 0.05 * rand();
    wraps.push({
      th0,
      th1: th0 - (0.18 + 0.1 * rand()) * Math.PI,
      ph0: 2 * Math.PI * rand(),
      sweep: (1.1 + 0.4 * rand()) * Math.PI,
      lift: 0.0012 + 0.0025 * (w / 15) + 0.001 * rand(),
    });
  }
  for (let w = 0; w < 6; w++) {
    wraps.push({
      th0: 0.42 * Math.PI,
      th1: 0.04 * Math.PI,
      ph0: (2 * Math.PI * w) / 6 + 0.4 * rand(),
      sweep: 0.8 * Math.PI,
      lift: 0.0042 + 0.0006 * rand(),
    });
  }
  for (const wrap of wraps) {
    const shade = 0.8 + 0.4 * rand();
    const width = 0.0075 * (0.85 + 0.3 * rand());
    const points: LockPoint[] = [];
    for (let s = 0; s < WRAP_SAMPLES; s++) {
      const k = s / (WRAP_SAMPLES - 1);
      const th = lerp(wrap.th0, wrap.th1, k);
      const ph = wrap.ph0 + wrap.sweep * k;
      const p = onBun(centre, frame, th, ph, BUN_RADIUS + wrap.lift * Math.sin(Math.PI * (0.15 + 0.7 * k)));
      const up = norm(sub(p, centre));
      // Lit from above: the top of the bun is brighter than its sides.
      const sheen = 1 + 0.45 * smoothstep(0.3, 0.9, dot(up, v3(0, 1, 0.25)));
      points.push({
        p,
        up,
        width: width * (0.6 + 0.4 * Math.sin(Math.PI * Math.min(1, 0.2 + k))),
        thickness: 0.0009,
        color: scale(mix3(root, tip, 0.35 + 0.35 * k), 2.6 * shade * sheen),
      });
    }
    const [u0, u1] = lockSlice(rand);
    appendCard(points, u0, u1, mesh, 1, 1.5);
  }
}

/** Fine short hairs lying on the skin at the hairline: most at the temples, some over the forehead and the nape. */
function babyHairs(layout: FaceLayout, shape: HairShape, root: V3, tip: V3, mesh: CardMesh): void {
  const rand = mulberry32(0x62616279);
  for (let i = 0; i < 34; i++) {
    const side = i % 2 === 0 ? 1 : -1;
    // 14 at the temples, 8 over the forehead, 12 along the nape.
    const phi =
      i < 14 ? side * (0.55 + 0.6 * rand()) : i < 22 ? side * 0.5 * rand() : side * (Math.PI - 0.9 * rand());
    const hl = shape.hairline(phi);
    const start = direction(phi, hl + 0.035);
    // They fall forward and curl a little towards the face's middle line at the temples.
    const end = direction(phi - side * (0.05 + 0.1 * rand()), hl - 0.05 - 0.05 * rand());
    const points: LockPoint[] = [];
    const n = 8;
    for (let s = 0; s < n; s++) {
      const k = s / (n - 1);
      const dir = slerpDir(start, end, k);
      points.push({
        p: add(layout.skinAt(dir), scale(dir, 0.0009 + shape.volume(dir) * (1 - k))),
        up: dir,
        width: 0.003 + 0.001 * rand(),
        thickness: 0.0002,
        color: scale(mix3(root, tip, 0.4), 1.2),
      });
    }
    appendCard(points, WISP_STRIP[0], WISP_STRIP[1], mesh, 0.95);
  }
}

/** A few loose strands standing off the crown and the sides, as a real pulled-back style has. */
function flyaways(layout: FaceLayout, shape: HairShape, root: V3, tip: V3, mesh: CardMesh): void {
  const rand = mulberry32(0x666c79);
  for (let i = 0; i < 10; i++) {
    const phi = -Math.PI + 2 * Math.PI * ((i + rand()) / 10);
    const hl = shape.hairline(phi);
    const start = direction(phi, lerp(hl, 1.2, 0.3 + 0.4 * rand()));
    const end = slerpDir(start, BUN_AXIS, 0.35 + 0.2 * rand());
    const rise = 0.003 + 0.004 * rand();
    const lift = (k: number): number => 0.002 + rise * Math.sin(Math.PI * k * 0.8);
    appendWisp(
      layout,
      shape,
      { start, end },
      lift,
      { width: 0.004, color: scale(mix3(root, tip, 0.5), 2) },
      mesh,
    );
  }
}
