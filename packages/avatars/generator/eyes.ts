/**
 * Eyeballs (sclera, iris, pupil as vertex colours on one sphere each, pole looking forward) and
 * eyelids (upper and lower shells with a rolled edge and a lash line). Gaze rotates the
 * eyeballs; blinks, squints and wide eyes move the lid edges.
 */
import type { ArkitBlendshape } from '@avatar-drive/core';
import type { FaceLayout } from './layout.js';
import {
  add,
  gauss,
  lerp,
  linearRgb,
  mix3,
  norm,
  rotX,
  rotY,
  scale,
  smoothstep,
  sub,
  type V3,
  v3,
} from './math.js';
import { fanIndices, gridIndices, orientAway, type Part } from './part.js';
import { uvOfDirection } from './skin/uv.js';

const HEAD_CENTRE = v3(0, 0, 0);

const EYE_SEGMENTS = 64;
/** Angular radii (from the eye's forward pole) of the pupil and the iris. */
const PUPIL = 0.2;
const IRIS = 0.56;
/** Gaze rotation at weight 1 (radians). */
const LOOK_H = 0.42;
const LOOK_V = 0.33;
/** The cornea's rim (radians from the pole): on the dark limbus, so its tint never greys the sclera. */
const CORNEA_RIM = IRIS + 0.03;

type Side = 0 | 1;

/** What an eyeball and its cornea need of a face: the eye's radius and the iris colours. */
export interface EyeSpec {
  eyeRadius: number;
  style: { colors: Pick<FaceLayout['style']['colors'], 'iris' | 'irisRim'> };
}
const SIDE_NAME = ['Left', 'Right'] as const;

/** Radial structure of the iris at angle phi: crypts and fibres as a sum of incommensurate waves. */
function irisFibres(phi: number, k: number): number {
  return (
    0.5 * Math.sin(7 * phi + 0.4) +
    0.35 * Math.sin(13 * phi + 2.1 + 3 * k) +
    0.3 * Math.sin(23 * phi + 1.3) +
    0.25 * Math.sin(31 * phi + 4.2 - 2 * k)
  );
}

/** One eyeball in eye-local coordinates (centre at the origin). Its node sits at the eye centre. */
export function buildEye(layout: EyeSpec, side: Side): Part {
  const r = layout.eyeRadius;
  const c = layout.style.colors;
  // The cornea shell over the iris dims it by its opacity (30 %, see materials.ts): brighten to match.
  const iris = scale(linearRgb(c.iris), 1 / 0.7);
  const irisRim = linearRgb(c.irisRim);
  const irisLight = mix3(iris, v3(1, 0.92, 0.7), 0.35);
  const pupil = v3(0.008, 0.007, 0.007);
  // The sclera is not paper white: warm ivory, greyer towards the back, a little pink at the corners.
  const sclera = linearRgb(0xefe6dc);
  const scleraShade = linearRgb(0xcfc1b8);
  const scleraPink = linearRgb(0xe6bfb6);
  // Ring angles: doubled at the colour borders so the iris edge is crisp, dense across the iris
  // for its radial fibres.
  const thetas = [
    0.06,
    0.14,
    PUPIL - 0.005,
    PUPIL + 0.005,
    0.24,
    0.28,
    0.32,
    0.36,
    0.4,
    0.44,
    0.48,
    IRIS - 0.035,
    IRIS - 0.008,
    IRIS + 0.008,
    0.72,
    0.86,
    1.05,
    1.3,
    1.65,
    2.1,
    2.6,
  ];
  const colorAt = (t: number, phi: number): V3 => {
    if (t < PUPIL) return pupil;
    if (t < IRIS) {
      const k = (t - PUPIL) / (IRIS - PUPIL);
      let base = mix3(irisLight, iris, smoothstep(0.0, 0.55, k));
      // A pale collarette ring a third of the way out, fibres radiating across it, a dark limbus.
      base = mix3(base, irisLight, 0.35 * gauss((k - 0.3) ** 2, 0.06));
      base = scale(base, 1 + 0.28 * irisFibres(phi, k) * (0.4 + 0.6 * smoothstep(0.1, 0.5, k)));
      return mix3(base, irisRim, smoothstep(0.7, 1.0, k));
    }
    const corners = Math.cos(phi) ** 2 * smoothstep(0.8, 1.3, t);
    return mix3(mix3(sclera, scleraPink, 0.45 * corners), scleraShade, smoothstep(0.9, 2.2, t));
  };
  const positions: V3[] = [];
  const colors: V3[] = [];
  for (const t of thetas) {
    // The iris is nearly flat (the cornea in front of it bulges, see buildCornea).
    const dome = 1 + 0.015 * Math.cos(Math.min(t / (IRIS + 0.1), 1) * (Math.PI / 2)) ** 2;
    for (let j = 0; j < EYE_SEGMENTS; j++) {
      const phi = (2 * Math.PI * j) / EYE_SEGMENTS;
      const s = Math.sin(t) * r * dome;
      positions.push(v3(s * Math.cos(phi), s * Math.sin(phi), Math.cos(t) * r * dome));
      colors.push(colorAt(t, phi));
    }
  }
  const front = positions.length;
  positions.push(v3(0, 0, r * 1.015));
  colors.push(pupil);
  const back = positions.length;
  positions.push(v3(0, 0, -r));
  colors.push(scleraShade);
  const rows = thetas.length;
  const indices = [
    ...gridIndices(rows, EYE_SEGMENTS, true),
    ...fanIndices(front, 0, EYE_SEGMENTS, false),
    ...fanIndices(back, (rows - 1) * EYE_SEGMENTS, EYE_SEGMENTS, true),
  ];
  return {
    name: `Eye${SIDE_NAME[side]}`,
    material: 'eye',
    positions,
    colors,
    indices: orientAway(positions, indices, ORIGIN),
    targets: gazeTargets(side, positions),
  };
}

