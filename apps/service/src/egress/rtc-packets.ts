/**
 * What the avatar participant sends next to its audio track in RTC mode (docs/rtc.md):
 *
 * - topic {@link FRAMES_TOPIC}, reliable: a binary frame packet = a small timing header plus
 *   the `ServerResponseAnimation` bytes of driveningress.v2, unchanged;
 * - topic {@link CONTROL_TOPIC}, reliable: JSON lifecycle messages (playing, paused, resumed,
 *   interrupted, ended).
 *
 * Pure functions without Node-only APIs, so the browser player can share them.
 */

import { AvatarError, wire } from '@avatar-drive/core';
import { fromBinary, toBinary } from '@bufbuild/protobuf';

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
  animation: wire.ServerResponseAnimation;
}

/**
 * Layout (little-endian): u8 version, u8 flags (bit 0 = end), u16 keyframe count n,
 * u32 firstFrameIndex, u32 sampleRate, u32 reserved (0), f64 sentAtMs, f64[n] playAtMs,
 * then the `ServerResponseAnimation` protobuf bytes.
 */
export function encodeFramePacket(packet: FramePacket): Uint8Array {
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
  const body = toBinary(wire.ServerResponseAnimationSchema, packet.animation);
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
  const playAtMs: number[] = [];
  for (let j = 0; j < count; j++) playAtMs.push(view.getFloat64(FIXED_HEADER + 8 * j, true));
  let animation: wire.ServerResponseAnimation;
  try {
    animation = fromBinary(wire.ServerResponseAnimationSchema, bytes.subarray(headerBytes));
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
    sentAtMs: view.getFloat64(16, true),
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

export function encodeControlMessage(message: ControlMessage): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(message));
}

/** Decodes a control message; anything malformed is a `protocolError`. */
export function decodeControlMessage(bytes: Uint8Array): ControlMessage {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (cause) {
    throw new AvatarError('protocolError', 'Control message is not JSON.', { cause });
  }
  const m = value as Partial<ControlMessage> | null;
  if (
    m?.v !== 1 ||
    typeof m.type !== 'string' ||
    !CONTROL_TYPES.has(m.type) ||
    typeof m.reqId !== 'string' ||
    typeof m.atMs !== 'number' ||
    (m.type !== 'playing' && typeof (m as { playedMs?: unknown }).playedMs !== 'number')
  ) {
    throw new AvatarError('protocolError', `Control message ${JSON.stringify(value)} is malformed.`);
  }
  return m as ControlMessage;
}
