/**
 * Mouth shapes: the ARKit blendshape pose of each viseme, and the mixing of viseme weights plus
 * loudness into ARKit mouth coefficients (with bilabial closure taking precedence over opening).
 *
 * The poses follow the ARKit convention that third-party rigs are sculpted for: `mouthClose`
 * closes the lips *while the jaw is open* (it is only ever as large as `jawOpen`; alone it is a
 * pout), and closures with the jaw shut are made with the lips' own shapes (`mouthPress`,
 * `mouthRollLower`/`mouthRollUpper`).
 */
import { ARKIT_INDEX, type ArkitBlendshape, VISEMES, type Viseme } from '@avatar-drive/core';

type Pose = Partial<
  Record<
    | ArkitBlendshape
    | 'mouthStretch'
    | 'mouthSmile'
    | 'mouthPress'
    | 'mouthLowerDown'
    | 'mouthUpperUp'
    | 'cheekSquint',
    number
  >
>;

/** Pose of each viseme at full weight (symmetric names expand to Left and Right). */
const VISEME_POSES: Record<Viseme, Pose> = {
  sil: {},
  PP: {
    jawOpen: 0.02,
    mouthClose: 0.02,
    mouthPress: 0.55,
    mouthRollLower: 0.3,
    mouthRollUpper: 0.2,
    mouthShrugLower: 0.2,
  },
  FF: {
    jawOpen: 0.08,
    mouthRollLower: 0.6,
    mouthShrugUpper: 0.25,
    mouthUpperUp: 0.2,
    mouthClose: 0.06,
    mouthPress: 0.15,
  },
  TH: { jawOpen: 0.16, tongueOut: 0.55, mouthLowerDown: 0.15, mouthUpperUp: 0.1 },
  DD: { jawOpen: 0.2, mouthStretch: 0.15, mouthLowerDown: 0.2, mouthUpperUp: 0.1, tongueOut: 0.05 },
  kk: { jawOpen: 0.26, mouthStretch: 0.2, mouthLowerDown: 0.15 },
  CH: {
    jawOpen: 0.14,
    mouthFunnel: 0.45,
    mouthPucker: 0.3,
    mouthUpperUp: 0.3,
    mouthLowerDown: 0.3,
    mouthShrugUpper: 0.2,
    mouthShrugLower: 0.15,
  },
  SS: {
    jawOpen: 0.07,
    mouthStretch: 0.35,
    mouthSmile: 0.2,
    mouthUpperUp: 0.2,
    mouthLowerDown: 0.25,
    mouthClose: 0.05,
  },
  nn: { jawOpen: 0.14, mouthStretch: 0.1, mouthLowerDown: 0.1, mouthClose: 0.08 },
  RR: { jawOpen: 0.18, mouthFunnel: 0.25, mouthPucker: 0.35, mouthShrugUpper: 0.1, mouthRollLower: 0.05 },
  aa: { jawOpen: 0.7, mouthLowerDown: 0.4, mouthUpperUp: 0.15, mouthStretch: 0.1 },
  E: {
    jawOpen: 0.42,
    mouthStretch: 0.35,
    mouthSmile: 0.25,
    mouthLowerDown: 0.35,
    mouthUpperUp: 0.25,
    mouthDimpleLeft: 0.1,
    mouthDimpleRight: 0.1,
  },
  I: {
    jawOpen: 0.22,
    mouthSmile: 0.5,
    mouthStretch: 0.4,
    mouthUpperUp: 0.2,
    mouthLowerDown: 0.2,
    cheekSquint: 0.15,
  },
  O: { jawOpen: 0.48, mouthFunnel: 0.6, mouthPucker: 0.25, mouthLowerDown: 0.15 },
  U: { jawOpen: 0.2, mouthPucker: 0.75, mouthFunnel: 0.4, mouthRollLower: 0.05 },
};

