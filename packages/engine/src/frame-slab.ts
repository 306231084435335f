/**
 * New drive frames for the driver, carved out of shared slabs. A frame made by core's
 * `createDriveFrame` allocates eight typed arrays, and the 52-value expression array gets its own
 * off-heap backing store (past V8's on-heap size for typed arrays): for a caller that does not
 * recycle frames that was the engine's largest single JavaScript cost (≈ 9 % of a 16 kHz driver's
 * time on WebAssembly). Here the eight arrays are views into one ArrayBuffer shared by
 * {@link FRAMES_PER_SLAB} frames: same fields, same lengths, same zeros, a fifth of the cost.
 *
 * A slab is never written twice: its frames are handed out once, in order, and a new zero-filled
 * slab follows, so frames never alias one another. A frame kept alive keeps its slab (≈ 22 KB)
 * alive; a caller reading `field.buffer` must use the view's byteOffset/length, as with any view.
 */
import { type DriveFrame, FRAME_LAYOUT } from '@avatar-drive/core';

/** Frames per slab: large enough to amortise the buffer, small enough to retain little. */
export const FRAMES_PER_SLAB = 64;

/** Floats of one frame, every field in FRAME_LAYOUT order. */
const FRAME_FLOATS =
  FRAME_LAYOUT.translation +
  FRAME_LAYOUT.rotation +
  FRAME_LAYOUT.neckPose +
  FRAME_LAYOUT.jawPose +
  FRAME_LAYOUT.eyePose +
  FRAME_LAYOUT.eyeLid +
  FRAME_LAYOUT.expression +
  FRAME_LAYOUT.visemes;
const FRAME_BYTES = 4 * FRAME_FLOATS;

// Byte offsets of the fields inside a frame's stretch of the slab.
const AT_VISEMES = 0;
const AT_EXPRESSION = AT_VISEMES + 4 * FRAME_LAYOUT.visemes;
const AT_JAW = AT_EXPRESSION + 4 * FRAME_LAYOUT.expression;
const AT_ROTATION = AT_JAW + 4 * FRAME_LAYOUT.jawPose;
const AT_NECK = AT_ROTATION + 4 * FRAME_LAYOUT.rotation;
const AT_EYE = AT_NECK + 4 * FRAME_LAYOUT.neckPose;
const AT_LID = AT_EYE + 4 * FRAME_LAYOUT.eyePose;
const AT_TRANSLATION = AT_LID + 4 * FRAME_LAYOUT.eyeLid;

let slab: ArrayBuffer | null = null;
let next = FRAMES_PER_SLAB;

/** A neutral frame, as core's `createDriveFrame(index)` makes it (every value 0). */
export function newDriveFrame(index: number): DriveFrame {
  if (next === FRAMES_PER_SLAB) {
    slab = new ArrayBuffer(FRAMES_PER_SLAB * FRAME_BYTES);
    next = 0;
  }
  const buffer = slab as ArrayBuffer;
  const at = next++ * FRAME_BYTES;
  // The same property order as createDriveFrame, so both kinds of frame share one object shape.
  return {
    index,
    visemes: new Float32Array(buffer, at + AT_VISEMES, FRAME_LAYOUT.visemes),
    expression: new Float32Array(buffer, at + AT_EXPRESSION, FRAME_LAYOUT.expression),
    jawPose: new Float32Array(buffer, at + AT_JAW, FRAME_LAYOUT.jawPose),
    rotation: new Float32Array(buffer, at + AT_ROTATION, FRAME_LAYOUT.rotation),
    neckPose: new Float32Array(buffer, at + AT_NECK, FRAME_LAYOUT.neckPose),
    eyePose: new Float32Array(buffer, at + AT_EYE, FRAME_LAYOUT.eyePose),
    eyeLid: new Float32Array(buffer, at + AT_LID, FRAME_LAYOUT.eyeLid),
    translation: new Float32Array(buffer, at + AT_TRANSLATION, FRAME_LAYOUT.translation),
  };
}
