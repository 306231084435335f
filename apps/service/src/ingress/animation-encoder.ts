/**
 * The hot path of the service: encodes `Message{type: SERVER_RESPONSE_ANIMATION,
 * server_response_animation}` straight from drive frames into protobuf wire bytes, without
 * building message objects (several times cheaper than reflection-based encoding; tests check the
 * bytes decode to the same message with the generated schema).
 */
import type { DriveFrame } from '@avatar-drive/core';

const encoder = new TextEncoder();

/** Field number and float count of each packed Flame field, in field order. */
const FLAME_FIELDS: readonly [field: number, key: keyof DriveFrame][] = [
  [1, 'translation'],
  [2, 'rotation'],
  [3, 'neckPose'],
  [4, 'jawPose'],
  [5, 'eyePose'],
  [6, 'eyeLid'],
  [7, 'expression'],
  [100, 'visemes'],
];

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

class Writer {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  pos = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }
  varint(value: number): void {
    while (value >= 0x80) {
      this.bytes[this.pos++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 128);
    }
    this.bytes[this.pos++] = value;
  }
  raw(data: Uint8Array): void {
    this.bytes.set(data, this.pos);
    this.pos += data.length;
  }
}

function flameSize(frame: DriveFrame): number {
  let size = 0;
  for (const [field, key] of FLAME_FIELDS) {
    const n = (frame[key] as Float32Array).length;
    if (n === 0) continue;
    size += varintSize((field << 3) | 2) + varintSize(n * 4) + n * 4;
  }
  return size;
}

/** Encodes ServerResponseAnimation envelopes for one session (ids are encoded once). */
export class AnimationEncoder {
  readonly #connectionId: Uint8Array;
  readonly #avatarId: Uint8Array;

  constructor(connectionId: string, avatarId: string) {
    this.#connectionId = encoder.encode(connectionId);
    this.#avatarId = encoder.encode(avatarId);
  }

  #lastReqId = '';
  #lastReqBytes = new Uint8Array(0);

  encode(reqId: string, frames: readonly DriveFrame[], end: boolean): Uint8Array {
    if (reqId !== this.#lastReqId) {
      this.#lastReqId = reqId;
      this.#lastReqBytes = encoder.encode(reqId);
    }
    const req = this.#lastReqBytes;
    const flameSizes = frames.map(flameSize);
    let animationSize = 0;
    for (const s of flameSizes) animationSize += 1 + varintSize(s) + s;
    let inner = 0;
    if (this.#connectionId.length)
      inner += 1 + varintSize(this.#connectionId.length) + this.#connectionId.length;
    if (req.length) inner += 1 + varintSize(req.length) + req.length;
    if (end) inner += 2;
    if (frames.length) inner += 1 + varintSize(animationSize) + animationSize;
    if (this.#avatarId.length) inner += 1 + varintSize(this.#avatarId.length) + this.#avatarId.length;
    const w = new Writer(2 + 1 + varintSize(inner) + inner);
    w.varint(0x08); // Message.type
    w.varint(5); // SERVER_RESPONSE_ANIMATION
    w.varint((6 << 3) | 2); // Message.server_response_animation
    w.varint(inner);
    if (this.#connectionId.length) {
      w.varint(0x0a);
      w.varint(this.#connectionId.length);
      w.raw(this.#connectionId);
    }
    if (req.length) {
      w.varint(0x12);
      w.varint(req.length);
      w.raw(req);
    }
    if (end) {
      w.varint(0x18);
      w.varint(1);
    }
    if (frames.length) {
      w.varint(0x22); // animation
      w.varint(animationSize);
      frames.forEach((frame, i) => {
        w.varint(0x0a); // keyframes
        w.varint(flameSizes[i]!);
        for (const [field, key] of FLAME_FIELDS) {
          const values = frame[key] as Float32Array;
          if (values.length === 0) continue;
          w.varint((field << 3) | 2);
          w.varint(values.length * 4);
          for (let k = 0; k < values.length; k++) {
            // Clients reject non-finite rig values as a protocolError: never send one.
            const v = values[k]!;
            w.view.setFloat32(w.pos, Number.isFinite(v) ? v : 0, true);
            w.pos += 4;
          }
        }
      });
    }
    if (this.#avatarId.length) {
      w.varint(0x2a);
      w.varint(this.#avatarId.length);
      w.raw(this.#avatarId);
    }
    return w.bytes;
  }
}