const SYMMETRIC: Record<string, [ArkitBlendshape, ArkitBlendshape]> = {
  mouthStretch: ['mouthStretchLeft', 'mouthStretchRight'],
  mouthSmile: ['mouthSmileLeft', 'mouthSmileRight'],
  mouthPress: ['mouthPressLeft', 'mouthPressRight'],
  mouthLowerDown: ['mouthLowerDownLeft', 'mouthLowerDownRight'],
  mouthUpperUp: ['mouthUpperUpLeft', 'mouthUpperUpRight'],
  cheekSquint: ['cheekSquintLeft', 'cheekSquintRight'],
};

/** The ARKit coefficients the mouth owns (all others are left to expressive motion). */
export const MOUTH_CHANNELS: readonly number[] = (() => {
  const set = new Set<number>();
  for (const pose of Object.values(VISEME_POSES)) {
    for (const name of Object.keys(pose)) {
      for (const target of SYMMETRIC[name] ?? [name as ArkitBlendshape]) set.add(ARKIT_INDEX[target]);
    }
  }
  set.add(ARKIT_INDEX.cheekPuff);
  return [...set].sort((a, b) => a - b);
})();

/** viseme × 52 pose matrix, row-major. */
const POSE_MATRIX = (() => {
  const m = new Float32Array(VISEMES.length * 52);
  VISEMES.forEach((viseme, v) => {
    for (const [name, value] of Object.entries(VISEME_POSES[viseme])) {
      for (const target of SYMMETRIC[name] ?? [name as ArkitBlendshape])
        m[v * 52 + ARKIT_INDEX[target]] = value;
    }
  });
  return m;
})();

/** MOUTH_CHANNELS as an Int32Array, and POSE_MATRIX restricted to them (viseme × channel, row-major). */
const CHANNELS = Int32Array.from(MOUTH_CHANNELS);
const CHANNEL_COUNT = CHANNELS.length;
const COMPACT_POSES = (() => {
  const m = new Float32Array(VISEMES.length * CHANNEL_COUNT);
  for (let v = 0; v < VISEMES.length; v++)
    for (let k = 0; k < CHANNEL_COUNT; k++) m[v * CHANNEL_COUNT + k] = POSE_MATRIX[v * 52 + CHANNELS[k]!]!;
  return m;
})();
/**
 * The non-zero entries of COMPACT_POSES, channel by channel in viseme order:
 * CHANNEL_START[k]..CHANNEL_START[k + 1] index ENTRY_VISEME and ENTRY_VALUE. A zero entry adds
 * w·0 = +0 to a float32 sum, which leaves it as it is, so skipping them gives the same sums bit
 * for bit (a channel takes 1–9 of the 14 speech visemes).
 */
const CHANNEL_START = new Int32Array(CHANNEL_COUNT + 1);
const ENTRY_VISEME: Int32Array = (() => {
  const visemes: number[] = [];
  for (let k = 0; k < CHANNEL_COUNT; k++) {
    CHANNEL_START[k] = visemes.length;
    // sil (row 0) contributes nothing.
    for (let v = 1; v < VISEMES.length; v++) if (COMPACT_POSES[v * CHANNEL_COUNT + k] !== 0) visemes.push(v);
  }
  CHANNEL_START[CHANNEL_COUNT] = visemes.length;
  return Int32Array.from(visemes);
})();
const ENTRY_VALUE: Float64Array = (() => {
  const values = new Float64Array(ENTRY_VISEME.length);
  for (let k = 0; k < CHANNEL_COUNT; k++)
    for (let e = CHANNEL_START[k]!; e < CHANNEL_START[k + 1]!; e++)
      values[e] = COMPACT_POSES[ENTRY_VISEME[e]! * CHANNEL_COUNT + k]!;
  return values;
})();
/** The viseme weights a mix reads: 0 for those at or below the 1e-4 cut-off (0 adds nothing). */
const MIX_WEIGHTS = new Float64Array(VISEMES.length);

