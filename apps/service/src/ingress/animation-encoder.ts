/**
 * The hot path of the service: encodes `Message{type: SERVER_RESPONSE_ANIMATION,
 * server_response_animation}` straight from drive frames into protobuf wire bytes, without
 * building message objects (several times cheaper than reflection-based encoding; tests check the
 * bytes decode to the same message with the generated schema).
 *
 * {@link AnimationEncoder.encodeFrame} also writes the WebSocket frame header (server → client:
 * FIN, binary, unmasked) in front of the message, in the same Buffer, so that the session can hand
 * one buffer to one socket write: ws's own `send` allocates a header and writes header and payload
 * as two buffers (a corked `writev`), 25 times per session-second.
 */
import type { DriveFrame } from '@avatar-drive/core';

const encoder = new TextEncoder();

/** Float32 → little-endian bytes without a DataView per message (x86 and ARM are little-endian). */
const f32 = new Float32Array(1);
const f32Bytes = new Uint8Array(f32.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

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

/** Writes one packed float field (Flame field `field`); returns the position after it. */
function writeField(out: Uint8Array, pos: number, field: number, values: Float32Array): number {
  if (values.length === 0) return pos;
  pos = writeVarint(out, pos, (field << 3) | 2);
  pos = writeVarint(out, pos, values.length * 4);
  return writeFloats(out, pos, values);
}

/** Size of the WebSocket frame header (server → client, unmasked) for a payload of `n` bytes. */
function wsHeaderSize(n: number): number {
  return n < 126 ? 2 : n < 0x10000 ? 4 : 10;
}

function writeVarint(out: Uint8Array, pos: number, value: number): number {
  while (value >= 0x80) {
    out[pos++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  out[pos++] = value;
  return pos;
}

function writeFloats(out: Uint8Array, pos: number, values: Float32Array): number {
  if (!LITTLE_ENDIAN) {
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    for (let k = 0; k < values.length; k++) {
      const v = values[k]!;
      view.setFloat32(pos, Number.isFinite(v) ? v : 0, true);
      pos += 4;
    }
    return pos;
  }
  for (let k = 0; k < values.length; k++) {
    // Clients reject non-finite rig values as a protocolError: never send one.
    const v = values[k]!;
    f32[0] = v - v === 0 ? v : 0; // finite (NaN and ±Infinity give NaN)
    out[pos] = f32Bytes[0]!;
    out[pos + 1] = f32Bytes[1]!;
    out[pos + 2] = f32Bytes[2]!;
    out[pos + 3] = f32Bytes[3]!;
    pos += 4;
  }
  return pos;
}

/** Encodes ServerResponseAnimation envelopes for one session (ids are encoded once). */
export class AnimationEncoder {
  readonly #connectionId: Uint8Array;
  readonly #avatarId: Uint8Array;
  #lastReqId = '';
  #lastReqBytes = new Uint8Array(0);

  constructor(connectionId: string, avatarId: string) {
    this.#connectionId = encoder.encode(connectionId);
    this.#avatarId = encoder.encode(avatarId);
  }

  /** The protobuf bytes of the message. */
  encode(reqId: string, frames: readonly DriveFrame[], end: boolean): Uint8Array {
    return this.#encode(reqId, frames, end, false);
  }

  /**
   * The message as one complete WebSocket frame (header + protobuf bytes), ready for a single
   * socket write. Only valid on a connection without per-message compression or extensions.
   */
  encodeFrame(reqId: string, frames: readonly DriveFrame[], end: boolean): Buffer {
    return this.#encode(reqId, frames, end, true) as Buffer;
  }

  #encode(reqId: string, frames: readonly DriveFrame[], end: boolean, framed: boolean): Uint8Array {
    if (reqId !== this.#lastReqId) {
      this.#lastReqId = reqId;
      this.#lastReqBytes = encoder.encode(reqId);
    }
    const req = this.#lastReqBytes;
    const connectionId = this.#connectionId;
    const avatarId = this.#avatarId;
    // Frames of one engine call share the rig's layout, so their keyframe sizes are equal in
    // practice; each is still measured (a cheap sum of lengths) so any layout encodes correctly.
    let animationSize = 0;
    for (let i = 0; i < frames.length; i++) {
      const s = flameSize(frames[i]!);
      animationSize += 1 + varintSize(s) + s;
    }
    let inner = 0;
    if (connectionId.length) inner += 1 + varintSize(connectionId.length) + connectionId.length;
    if (req.length) inner += 1 + varintSize(req.length) + req.length;
    if (end) inner += 2;
    if (frames.length) inner += 1 + varintSize(animationSize) + animationSize;
    if (avatarId.length) inner += 1 + varintSize(avatarId.length) + avatarId.length;
    const payload = 2 + 1 + varintSize(inner) + inner;
    const header = framed ? wsHeaderSize(payload) : 0;
    // allocUnsafe: small sizes come from Node's shared pool; every byte is written below.
    const out = Buffer.allocUnsafe(header + payload);
    let p = 0;
    if (framed) {
      out[p++] = 0x82; // FIN, opcode binary
      if (payload < 126) {
        out[p++] = payload;
      } else if (payload < 0x10000) {
        out[p++] = 126;
        out[p++] = payload >>> 8;
        out[p++] = payload & 0xff;
      } else {
        out[p++] = 127;
        out.writeUInt32BE(Math.floor(payload / 2 ** 32), p);
        out.writeUInt32BE(payload >>> 0, p + 4);
        p += 8;
      }
    }
    out[p++] = 0x08; // Message.type
    out[p++] = 5; // SERVER_RESPONSE_ANIMATION
    out[p++] = (6 << 3) | 2; // Message.server_response_animation
    p = writeVarint(out, p, inner);
    if (connectionId.length) {
      out[p++] = 0x0a;
      p = writeVarint(out, p, connectionId.length);
      out.set(connectionId, p);
      p += connectionId.length;
    }
    if (req.length) {
      out[p++] = 0x12;
      p = writeVarint(out, p, req.length);
      out.set(req, p);
      p += req.length;
    }
    if (end) {
      out[p++] = 0x18;
      out[p++] = 1;
    }
    if (frames.length) {
      out[p++] = 0x22; // animation
      p = writeVarint(out, p, animationSize);
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
    }
    if (avatarId.length) {
      out[p++] = 0x2a;
      p = writeVarint(out, p, avatarId.length);
      out.set(avatarId, p);
      p += avatarId.length;
    }
    return out;
  }
}
