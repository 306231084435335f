/**
 * Hair in two layers: a thin scalp shell in the root colour (a hairline that frames the face and a
 * rolled edge tucked into the skin) under a few hundred overlapping locks that give the volume,
 * the strands and a broken silhouette. One style per avatar.
 */
import { appendCard, type CardMesh } from './hair-cards.js';
import type { FaceLayout } from './layout.js';
import { appendLock, type LockPoint, random } from './locks.js';
import { add, gauss, lerp, linearRgb, mix3, norm, scale, smoothstep, type V3, v3 } from './math.js';
import { fanIndices, gridIndices, orientAway, type Part } from './part.js';

const AROUND = 120;
const ROWS = 30;

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
  [2.4, -0.28],
  [2.8, -0.55],
  [Math.PI, -0.58],
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
 * Hairline elevation (radians above the head's equator) at azimuth phi (0 = face). `aroundEars`:
 * the card cut's hairline, which goes round the ears (see {@link EAR_HAIRLINE}); otherwise the
 * solid locks' bob, which covers them.
 */
function hairline(style: FaceLayout['style'], phi: number, aroundEars = false): number {
  const front = ((1 + Math.cos(phi)) / 2) ** 2.2;
  const side = Math.sin(phi) ** 2;
  const sideDrop = 0.12;
  if (style.hair === 'swept-fringe' && aroundEars) {
    const sweep = phi > 0 ? 0.1 : -0.05;
    const scallop = 0.015 * Math.abs(Math.sin(phi * 9)) ** 1.5 * front;
    return curveAt(EAR_HAIRLINE, Math.abs(phi)) + sweep * front + scallop;
  }
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
 * The hair: the scalp shell with its locks. With `cards` (the built-ins, which carry textures) a
 * short cut's locks are alpha-textured cards in their own part (`HairCards`, material
 * `hairCards`) over a smooth shell; without, they are solid tubes merged into the shell.
 */
export function buildHair(layout: FaceLayout, cards = false): Part[] {
  const style = layout.style;
  const root = linearRgb(style.colors.hair);
  const tip = linearRgb(style.colors.hairTip);
  const fringe = style.hair === 'swept-fringe';
  // Cards carry the strands: the shell under them is smooth and in the shade of the layers above.
  const withCards = cards && fringe;
  const skinColor = linearRgb(style.colors.skin);
  const positions: V3[] = [];
  const colors: V3[] = [];
  for (let row = 0; row <= ROWS + 2; row++) {
    for (let j = 0; j < AROUND; j++) {
      const phi = -Math.PI + (2 * Math.PI * j) / AROUND;
      const low = hairline(style, phi, withCards);
      const k = Math.max(0.6, Math.min(row, ROWS)) / ROWS;
      const el = lerp(Math.PI / 2, low, k ** 0.85);
      const dir = norm(v3(Math.cos(el) * Math.sin(phi), Math.sin(el), Math.cos(el) * Math.cos(phi)));
      const skin = layout.skinAt(dir);
      // Volume: more on top and at the back, strands carved as soft grooves.
      const front = ((1 + Math.cos(phi)) / 2) ** 2;
      const volume = fringe ? 0.005 - 0.002 * front : 0.003 - 0.001 * front;
      const strandFreq = fringe ? 26 : 40;
      const strands = withCards
        ? 0
        : 0.0022 * Math.abs(Math.sin(phi * strandFreq * 0.5 + (fringe ? 2.2 * el : 0))) ** 0.7;
      // Thin out towards the hairline so hair meets skin softly instead of as a hard rim.
      const edgeTaper = 1 - (fringe && !withCards ? 0.75 : 0.92) * smoothstep(0.7, 1, k);
      let thick = (volume - strands * 0.3) * edgeTaper;
      if (row > ROWS) {
        // The rolled edge tucks into the skin; under cards it dives in gently and in the skin's
        // colour, so no crease line shows on the forehead between the fringe's strands.
        thick =
          row === ROWS + 1 ? (withCards ? -0.0002 : fringe ? 0.0015 : -0.0005) : withCards ? -0.0012 : -0.003;
      }
      let p = add(skin, scale(dir, thick));
      if (fringe && !withCards) {
        // The fringe lifts off the forehead a little so it reads as a separate lock.
        const lift = gauss(phi * phi, 0.5) * smoothstep(0.55, 0.95, k) * 0.003;
        p = add(p, v3(0, 0, lift));
      }
      positions.push(p);
      const shade = 0.55 + 0.45 * Math.abs(Math.sin(phi * strandFreq * 0.5 + (fringe ? 2.2 * el : 0)));
      // A soft hairline: towards its edge the shell lets the skin colour through, as sparse
      // baby hairs do, instead of ending in a dark line.
      const hairColor = scale(
        mix3(root, tip, smoothstep(0.2, 1, k) * 0.4),
        withCards ? 0.5 + 0.08 * shade : 0.55 + 0.2 * shade,
      );
      const edge = row > ROWS ? 1 : smoothstep(0.8, 1, k);
      // Under cards the shell's edge fades all but fully into the skin: the cards' strands draw
      // the hairline, and the shell must not show a rim below them.
      colors.push(mix3(hairColor, skinColor, (withCards ? 1 : 0.55) * edge));
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
  } else if (!withCards) {
    for (const { points } of fringeLocks(layout, root, tip)) appendLock(points, positions, colors, indices);
  }
  const shell: Part = { name: 'Hair', material: withCards ? 'scalp' : 'hair', positions, colors, indices };
  if (!withCards) return [shell];
  return [shell, fringeCards(layout, root, tip)];
}

/** Slices of the strand texture a card may wear (a third of its width each, overlapping). */
const CARD_SLICES = 5;

/** The short cut's locks as alpha-textured cards, wider than the tubes (the alpha thins them). */
function fringeCards(layout: FaceLayout, root: V3, tip: V3): Part {
  const rand = random(0x63617264);
  const mesh: CardMesh = { positions: [], colors: [], uvs: [], indices: [] };
  for (const { points, layer, front } of fringeLocks(layout, root, tip, true)) {
    const slice = Math.floor(rand() * CARD_SLICES);
    const u0 = (slice / CARD_SLICES) * 0.5;
    // Lower layers sit in the shade of the ones above them.
    const shade = [0.62, 0.8, 1][layer]!;
    // The strand texture tapers the lock and frays its tip: the card itself stays broad to the
    // end (a card narrowing to a point reads as a spike).
    const widest = Math.max(...points.map((q) => q.width));
    const card = points.map((q) => ({
      ...q,
      // Broader over the forehead, where the fringe must cover the hairline.
      width: (2.2 + 0.9 * front) * widest * (0.5 + 0.5 * (q.width / widest)),
      thickness: q.thickness * 0.8,
      color: scale(q.color, shade),
    }));
    appendCard(card, u0, u0 + 0.5, mesh);
  }
  return {
    name: 'HairCards',
    material: 'hairCards',
    positions: mesh.positions,
    colors: mesh.colors,
    indices: mesh.indices,
    uvs: mesh.uvs,
  };
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

/** Direction at elevation `el` and azimuth `phi` (0 = face, + towards the avatar's left). */
function direction(phi: number, el: number): V3 {
  return norm(v3(Math.cos(el) * Math.sin(phi), Math.sin(el), Math.cos(el) * Math.cos(phi)));
}

/** Normalised interpolation between two directions (through the shorter arc). */
function slerpDir(a: V3, b: V3, t: number): V3 {
  return norm(add(scale(a, 1 - t), scale(b, t)));
}

/** Rotates a direction about the vertical axis. */
function turn(d: V3, angle: number): V3 {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return v3(d[0] * c + d[2] * s, d[1], -d[0] * s + d[2] * c);
}

const LOCK_SAMPLES = 14;

/**
 * A short, layered cut: locks flow from a whorl at the back of the crown over the head to the
 * hairline; over the forehead they sweep to the avatar's right as a fringe, over the ears and
 * nape they end in soft points.
 */
function fringeLocks(
  layout: FaceLayout,
  root: V3,
  tip: V3,
  aroundEars = false,
): { points: LockPoint[]; layer: number; front: number }[] {
  const style = layout.style;
  const locks: { points: LockPoint[]; layer: number; front: number }[] = [];
  const rand = random(0x6d696b61);
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
      const elEnd =
        hairline(style, phiEnd, aroundEars) -
        0.03 -
        (aroundEars ? 0.09 : 0.05) * front -
        (0.02 + 0.08 * rand()) * (1 - front);
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
      locks.push({ points, layer: L, front });
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
  const rand = random(0x6a756e6f);
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