const PP = VISEMES.indexOf('PP');
const JAW = ARKIT_INDEX.jawOpen;
const CLOSE = ARKIT_INDEX.mouthClose;
const PUFF = ARKIT_INDEX.cheekPuff;
const PRESS_LEFT = ARKIT_INDEX.mouthPressLeft;
const PRESS_RIGHT = ARKIT_INDEX.mouthPressRight;
const ROLL_LOWER = ARKIT_INDEX.mouthRollLower;
const ROLL_UPPER = ARKIT_INDEX.mouthRollUpper;

/** `mouthPress` (each side) at full bilabial closure: the lips meet and press with the jaw shut. */
export const CLOSURE_PRESS = 0.6;
/** `mouthRollLower` / `mouthRollUpper` at full bilabial closure. */
const CLOSURE_ROLL_LOWER = 0.35;
const CLOSURE_ROLL_UPPER = 0.25;

/**
 * Writes the mouth coefficients of `visemes` (weights summing to ≤ 1; `sil` contributes nothing)
 * into `expression`. `bilabial` is the current frame's p/b/m weight (closure must not wait for
 * smoothing); `loudness` 0..1 (speech level relative to the speaker's running level) scales how
 * wide the jaw opens.
 */
export function mixMouth(
  visemes: Float32Array,
  bilabial: number,
  loudness: number,
  expression: Float32Array,
): void {
  // Each channel sums its visemes in viseme order with float32 rounding after each add (as a
  // Float32Array accumulator would), over its non-zero pose entries only, in a local.
  const weights = MIX_WEIGHTS;
  for (let v = 1; v < VISEMES.length; v++) {
    const w = visemes[v]!;
    weights[v] = w <= 1e-4 ? 0 : w;
  }
  for (let k = 0; k < CHANNEL_COUNT; k++) {
    let sum = 0;
    for (let e = CHANNEL_START[k]!; e < CHANNEL_START[k + 1]!; e++)
      sum = Math.fround(sum + weights[ENTRY_VISEME[e]!]! * ENTRY_VALUE[e]!);
    expression[CHANNELS[k]!] = sum;
  }
  expression[JAW] = expression[JAW]! * (0.75 + 0.45 * loudness);
  // Lips really close on p/b/m: a confident bilabial overrides the opening of its neighbours.
  const closure = Math.min(1, Math.max(0, (Math.max(bilabial, visemes[PP]!) - 0.05) / 0.2));
  if (closure > 0) {
    const jaw = expression[JAW]! * (1 - 0.9 * closure);
    expression[JAW] = jaw;
    // What is left of the jaw's opening is closed by mouthClose (ARKit: lips shut over an open
    // jaw); the meeting itself is the lips' press and roll, as a real ARKit rig sculpts it.
    expression[CLOSE] = Math.max(expression[CLOSE]!, jaw * closure);
    expression[PRESS_LEFT] = Math.max(expression[PRESS_LEFT]!, CLOSURE_PRESS * closure);
    expression[PRESS_RIGHT] = Math.max(expression[PRESS_RIGHT]!, CLOSURE_PRESS * closure);
    expression[ROLL_LOWER] = Math.max(expression[ROLL_LOWER]!, CLOSURE_ROLL_LOWER * closure);
    expression[ROLL_UPPER] = Math.max(expression[ROLL_UPPER]!, CLOSURE_ROLL_UPPER * closure);
    expression[PUFF] = 0.2 * closure * loudness;
  }
  for (let k = 0; k < CHANNEL_COUNT; k++) {
    const c = CHANNELS[k]!;
    expression[c] = Math.min(1, Math.max(0, expression[c]!));
  }
  // ARKit convention: mouthClose never exceeds jawOpen (alone it pushes the lips into a pout).
  if (expression[CLOSE]! > expression[JAW]!) expression[CLOSE] = expression[JAW]!;
}