const ORIGIN = v3(0, 0, 0);

/** Gaze morph targets of a part that turns with the eyeball (eye-local coordinates). */
function gazeTargets(side: Side, positions: V3[]): Part['targets'] {
  // The eye's own "out" is +x for the left eye, -x for the right.
  const out = side === 0 ? 1 : -1;
  const gaze = (name: ArkitBlendshape): ((p: V3) => V3) | null => {
    const s = SIDE_NAME[side];
    if (name === `eyeLookUp${s}`) return (p) => rotX(p, ORIGIN, -LOOK_V);
    if (name === `eyeLookDown${s}`) return (p) => rotX(p, ORIGIN, LOOK_V);
    if (name === `eyeLookOut${s}`) return (p) => rotY(p, ORIGIN, out * LOOK_H);
    if (name === `eyeLookIn${s}`) return (p) => rotY(p, ORIGIN, -out * LOOK_H);
    return null;
  };
  return (name) => {
    const f = gaze(name);
    return f ? positions.map((p) => sub(f(p), p)) : null;
  };
}

/**
 * The cornea: a clear, glossy dome over the iris that meets the eyeball at the limbus. It bulges
 * more than the eyeball, so it catches the lights and the room as a sharp highlight where the
 * flatter iris behind it would not; it turns with the eyeball.
 */
export function buildCornea(layout: EyeSpec, side: Side): Part {
  const r = layout.eyeRadius;
  const rings = 9;
  const positions: V3[] = [];
  for (let i = 1; i <= rings; i++) {
    const t = (CORNEA_RIM * i) / rings;
    // Spherical dome (a smaller radius of curvature than the eyeball) blended into the eyeball
    // at the rim, standing a hair off it so it never dips under the sclera.
    const k = t / CORNEA_RIM;
    const lift = 1.004 + 0.05 * (1 - k * k) ** 1.5;
    for (let j = 0; j < EYE_SEGMENTS; j++) {
      const phi = (2 * Math.PI * j) / EYE_SEGMENTS;
      const s = Math.sin(t) * r * lift;
      positions.push(v3(s * Math.cos(phi), s * Math.sin(phi), Math.cos(t) * r * lift));
    }
  }
  const pole = positions.length;
  positions.push(v3(0, 0, r * 1.054));
  const indices = [...gridIndices(rings, EYE_SEGMENTS, true), ...fanIndices(pole, 0, EYE_SEGMENTS, false)];
  return {
    name: `Cornea${SIDE_NAME[side]}`,
    material: 'cornea',
    positions,
    colors: positions.map(() => v3(1, 1, 1)),
    indices: orientAway(positions, indices, ORIGIN),
    targets: gazeTargets(side, positions),
  };
}

interface LidShape {
  /** Upper and lower edge offsets (radians, + opens upwards). */
  upper: number;
  lower: number;
}

/** How each blendshape moves the lid edges of one eye. */
function lidShapeFor(name: ArkitBlendshape, side: Side): LidShape | null {
  const s = SIDE_NAME[side];
  switch (name) {
    case `eyeBlink${s}`:
      return { upper: Number.NaN, lower: Number.NaN };
    case `eyeWide${s}`:
      return { upper: 0.2, lower: -0.06 };
    case `eyeSquint${s}`:
      return { upper: -0.08, lower: 0.24 };
    case `eyeLookUp${s}`:
      return { upper: 0.16, lower: 0.08 };
    case `eyeLookDown${s}`:
      return { upper: -0.3, lower: -0.06 };
    case `cheekSquint${s}`:
      return { upper: 0, lower: 0.1 };
    case `mouthSmile${s}`:
      return { upper: 0, lower: 0.09 };
    case `browDown${s}`:
      return { upper: -0.07, lower: 0 };
    default:
      return null;
  }
}

