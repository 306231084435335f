/**
 * What the avatar participant sends next to its audio track in RTC mode (docs/rtc.md):
 *
 * - topic {@link FRAMES_TOPIC}, reliable: a binary frame packet = a small timing header plus
 *   the `ServerResponseAnimation` bytes of driveningress.v2, unchanged;
 * - topic {@link CONTROL_TOPIC}, reliable: JSON lifecycle messages (playing, paused, resumed,
 *   interrupted, ended).
 *
 * Pure functions without Node-only or DOM-only APIs: the service's LiveKit egress encodes with
 * them and the browser's `@avatar-drive/rtc-player` decodes with them.
 */

import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { getTextEncoding } from '@bufbuild/protobuf/wire';
import { describeValue } from '../describe.js';
import { AvatarError } from '../errors.js';
import {
  type ServerResponseAnimation,
  ServerResponseAnimationSchema,
} from '../gen/driveningress/v2/driveningress_pb.js';

/** Name of the avatar participant's audio track (the only track rtc-player plays). */
export const AVATAR_AUDIO_TRACK_NAME = 'avatar-drive.audio';
/** Data topic of frame packets. */
export const FRAMES_TOPIC = 'avatar-drive.frames';
/** Data topic of control messages. */
export const CONTROL_TOPIC = 'avatar-drive.control';
/** Version byte of the frame packet layout below. */
export const FRAME_PACKET_VERSION = 1;

const FIXED_HEADER = 24;
const FLAG_END = 0x01;

/**
 * One frame packet. Keyframe `j` of `animation` is frame `firstFrameIndex + j` of request
 * `animation.reqId`; its first audio sample leaves the avatar's audio source at
 * `playAtMs[j]` (the service's wall clock, Unix ms). `sentAtMs` is when the packet was
 * published (same clock), which lets a receiver estimate the clock offset and the path delay.
 */
export interface FramePacket {
  firstFrameIndex: number;
  /** Sample rate of the avatar's audio track. */
  sampleRate: number;
  sentAtMs: number;
  playAtMs: number[];
  /** True on the request's last packet (also set in `animation.end`). */
  end: boolean;
  animation: ServerResponseAnimation;
}

/**
 * Layout (little-endian): u8 version, u8 flags (bit 0 = end), u16 keyframe count n,
 * u32 firstFrameIndex, u32 sampleRate, u32 reserved (0), f64 sentAtMs, f64[n] playAtMs,
 * then the `ServerResponseAnimation` protobuf bytes.
 */
export function encodeFramePacket(packet: FramePacket): Uint8Array {
  const p = packet as Partial<FramePacket> | null;
  if (
    typeof p !== 'object' ||
    p === null ||
    !Array.isArray(p.playAtMs) ||
    typeof p.end !== 'boolean' ||
    typeof p.animation !== 'object' ||
    p.animation === null ||
    (p.animation as { $typeName?: unknown }).$typeName !== ServerResponseAnimationSchema.typeName
  ) {
    throw new AvatarError(
      'invalidRequest',
      'encodeFramePacket() needs { firstFrameIndex, sampleRate, sentAtMs, playAtMs[], end, animation: ServerResponseAnimation }.',
    );
  }
  const count = packet.animation.animation?.keyframes.length ?? 0;
  if (count !== packet.playAtMs.length) {
    throw new AvatarError(
      'invalidRequest',
      `Frame packet has ${count} keyframes but ${packet.playAtMs.length} play times; give one time per keyframe.`,
    );
  }
  if (count > 0xffff) {
    throw new AvatarError('invalidRequest', `Frame packet has ${count} keyframes; split it (at most 65535).`);
  }
  if (!isU32(packet.firstFrameIndex) || !isU32(packet.sampleRate)) {
    throw new AvatarError(
      'invalidRequest',
      'Frame packet firstFrameIndex and sampleRate must be integers in 0..2^32-1; pass the frame index and track rate.',
    );
  }
  if (!Number.isFinite(packet.sentAtMs) || !packet.playAtMs.every(Number.isFinite)) {
    throw new AvatarError(
      'invalidRequest',
      'Frame packet times must be finite numbers (Unix ms); check the clock source.',
    );
  }
  let body: Uint8Array;
  try {
    body = toBinary(ServerResponseAnimationSchema, packet.animation);
  } catch (cause) {
    throw new AvatarError(
      'invalidRequest',
      'Frame packet animation is not a valid ServerResponseAnimation.',
      { cause },
    );
  }
  const headerBytes = FIXED_HEADER + 8 * count;
  const bytes = new Uint8Array(headerBytes + body.length);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, FRAME_PACKET_VERSION);
  view.setUint8(1, packet.end ? FLAG_END : 0);
  view.setUint16(2, count, true);
  view.setUint32(4, packet.firstFrameIndex, true);
  view.setUint32(8, packet.sampleRate, true);
  view.setUint32(12, 0, true);
  view.setFloat64(16, packet.sentAtMs, true);
  for (let j = 0; j < count; j++) view.setFloat64(FIXED_HEADER + 8 * j, packet.playAtMs[j]!, true);
  bytes.set(body, headerBytes);
  return bytes;
}

