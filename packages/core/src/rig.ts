/**
 * The `arkit-52` rig: what one 25 fps drive frame means, and its packed wire form (`Flame`).
 */

import { create } from '@bufbuild/protobuf';
import { describeValue, everyIndex } from './describe.js';
import { AvatarError } from './errors.js';
import { type Flame, FlameSchema } from './gen/driveningress/v2/driveningress_pb.js';

/** Drive frames per second. */
export const FPS = 25;
/** Milliseconds per drive frame. */
export const FRAME_MS = 1000 / FPS;
/** The rig identifier carried in avatar manifests. */
export const RIG_ID = 'arkit-52';

/** The 52 ARKit blendshape names, in wire order (`Flame.expression`). */
export const ARKIT_BLENDSHAPES = [
  'eyeBlinkLeft',
  'eyeLookDownLeft',
  'eyeLookInLeft',
  'eyeLookOutLeft',
  'eyeLookUpLeft',
  'eyeSquintLeft',
  'eyeWideLeft',
  'eyeBlinkRight',
  'eyeLookDownRight',
  'eyeLookInRight',
  'eyeLookOutRight',
  'eyeLookUpRight',
  'eyeSquintRight',
  'eyeWideRight',
  'jawForward',
  'jawRight',
  'jawLeft',
  'jawOpen',
  'mouthClose',
  'mouthFunnel',
  'mouthPucker',
  'mouthRight',
  'mouthLeft',
  'mouthSmileLeft',
  'mouthSmileRight',
  'mouthFrownLeft',
  'mouthFrownRight',
  'mouthDimpleLeft',
  'mouthDimpleRight',
  'mouthStretchLeft',
  'mouthStretchRight',
  'mouthRollLower',
  'mouthRollUpper',
  'mouthShrugLower',
  'mouthShrugUpper',
  'mouthPressLeft',
  'mouthPressRight',
  'mouthLowerDownLeft',
  'mouthLowerDownRight',
  'mouthUpperUpLeft',
  'mouthUpperUpRight',
  'browDownLeft',
  'browDownRight',
  'browInnerUp',
  'browOuterUpLeft',
  'browOuterUpRight',
  'cheekPuff',
  'cheekSquintLeft',
  'cheekSquintRight',
  'noseSneerLeft',
  'noseSneerRight',
  'tongueOut',
] as const;

export type ArkitBlendshape = (typeof ARKIT_BLENDSHAPES)[number];

/** Index of each ARKit blendshape in `DriveFrame.expression`. */
export const ARKIT_INDEX: Readonly<Record<ArkitBlendshape, number>> = Object.freeze(
  Object.fromEntries(ARKIT_BLENDSHAPES.map((name, i) => [name, i])) as Record<ArkitBlendshape, number>,
);

/** The 15 visemes, in wire order (`Flame.visemes`, field 100). */
export const VISEMES = [
  'sil',
  'PP',
  'FF',
  'TH',
  'DD',
  'kk',
  'CH',
  'SS',
  'nn',
  'RR',
  'aa',
  'E',
  'I',
  'O',
  'U',
] as const;

export type Viseme = (typeof VISEMES)[number];

/** Index of each viseme in `DriveFrame.visemes`. */
export const VISEME_INDEX: Readonly<Record<Viseme, number>> = Object.freeze(
  Object.fromEntries(VISEMES.map((name, i) => [name, i])) as Record<Viseme, number>,
);

/** Float counts of each keyframe field. */
export const FRAME_LAYOUT = {
  translation: 3,
  rotation: 3,
  neckPose: 3,
  jawPose: 3,
  eyePose: 6,
  eyeLid: 2,
  expression: ARKIT_BLENDSHAPES.length,
  visemes: VISEMES.length,
} as const;

/** Name of a {@link DriveFrame} array field. */
export type DriveFrameField = keyof typeof FRAME_LAYOUT;

/** The array fields of a {@link DriveFrame}, in {@link FRAME_LAYOUT} order. */
export const DRIVE_FRAME_FIELDS: readonly DriveFrameField[] = Object.freeze(
  Object.keys(FRAME_LAYOUT) as DriveFrameField[],
);

/**
 * One 25 fps frame of avatar drive. Frame `index` of an utterance covers samples
 * `[index·sr/25, (index+1)·sr/25)` of its audio. Rotations are axis-angle radians.
 */