const LID_COLS = 24;
const LID_ROWS = 7;
/** Rows of the lash fin: root in front, tip, root behind. */
const LASH_ROWS = 3;
const GAMMA_MAX = 1.4;
const UPPER_TOP = 1.2;
const LOWER_BOTTOM = -1.05;
/** A triangle in the middle of a lid shell (past the rolled edge), to judge the winding. */
const LID_PROBE = 6 * (LID_COLS - 1) * 2 + LID_COLS;

/** Both lids of one eye and its upper lashes, in head coordinates (one model, two parts). */
function lidModel(layout: FaceLayout, side: Side): { lids: Part; lashes: Part } {
  const eye = layout.eyes[side];
  const r = layout.eyeRadius;
  const c = layout.style.colors;
  const skin = linearRgb(c.skin);
  const lidSkin = mix3(skin, linearRgb(c.blush), 0.06);
  const lash = linearRgb(0x1a100c);
  const lowerLine = mix3(skin, linearRgb(c.blush), 0.3);
  const creaseShadow = mix3(scale(skin, 0.55), linearRgb(c.blush), 0.2);
  const mirror = side === 0 ? 1 : -1;

  // Edge curves over the horizontal angle g (-GAMMA_MAX inner .. +GAMMA_MAX outer).
  const shape = (g: number): number => Math.cos((g / GAMMA_MAX) * (Math.PI / 2)) ** 0.75;
  const cornerLevel = (g: number): number => lerp(-0.04, 0.05, (g / GAMMA_MAX + 1) / 2);
  const upperOpen = (g: number): number => lerp(cornerLevel(g), 0.43, shape(g));
  const lowerOpen = (g: number): number => lerp(cornerLevel(g) - 0.02, -0.42, shape(g));
  const meet = (g: number): number => lerp(cornerLevel(g), -0.2, shape(g));

  const point = (g: number, b: number, radius: number): V3 => {
    // g runs inner → outer; mirror so that "outer" points away from the nose.
    const x = Math.sin(g) * Math.cos(b) * mirror;
    return add(eye, scale(v3(x, Math.sin(b), Math.cos(g) * Math.cos(b)), radius));
  };

  const build = (upperEdge: (g: number) => number, lowerEdge: (g: number) => number): V3[] => {
    const out: V3[] = [];
    for (const lid of ['upper', 'lower'] as const) {
      const isUpper = lid === 'upper';
      const far = isUpper ? UPPER_TOP : LOWER_BOTTOM;
      const radius = isUpper ? 1.065 : 1.05;
      for (let row = -2; row <= LID_ROWS; row++) {
        for (let col = 0; col < LID_COLS; col++) {
          const g = -GAMMA_MAX + (2 * GAMMA_MAX * col) / (LID_COLS - 1);
          const edge = isUpper ? upperEdge(g) : lowerEdge(g);
          const dir = isUpper ? 1 : -1;
          if (row < 0) {
            // Rolled edge: the lid's thickness, tucked back against the eyeball.
            const tuck = row === -1 ? 1.035 : 1.003;
            out.push(point(g, edge - dir * 0.0 + dir * (row === -2 ? 0.06 : 0.015), r * tuck));
          } else {
            const k = (row / LID_ROWS) ** 1.25;
            // The upper lid is a visible fold: full just above the lash line, tucked in at the
            // crease under the brow bone.
            const fold = isUpper
              ? 0.035 * Math.sin(Math.PI * Math.min(1, k / 0.3)) - 0.03 * gauss((k - 0.42) ** 2, 0.08)
              : 0;
            out.push(point(g, lerp(edge, far, k), r * radius * (1 + 0.04 * Math.sin(Math.PI * k) + fold)));
          }
        }
      }
    }
    // Upper lashes: a thin fin from the lid edge curving up and out, longest at the outer corner.
    for (let row = 0; row < LASH_ROWS; row++) {
      for (let col = 0; col < LID_COLS; col++) {
        const g = -GAMMA_MAX + (2 * GAMMA_MAX * col) / (LID_COLS - 1);
        const edge = upperEdge(g);
        const length = (0.4 + 0.6 * smoothstep(-1.3, 0.8, g)) * (1 - 0.7 * smoothstep(1.05, 1.4, g));
        // Lashes curl up and out past the lid: from the front they thicken the lash line into a
        // dark frame above the eye, longest and flicked out at the outer corner.
        if (row === 1) out.push(point(g + 0.1 * length, edge + 0.16 * length, r * (1.1 + 0.24 * length)));
        else out.push(point(g, edge + (row === 0 ? 0.01 : -0.015), r * (row === 0 ? 1.075 : 1.06)));
      }
    }
    return out;
  };

  const rest = build(upperOpen, lowerOpen);
  const colors: V3[] = [];
  for (const lid of ['upper', 'lower'] as const) {
    for (let row = -2; row <= LID_ROWS; row++) {
      for (let col = 0; col < LID_COLS; col++) {
        const g = -GAMMA_MAX + (2 * GAMMA_MAX * col) / (LID_COLS - 1);
        const towardsOuter = smoothstep(-0.6, 1.2, g);
        if (lid === 'upper') {
          const line =
            row <= 0 ? 1 : row === 1 ? 0.45 + 0.3 * towardsOuter : row === 2 ? 0.1 * towardsOuter : 0;
          // The crease reads as a soft shadow line across the lid.
          const crease = row === 3 ? 0.22 : row === 4 ? 0.1 : 0;
          colors.push(mix3(mix3(lidSkin, creaseShadow, crease), lash, line));
        } else {
          colors.push(row <= 0 ? lowerLine : row === 1 ? mix3(skin, lash, 0.18) : skin);
        }
      }
    }
  }
  for (let i = 0; i < LASH_ROWS * LID_COLS; i++) colors.push(lash);
  const rowsPerLid = LID_ROWS + 3;
  const upperIdx = gridIndices(rowsPerLid, LID_COLS, false, 0);
  const lowerIdx = gridIndices(rowsPerLid, LID_COLS, false, rowsPerLid * LID_COLS);
  // The lash fin folds back on itself like a tent over the lid's edge; its outside faces away
  // from the eye (single-sided: the front half is what a camera in front of the face sees).
  const lashIdx = orientAway(
    rest,
    gridIndices(LASH_ROWS, LID_COLS, false, 2 * rowsPerLid * LID_COLS),
    eye,
    LID_COLS,
  );
  const indices = [
    ...orientAway(rest, upperIdx, eye, LID_PROBE),
    ...orientAway(rest, lowerIdx, eye, LID_PROBE),
  ];
  const lidCount = 2 * rowsPerLid * LID_COLS;

  const targets = (name: ArkitBlendshape): V3[] | null => {
    const s = lidShapeFor(name, side);
    if (!s) return null;
    const moved = Number.isNaN(s.upper)
      ? build(
          (g) => meet(g) - 0.04,
          (g) => meet(g),
        )
      : build(
          (g) => upperOpen(g) + s.upper * shape(g),
          (g) => Math.min(lowerOpen(g) + s.lower * shape(g), upperOpen(g) - 0.12),
        );
    return moved.map((p, i) => sub(p, rest[i]!));
  };
  const lidPositions = rest.slice(0, lidCount);
  const lidColors = colors.slice(0, lidCount);
  // Textured, the lids read the face's skin where they sit (the socket's texels), so they match
  // the face around them; their vertex colours tint it with the lash line and the crease.
  const uvs = lidPositions.map((p) => uvOfDirection(norm(sub(p, HEAD_CENTRE))));
  const multipliers = lidColors.map((col) =>
    v3(Math.min(1, col[0] / skin[0]), Math.min(1, col[1] / skin[1]), Math.min(1, col[2] / skin[2])),
  );
  return {
    lids: {
      name: `Eyelids${SIDE_NAME[side]}`,
      material: 'skin',
      positions: lidPositions,
      colors: lidColors,
      indices,
      texture: { uvs, colors: multipliers, relief: false },
      targets: (name) => targets(name)?.slice(0, lidCount) ?? null,
    },
    lashes: {
      name: 'Lashes',
      material: 'lashes',
      positions: rest.slice(lidCount),
      colors: colors.slice(lidCount),
      indices: lashIdx.map((i) => i - lidCount),
      targets: (name) => targets(name)?.slice(lidCount) ?? null,
    },
  };
}

/** Both lids of one eye, in head coordinates. */
export function buildLids(layout: FaceLayout, side: Side): Part {
  return lidModel(layout, side).lids;
}

/**
 * The upper lashes of both eyes as one part, in a matte material of their own (the skin's sheen
 * would tint them pink). They ride on the lids' blink, squint and gaze shapes.
 */
export function buildLashes(layout: FaceLayout): Part {
  const [left, right] = [lidModel(layout, 0).lashes, lidModel(layout, 1).lashes];
  const offset = left.positions.length;
  return {
    name: 'Lashes',
    material: 'lashes',
    positions: [...left.positions, ...right.positions],
    colors: [...left.colors, ...right.colors],
    indices: [...left.indices, ...right.indices.map((i) => i + offset)],
    targets: (name) => {
      const a = left.targets?.(name) ?? null;
      const b = right.targets?.(name) ?? null;
      if (!a && !b) return null;
      const zeros = (n: number): V3[] => Array.from({ length: n }, (): V3 => [0, 0, 0]);
      return [...(a ?? zeros(offset)), ...(b ?? zeros(right.positions.length))];
    },
  };
}
