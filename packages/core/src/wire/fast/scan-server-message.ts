/**
 * A scan of a server's Message for the few fields a load generator times — its type and, for a
 * ServerResponseAnimation, the keyframe count, the end flag and where the req_id bytes are —
 * without decoding or allocating. Malformed bytes give type 0. For every frame `decodeMessage`
 * accepts and the scan does not call malformed, the scan reads what it decodes (merging repeated messages as protobuf does; the
 * differential fuzz test in core checks it).
 */
import { VarintCursor } from './varint.js';

/** What {@link scanServerMessage} found; one object reused for every message. */
export interface ScannedMessage {
  /** MessageType; 0 when the message is malformed. */
  type: number;
  /** For animations: the number of keyframes, the end flag and where the req_id bytes are. */
  keyframes: number;
  end: boolean;
  reqIdStart: number;
  reqIdEnd: number;
}

/** A fresh {@link ScannedMessage} to pass to {@link scanServerMessage}. */
export function createScannedMessage(): ScannedMessage {
  return { type: 0, keyframes: 0, end: false, reqIdStart: 0, reqIdEnd: 0 };
}

const cursor = new VarintCursor();

/** Skips a field of wire type `wire` (after its key); false when malformed. */
function skip(b: Uint8Array, wire: number, end: number): boolean {
  if (wire === 0) return cursor.read(b, end) >= 0;
  if (wire === 1) cursor.pos += 8;
  else if (wire === 5) cursor.pos += 4;
  else if (wire === 2) {
    const length = cursor.read(b, end);
    if (length < 0) return false;
    cursor.pos += length;
  } else return false;
  return cursor.pos <= end;
}

/** Scans one ServerResponseAnimation body in `b[from, to)` into `out`; false when malformed. */
function scanAnimation(b: Uint8Array, from: number, to: number, out: ScannedMessage): boolean {
  cursor.pos = from;
  while (cursor.pos < to) {
    const key = cursor.read(b, to);
    if (key < 8) return false;
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 3 && wire === 0) {
      const v = cursor.read(b, to);
      if (v < 0) return false;
      out.end = v !== 0;
    } else if ((field === 2 || field === 4) && wire === 2) {
      const length = cursor.read(b, to);
      if (length < 0 || cursor.pos + length > to) return false;
      if (field === 2) {
        out.reqIdStart = cursor.pos;
        out.reqIdEnd = cursor.pos + length;
        cursor.pos += length;
      } else {
        // FlameAnimation: count its keyframes (field 1) without reading them.
        const animationEnd = cursor.pos + length;
        while (cursor.pos < animationEnd) {
          const k = cursor.read(b, animationEnd);
          if (k < 8) return false;
          if (k >>> 3 === 1) {
            if ((k & 7) !== 2) return false;
            out.keyframes++;
          }
          if (!skip(b, k & 7, animationEnd)) return false;
        }
      }
    } else if (field <= 5 && (wire !== 2 || field === 2 || field === 4)) {
      return false; // a known field with the wrong wire type: not a frame this scan vouches for
    } else if (!skip(b, wire, to)) return false;
  }
  return true;
}

/** Scans the Message in `b[from, to)`: its type and, for an animation, what a bench times. */
export function scanServerMessage(b: Uint8Array, from: number, to: number, out: ScannedMessage): void {
  out.type = 0;
  out.keyframes = 0;
  out.end = false;
  out.reqIdStart = 0;
  out.reqIdEnd = 0;
  let type = 0;
  cursor.pos = from;
  while (cursor.pos < to) {
    const key = cursor.read(b, to);
    if (key < 8) return;
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 1 && wire === 0) {
      type = cursor.read(b, to);
      if (type < 0) return;
    } else if (field === 6 && wire === 2) {
      // Repeats of the animation merge into one (protobuf's rule): keep scanning into `out`.
      const length = cursor.read(b, to);
      if (length < 0 || cursor.pos + length > to) return;
      const next = cursor.pos + length;
      if (!scanAnimation(b, cursor.pos, next, out)) return;
      cursor.pos = next;
    } else if (field === 1 || field === 6) {
      return; // a known field with the wrong wire type: not a frame this scan vouches for
    } else if (field >= 2 && field <= 11) {
      // Another case of the oneof replaces the animation.
      if (wire !== 2) return;
      out.keyframes = 0;
      out.end = false;
      out.reqIdStart = 0;
      out.reqIdEnd = 0;
      if (!skip(b, wire, to)) return;
    } else if (!skip(b, wire, to)) return;
  }
  out.type = type;
}