/** Decodes a frame packet; anything malformed is a `protocolError`. */
export function decodeFramePacket(bytes: Uint8Array): FramePacket {
  if (!(bytes instanceof Uint8Array)) {
    throw new AvatarError('protocolError', 'A frame packet must be binary data (Uint8Array).');
  }
  if (bytes.length < FIXED_HEADER) {
    throw new AvatarError(
      'protocolError',
      `Frame packet of ${bytes.length} bytes is shorter than its header.`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (version !== FRAME_PACKET_VERSION) {
    throw new AvatarError(
      'protocolError',
      `Frame packet version ${version} is not supported (expected ${FRAME_PACKET_VERSION}); update the player.`,
    );
  }
  const count = view.getUint16(2, true);
  const headerBytes = FIXED_HEADER + 8 * count;
  if (bytes.length < headerBytes) {
    throw new AvatarError('protocolError', `Frame packet announces ${count} keyframes but is truncated.`);
  }
  const sentAtMs = view.getFloat64(16, true);
  const playAtMs: number[] = [];
  for (let j = 0; j < count; j++) playAtMs.push(view.getFloat64(FIXED_HEADER + 8 * j, true));
  if (!Number.isFinite(sentAtMs) || !playAtMs.every(Number.isFinite)) {
    throw new AvatarError('protocolError', 'Frame packet carries a time that is not a finite number.');
  }
  let animation: ServerResponseAnimation;
  try {
    animation = fromBinary(ServerResponseAnimationSchema, bytes.subarray(headerBytes));
  } catch (cause) {
    throw new AvatarError('protocolError', 'Frame packet body is not a ServerResponseAnimation.', { cause });
  }
  const keyframes = animation.animation?.keyframes.length ?? 0;
  if (keyframes !== count) {
    throw new AvatarError(
      'protocolError',
      `Frame packet header announces ${count} keyframes but its animation holds ${keyframes}.`,
    );
  }
  return {
    firstFrameIndex: view.getUint32(4, true),
    sampleRate: view.getUint32(8, true),
    sentAtMs,
    playAtMs,
    end: (view.getUint8(1) & FLAG_END) !== 0,
    animation,
  };
}

/** Lifecycle messages on {@link CONTROL_TOPIC}. Times are the service's wall clock (Unix ms). */
export type ControlMessage =
  | { v: 1; type: 'playing'; reqId: string; atMs: number }
  | { v: 1; type: 'paused'; reqId: string; atMs: number; playedMs: number }
  | { v: 1; type: 'resumed'; reqId: string; atMs: number; playedMs: number }
  | { v: 1; type: 'interrupted'; reqId: string; atMs: number; playedMs: number }
  | { v: 1; type: 'ended'; reqId: string; atMs: number; playedMs: number };

const CONTROL_TYPES = new Set(['playing', 'paused', 'resumed', 'interrupted', 'ended']);

/**
 * Encodes a control message as UTF-8 JSON.
 * @throws AvatarError `invalidRequest` when `message` is not a {@link ControlMessage}.
 */
export function encodeControlMessage(message: ControlMessage): Uint8Array {
  if (!isControlMessage(message)) {
    throw new AvatarError(
      'invalidRequest',
      `encodeControlMessage() got ${describeValue(message)}; pass {v: 1, type, reqId, atMs, playedMs?}.`,
    );
  }
  const { v, type, reqId, atMs } = message;
  const playedMs = (message as { playedMs?: number }).playedMs;
  return getTextEncoding().encodeUtf8(
    JSON.stringify(type === 'playing' ? { v, type, reqId, atMs } : { v, type, reqId, atMs, playedMs }),
  );
}

/** Decodes a control message; anything malformed is a `protocolError`. */
export function decodeControlMessage(bytes: Uint8Array): ControlMessage {
  if (!(bytes instanceof Uint8Array)) {
    throw new AvatarError(
      'protocolError',
      'A control message must be binary data (UTF-8 JSON in a Uint8Array).',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(getTextEncoding().decodeUtf8(bytes, true));
  } catch (cause) {
    throw new AvatarError('protocolError', 'Control message is not UTF-8 JSON.', { cause });
  }
  if (!isControlMessage(value)) {
    throw new AvatarError(
      'protocolError',
      `Control message ${describeValue(value)} is malformed: expected {v: 1, type, reqId, atMs, playedMs?}.`,
    );
  }
  return value;
}

function isControlMessage(value: unknown): value is ControlMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { v?: unknown; type?: unknown; reqId?: unknown; atMs?: unknown; playedMs?: unknown };
  return (
    m.v === 1 &&
    typeof m.type === 'string' &&
    CONTROL_TYPES.has(m.type) &&
    typeof m.reqId === 'string' &&
    Number.isFinite(m.atMs) &&
    (m.type === 'playing' || Number.isFinite(m.playedMs))
  );
}

function isU32(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}
