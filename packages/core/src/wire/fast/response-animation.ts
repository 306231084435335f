/**
 * The hot output path: `Message{type: SERVER_RESPONSE_ANIMATION, server_response_animation}`
 * bytes written straight from drive frames, without building message objects (several times
 * cheaper than reflection-based encoding). For finite values the bytes equal
 * `encodeMessage(responseAnimationMessage(...))` (the differential fuzz test in core checks it);
 * a NaN or infinity is written as 0, where the builder throws: clients reject non-finite rig
 * values as a protocolError, so the service never sends one.
 *
 * Two steps so that a caller can put a header in front in the same buffer (the service writes a
 * whole WebSocket frame with one socket write): {@link AnimationBytes.measure}, allocate, then
 * {@link AnimationBytes.writeTo}. {@link AnimationBytes.encode} does both.
 */
import type { DriveFrame } from '../../rig.js';
import { utf8Encode } from './utf8.js';
import { varintSize, writeVarint } from './varint.js';

/** Float32 → little-endian bytes without a DataView per message. */
const f32 = new Float32Array(1);
const f32Bytes = new Uint8Array(f32.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const SERVER_RESPONSE_ANIMATION = 5; // MessageType.SERVER_RESPONSE_ANIMATION

/** Bytes of one packed float field (tag, length, values); empty fields are omitted. */
function fieldSize(tagBytes: number, values: Float32Array): number {
  const n = values.length * 4;
  return n === 0 ? 0 : tagBytes + varintSize(n) + n;
}

/**
 * Bytes of one Flame keyframe. Fields by name, not through a table of keys: keyed loads with
 * eight different keys were the encoder's main cost.
 */
function flameSize(frame: DriveFrame): number {
  return (
    fieldSize(1, frame.translation) +
    fieldSize(1, frame.rotation) +
    fieldSize(1, frame.neckPose) +
    fieldSize(1, frame.jawPose) +
    fieldSize(1, frame.eyePose) +
    fieldSize(1, frame.eyeLid) +
    fieldSize(1, frame.expression) +
    fieldSize(2, frame.visemes) // field 100: a two-byte tag
  );
}

function writeFloats(out: Uint8Array, pos: number, values: Float32Array): number {
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    f32[0] = v - v === 0 ? v : 0; // finite (NaN and ±Infinity give NaN) or 0
    if (LITTLE_ENDIAN) {
      out[pos] = f32Bytes[0]!;
      out[pos + 1] = f32Bytes[1]!;
      out[pos + 2] = f32Bytes[2]!;
      out[pos + 3] = f32Bytes[3]!;
    } else {
      out[pos] = f32Bytes[3]!;
      out[pos + 1] = f32Bytes[2]!;
      out[pos + 2] = f32Bytes[1]!;
      out[pos + 3] = f32Bytes[0]!;
    }
    pos += 4;
  }
  return pos;
}

/** Writes one packed float field (Flame field `field`); returns the position after it. */
function writeField(out: Uint8Array, pos: number, field: number, values: Float32Array): number {
  if (values.length === 0) return pos;
  pos = writeVarint(out, pos, (field << 3) | 2);
  pos = writeVarint(out, pos, values.length * 4);
  return writeFloats(out, pos, values);
}

function writeString(out: Uint8Array, pos: number, key: number, bytes: Uint8Array): number {
  if (bytes.length === 0) return pos;
  out[pos++] = key;
  pos = writeVarint(out, pos, bytes.length);
  out.set(bytes, pos);
  return pos + bytes.length;
}

function stringFieldSize(bytes: Uint8Array): number {
  return bytes.length ? 1 + varintSize(bytes.length) + bytes.length : 0;
}

/**
 * Encodes the ServerResponseAnimation messages of one session (its connection and avatar ids are
 * encoded once, the req_id once per request).
 *
 * @example
 * ```ts
 * const bytes = new AnimationBytes('conn-1', 'avatar-1').encode('req-1', frames, false);
 * ```
 */
export class AnimationBytes {
  readonly #connectionId: Uint8Array;
  readonly #avatarId: Uint8Array;
  #reqId = '';
  #req: Uint8Array = new Uint8Array(0);
  // What measure() saw, for writeTo().
  #frames: readonly DriveFrame[] = [];
  #end = false;
  #inner = 0;
  #animationSize = 0;

  constructor(connectionId: string, avatarId: string) {
    this.#connectionId = utf8Encode(connectionId);
    this.#avatarId = utf8Encode(avatarId);
  }

  /** The message's byte length; the next {@link writeTo} writes exactly this message. */
  measure(reqId: string, frames: readonly DriveFrame[], end: boolean): number {
    if (reqId !== this.#reqId) {
      this.#reqId = reqId;
      this.#req = utf8Encode(reqId);
    }
    // Frames of one engine call share the rig's layout, so their keyframe sizes are equal in
    // practice; each is still measured (a cheap sum of lengths) so any layout encodes correctly.
    let animationSize = 0;
    for (let i = 0; i < frames.length; i++) {
      const s = flameSize(frames[i]!);
      animationSize += 1 + varintSize(s) + s;
    }
    let inner =
      stringFieldSize(this.#connectionId) + stringFieldSize(this.#req) + stringFieldSize(this.#avatarId);
    if (end) inner += 2;
    // No keyframes, no animation field (as the message builder).
    if (frames.length) inner += 1 + varintSize(animationSize) + animationSize;
    this.#frames = frames;
    this.#end = end;
    this.#inner = inner;
    this.#animationSize = animationSize;
    return 2 + 1 + varintSize(inner) + inner;
  }

  /** Writes the message last measured into `out` at `pos`; returns the position after it. */
  writeTo(out: Uint8Array, pos: number): number {
    const frames = this.#frames;
    let p = pos;
    out[p++] = 0x08; // Message.type
    out[p++] = SERVER_RESPONSE_ANIMATION;
    out[p++] = (6 << 3) | 2; // Message.server_response_animation
    p = writeVarint(out, p, this.#inner);
    p = writeString(out, p, 0x0a, this.#connectionId);
    p = writeString(out, p, 0x12, this.#req);
    if (this.#end) {
      out[p++] = 0x18;
      out[p++] = 1;
    }
    if (frames.length) {
      out[p++] = 0x22; // animation
      p = writeVarint(out, p, this.#animationSize);
    }
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i]!;
      out[p++] = 0x0a; // keyframes
      p = writeVarint(out, p, flameSize(frame));
      p = writeField(out, p, 1, frame.translation);
      p = writeField(out, p, 2, frame.rotation);
      p = writeField(out, p, 3, frame.neckPose);
      p = writeField(out, p, 4, frame.jawPose);
      p = writeField(out, p, 5, frame.eyePose);
      p = writeField(out, p, 6, frame.eyeLid);
      p = writeField(out, p, 7, frame.expression);
      p = writeField(out, p, 100, frame.visemes);
    }
    p = writeString(out, p, 0x2a, this.#avatarId);
    this.#frames = [];
    return p;
  }

  /** The protobuf bytes of the message. */
  encode(reqId: string, frames: readonly DriveFrame[], end: boolean): Uint8Array {
    const out = new Uint8Array(this.measure(reqId, frames, end));
    this.writeTo(out, 0);
    return out;
  }
}
