/**
 * The driveningress.v2 messages the bench sends, encoded once for every client, and a scan of the
 * server's messages for the few fields the bench times (no decoding, no allocation).
 *
 * Field numbers are those of DESIGN.md: Message { type 1, client_configure_session 2,
 * client_audio_input 4, server_response_animation 6 }, ClientAudioInput { req_id 1, end 2,
 * audio 3 }, ServerResponseAnimation { req_id 2, end 3, animation 4 }, FlameAnimation
 * { keyframes 1 }.
 */
import { clientHeaderLength, OPCODE_BINARY, writeClientHeader } from './websocket-frames.js';

export const MESSAGE_CONFIRM = 2;
export const MESSAGE_ERROR = 4;
export const MESSAGE_ANIMATION = 5;

/** Every req_id the bench sends has this many ASCII bytes, so one template serves all clients. */
export const REQ_ID_BYTES = 16;

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function lengthField(tag: number, bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag, ...varint(bytes.length)]), bytes]);
}

/** ClientConfigureSession { sample_rate } (PCM_S16LE is the default format). */
export function configureMessage(sampleRate: number): Buffer {
  return Buffer.concat([
    Buffer.from([0x08, 1]),
    lengthField(0x12, Buffer.from([0x08, ...varint(sampleRate)])),
  ]);
}

/**
 * One utterance's ClientAudioInput messages (the last with end=true), encoded once for all
 * clients: a client writes its req_id at `reqIdAt[c]` of `messages[c]` just before sending it.
 */
export interface AudioTemplates {
  messages: Buffer[];
  reqIdAt: Int32Array;
}

export function audioTemplates(audio: Int16Array, chunkSamples: number): AudioTemplates {
  const count = Math.ceil(audio.length / chunkSamples);
  const messages: Buffer[] = [];
  const reqIdAt = new Int32Array(count);
  const placeholder = Buffer.alloc(REQ_ID_BYTES, 0x61);
  for (let c = 0; c < count; c++) {
    const pcm = audio.subarray(c * chunkSamples, (c + 1) * chunkSamples);
    const reqField = lengthField(0x0a, placeholder);
    const inner = Buffer.concat([
      reqField,
      c === count - 1 ? Buffer.from([0x10, 1]) : Buffer.alloc(0),
      lengthField(0x1a, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)),
    ]);
    const message = Buffer.concat([Buffer.from([0x08, 3]), lengthField(0x22, inner)]);
    messages.push(message);
    reqIdAt[c] = message.length - inner.length + reqField.length - REQ_ID_BYTES;
  }
  return { messages, reqIdAt };
}

/**
 * The same messages as complete WebSocket client frames (zero masking key: see
 * websocket-frames.ts), so that a raw client sends each with one socket write.
 */
export function framedTemplates(templates: AudioTemplates): AudioTemplates {
  const reqIdAt = new Int32Array(templates.reqIdAt.length);
  const messages = templates.messages.map((message, c) => {
    const frame = Buffer.allocUnsafe(clientHeaderLength(message.length) + message.length);
    const at = writeClientHeader(frame, 0, OPCODE_BINARY, message.length);
    message.copy(frame, at);
    reqIdAt[c] = templates.reqIdAt[c]! + at;
    return frame;
  });
  return { messages, reqIdAt };
}

/** What `scanServerMessage` found; one object reused for every message. */
export interface ScannedMessage {
  /** MessageType; 0 when the message is malformed. */
  type: number;
  /** For animations: the number of keyframes, the end flag and where the req_id bytes are. */
  keyframes: number;
  end: boolean;
  reqIdStart: number;
  reqIdEnd: number;
}

let at = 0;

/** Reads the varint at `at` (advancing it); -1 when it runs past `end` or beyond 2^35. */
function readVarint(b: Uint8Array, end: number): number {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (at >= end) return -1;
    const byte = b[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
  }
  return -1;
}

/** Skips a field of wire type `wire` (after its key); false when malformed. */
function skip(b: Uint8Array, wire: number, end: number): boolean {
  if (wire === 0) return readVarint(b, end) >= 0;
  if (wire === 1) at += 8;
  else if (wire === 5) at += 4;
  else if (wire === 2) {
    const length = readVarint(b, end);
    if (length < 0) return false;
    at += length;
  } else return false;
  return at <= end;
}

/** Scans the ServerResponseAnimation in `b[from, to)` into `out`; false when malformed. */
function scanAnimation(b: Uint8Array, from: number, to: number, out: ScannedMessage): boolean {
  at = from;
  while (at < to) {
    const key = readVarint(b, to);
    if (key < 0) return false;
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 3 && wire === 0) {
      const v = readVarint(b, to);
      if (v < 0) return false;
      out.end = v !== 0;
    } else if ((field === 2 || field === 4) && wire === 2) {
      const length = readVarint(b, to);
      if (length < 0 || at + length > to) return false;
      if (field === 2) {
        out.reqIdStart = at;
        out.reqIdEnd = at + length;
        at += length;
      } else {
        // FlameAnimation: count its keyframes (field 1) without reading them.
        const animationEnd = at + length;
        while (at < animationEnd) {
          const k = readVarint(b, animationEnd);
          if (k < 0) return false;
          if (k >>> 3 === 1) out.keyframes++;
          if (!skip(b, k & 7, animationEnd)) return false;
        }
      }
    } else if (!skip(b, wire, to)) return false;
  }
  return true;
}

/** Scans the Message in `b[from, to)`: its type and, for an animation, what the bench times. */
export function scanServerMessage(b: Uint8Array, from: number, to: number, out: ScannedMessage): void {
  out.type = 0;
  out.keyframes = 0;
  out.end = false;
  out.reqIdStart = 0;
  out.reqIdEnd = 0;
  let type = 0;
  let animationFrom = -1;
  let animationTo = -1;
  at = from;
  while (at < to) {
    const key = readVarint(b, to);
    if (key < 0) return;
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 1 && wire === 0) {
      type = readVarint(b, to);
      if (type < 0) return;
    } else if (field === 6 && wire === 2) {
      const length = readVarint(b, to);
      if (length < 0 || at + length > to) return;
      animationFrom = at;
      animationTo = at + length;
      at += length;
    } else if (!skip(b, wire, to)) return;
  }
  if (animationFrom >= 0 && !scanAnimation(b, animationFrom, animationTo, out)) return;
  out.type = type;
}