export interface DriveFrame {
  /** Frame number within the utterance (0-based). */
  index: number;
  /** 15 viseme weights 0..1, order {@link VISEMES}. */
  visemes: Float32Array;
  /** 52 ARKit coefficients 0..1, order {@link ARKIT_BLENDSHAPES}. */
  expression: Float32Array;
  /** Jaw rotation, axis-angle (3). */
  jawPose: Float32Array;
  /** Head rotation, axis-angle (3). */
  rotation: Float32Array;
  /** Neck rotation, axis-angle (3). */
  neckPose: Float32Array;
  /** Left then right eye rotation, axis-angle (6). */
  eyePose: Float32Array;
  /** Left, right eyelid closure 0..1 (2). */
  eyeLid: Float32Array;
  /** Head translation in metres (3). */
  translation: Float32Array;
}

/**
 * Floats of one packed drive frame: its `index`, then every field in {@link FRAME_LAYOUT}
 * order (88 for `arkit-52`). Derived from the layout, so a rig change moves it too.
 */
export const PACKED_DRIVE_FRAME_FLOATS: number =
  1 + DRIVE_FRAME_FIELDS.reduce((sum, field) => sum + FRAME_LAYOUT[field], 0);

/**
 * Packs `frames` into `out` from float `offset` on (index, then the fields in
 * {@link FRAME_LAYOUT} order, frame after frame) and returns the offset after them. The packed
 * form crosses a worker boundary as one transferable buffer instead of eight typed arrays per
 * frame; float32 in, the same float32 out.
 *
 * @example
 * ```ts
 * const out = new Float32Array(2 * PACKED_DRIVE_FRAME_FLOATS);
 * const end = packDriveFramesInto([createDriveFrame(0), createDriveFrame(1)], out, 0);
 * ```
 */
export function packDriveFramesInto(
  frames: readonly DriveFrame[],
  out: Float32Array,
  offset: number,
): number {
  let at = offset;
  for (const frame of frames) {
    out[at++] = frame.index;
    for (const field of DRIVE_FRAME_FIELDS) {
      out.set(frame[field], at);
      at += FRAME_LAYOUT[field];
    }
  }
  return at;
}

/** Packs `frames` into a new buffer of `frames.length` × {@link PACKED_DRIVE_FRAME_FLOATS} floats. */
export function packDriveFrames(frames: readonly DriveFrame[]): Float32Array {
  const out = new Float32Array(frames.length * PACKED_DRIVE_FRAME_FLOATS);
  packDriveFramesInto(frames, out, 0);
  return out;
}

/**
 * Inverse of {@link packDriveFramesInto}: the whole frames in `packed`, whose fields are views
 * into it (no copy). A trailing partial frame is ignored.
 */
export function unpackDriveFrames(packed: Float32Array): DriveFrame[] {
  const frames: DriveFrame[] = [];
  for (let at = 0; at + PACKED_DRIVE_FRAME_FLOATS <= packed.length; at += PACKED_DRIVE_FRAME_FLOATS) {
    const frame = { index: packed[at]! } as DriveFrame;
    let p = at + 1;
    for (const field of DRIVE_FRAME_FIELDS) {
      const length = FRAME_LAYOUT[field];
      frame[field] = packed.subarray(p, p + length);
      p += length;
    }
    frames.push(frame);
  }
  return frames;
}

/** A neutral frame: relaxed closed mouth, head still, eyes open. */
export function createDriveFrame(index = 0): DriveFrame {
  return {
    index,
    visemes: new Float32Array(FRAME_LAYOUT.visemes),
    expression: new Float32Array(FRAME_LAYOUT.expression),
    jawPose: new Float32Array(FRAME_LAYOUT.jawPose),
    rotation: new Float32Array(FRAME_LAYOUT.rotation),
    neckPose: new Float32Array(FRAME_LAYOUT.neckPose),
    eyePose: new Float32Array(FRAME_LAYOUT.eyePose),
    eyeLid: new Float32Array(FRAME_LAYOUT.eyeLid),
    translation: new Float32Array(FRAME_LAYOUT.translation),
  };
}

/**
 * Packs a drive frame into its wire keyframe.
 *
 * @throws AvatarError `protocolError` when a field does not have its {@link FRAME_LAYOUT} length.
 */
export function driveFrameToFlame(frame: DriveFrame): Flame {
  if (typeof frame !== 'object' || frame === null) {
    throw new AvatarError(
      'protocolError',
      'driveFrameToFlame() takes a DriveFrame; start from createDriveFrame().',
    );
  }
  for (const field of DRIVE_FRAME_FIELDS) {
    const length = FRAME_LAYOUT[field];
    const values = frame[field];
    if (!(values instanceof Float32Array) || values.length !== length) {
      throw new AvatarError(
        'protocolError',
        `DriveFrame.${field} must be a Float32Array of ${length} values for rig ${RIG_ID}, got ${values instanceof Float32Array ? values.length : typeof values}. Start from createDriveFrame().`,
      );
    }
  }
  return create(FlameSchema, {
    translation: Array.from(frame.translation),
    rotation: Array.from(frame.rotation),
    neckPose: Array.from(frame.neckPose),
    jawPose: Array.from(frame.jawPose),
    eyePose: Array.from(frame.eyePose),
    eyeLid: Array.from(frame.eyeLid),
    expression: Array.from(frame.expression),
    visemes: Array.from(frame.visemes),
  });
}

/**
 * Unpacks a wire keyframe. Empty fields (a peer that does not send them) read as neutral;
 * a field of the wrong non-zero length is a protocolError.
 */
export function flameToDriveFrame(flame: Flame, index = 0): DriveFrame {
  if (typeof flame !== 'object' || flame === null) {
    throw new AvatarError('protocolError', 'flameToDriveFrame() takes a decoded Flame keyframe.');
  }
  const frame = createDriveFrame(index);
  copyField('translation', flame.translation, frame.translation);
  copyField('rotation', flame.rotation, frame.rotation);
  copyField('neck_pose', flame.neckPose, frame.neckPose);
  copyField('jaw_pose', flame.jawPose, frame.jawPose);
  copyField('eye_pose', flame.eyePose, frame.eyePose);
  copyField('eye_lid', flame.eyeLid, frame.eyeLid);
  copyField('expression', flame.expression, frame.expression);
  copyField('visemes', flame.visemes, frame.visemes);
  return frame;
}

function copyField(name: string, source: readonly number[], target: Float32Array): void {
  if (!Array.isArray(source) || !everyIndex(source, (v) => typeof v === 'number')) {
    throw new AvatarError(
      'protocolError',
      `Keyframe field ${name} is not a list of numbers. Decode keyframes with the wire schema.`,
    );
  }
  if (source.length === 0) return;
  if (source.length !== target.length) {
    throw new AvatarError(
      'protocolError',
      `Keyframe field ${name} has ${source.length} values; rig ${RIG_ID} needs ${target.length}. Check that the sender uses rig ${RIG_ID}.`,
    );
  }
  target.set(source);
}

function checkTiming(value: number, name: string, positive: boolean): void {
  if (!Number.isSafeInteger(value) || value < (positive ? 1 : 0)) {
    throw new AvatarError(
      'invalidRequest',
      `${name} must be a ${positive ? 'positive' : 'non-negative'} whole number, got ${describeValue(value)}.`,
    );
  }
}

/** Samples per frame at a sample rate (all supported rates divide evenly by 25). */
export function samplesPerFrame(sampleRate: number): number {
  checkTiming(sampleRate, 'sampleRate', true);
  return sampleRate / FPS;
}

/**
 * The sample range `[start, end)` that frame `index` covers at `sampleRate`: the whole samples
 * `s` with `index·sr/25 ≤ s < (index+1)·sr/25`. Consecutive frames tile the stream exactly, and
 * {@link frameAtSample} maps every sample of the range back to `index`.
 */
export function frameSampleRange(index: number, sampleRate: number): [start: number, end: number] {
  checkTiming(index, 'frame index', false);
  checkTiming(sampleRate, 'sampleRate', true);
  return [Math.ceil((index * sampleRate) / FPS), Math.ceil(((index + 1) * sampleRate) / FPS)];
}

/** The frame that contains sample `sample` at `sampleRate`. */
export function frameAtSample(sample: number, sampleRate: number): number {
  checkTiming(sample, 'sample', false);
  checkTiming(sampleRate, 'sampleRate', true);
  return Math.floor((sample * FPS) / sampleRate);
}

/** Number of frames needed to cover `sampleCount` samples (the last one may be partial). */
export function frameCountForSamples(sampleCount: number, sampleRate: number): number {
  checkTiming(sampleCount, 'sampleCount', false);
  checkTiming(sampleRate, 'sampleRate', true);
  return Math.ceil((sampleCount * FPS) / sampleRate);
}
