/**
 * The frames received from the avatar participant, on the service's clock: each keyframe with
 * the time its first audio sample left the avatar's audio source. Answers "which pose at service
 * time T" and applies the lifecycle control messages (docs/rtc.md, "Alignment", step 3 and 4).
 * Pure: packets and times in, frames out.
 */

import { lerpFrame } from '@avatar-drive/client-web';
import {
  animationToDriveFrames,
  type ControlMessage,
  type DriveFrame,
  FRAME_MS,
  type FramePacket,
} from '@avatar-drive/core';

interface TimedFrame {
  index: number;
  playAtMs: number;
  frame: DriveFrame;
}

interface RequestFrames {
  /** Sorted by `playAtMs`. */
  frames: TimedFrame[];
  /** Service time the request was paused at (its pose holds there until resumed). */
  pausedAtMs: number | undefined;
  ended: boolean;
}

/** What {@link FrameTimeline.sample} returns for an instant. */
export interface TimelineSample {
  reqId: string;
  /** The pose, interpolated between the two keyframes around the instant. */
  frame: DriveFrame;
  /** Fractional frame index of the instant within its request. */
  position: number;
}

/** How long frames stay after their time passed (for late lookups); ms. */
const KEEP_MS = 2000;
/** How many finished or interrupted request ids are remembered (to drop their late packets). */
const MAX_DEAD = 64;

/** Frames by request, on the service's clock; the last copy of (reqId, index) wins. */
export class FrameTimeline {
  readonly #requests = new Map<string, RequestFrames>();
  readonly #dead: string[] = [];

  /** Request ids with frames still held (in arrival order). */
  get requestIds(): string[] {
    return [...this.#requests.keys()];
  }

  /**
   * Adds the keyframes of one packet.
   * @throws AvatarError `protocolError` for keyframes that do not fit the rig.
   */
  addPacket(packet: FramePacket): void {
    const reqId = packet.animation.reqId;
    if (this.#dead.includes(reqId)) return;
    const frames = animationToDriveFrames(packet.animation, packet.firstFrameIndex);
    const request = this.#request(reqId);
    for (const [j, frame] of frames.entries()) {
      insert(request.frames, { index: frame.index, playAtMs: packet.playAtMs[j]!, frame });
    }
    if (packet.end) request.ended = true;
  }

  /**
   * Applies a lifecycle message. Returns true when frames were dropped at once (interrupted).
   * `paused` holds the request's pose at `atMs` and drops its frames after it (the service sends
   * them again on resume); `resumed` lets time run again; `ended` marks the request finished.
   */
  control(message: ControlMessage): boolean {
    const { reqId } = message;
    switch (message.type) {
      case 'interrupted': {
        const had = this.#requests.delete(reqId);
        this.#bury(reqId);
        return had;
      }
      case 'paused': {
        const request = this.#requests.get(reqId);
        if (!request) return false;
        request.pausedAtMs = message.atMs;
        request.frames = request.frames.filter((f) => f.playAtMs <= message.atMs);
        return false;
      }
      case 'resumed': {
        const request = this.#requests.get(reqId);
        if (request) request.pausedAtMs = undefined;
        return false;
      }
      case 'ended': {
        const request = this.#requests.get(reqId);
        if (request) request.ended = true;
        return false;
      }
      default:
        return false;
    }
  }

  /**
   * The pose at service time `t`: the latest keyframe with `playAtMs ≤ t`, interpolated towards
   * the next, or `undefined` when no request has a frame covering `t` (idle). A paused request
   * holds its pose at the pause.
   */
  sample(t: number): TimelineSample | undefined {
    let result: TimelineSample | undefined;
    for (const [reqId, request] of this.#requests) {
      const at = request.pausedAtMs !== undefined ? Math.min(t, request.pausedAtMs) : t;
      const frames = request.frames;
      const i = lastAtOrBefore(frames, at);
      if (i < 0) continue;
      const current = frames[i]!;
      const candidate = frames[i + 1];
      // Interpolate only towards the next frame of the same run (not across a gap or a pause).
      const gap = candidate ? candidate.playAtMs - current.playAtMs : 0;
      const next =
        candidate && candidate.index === current.index + 1 && gap > 0 && gap <= 2 * FRAME_MS
          ? candidate
          : undefined;
      const progress = (at - current.playAtMs) / (next ? gap : FRAME_MS);
      if (progress >= 1 && !next && request.pausedAtMs === undefined) continue;
      const frac = Math.max(0, Math.min(1, progress));
      const frame = next && frac > 0 ? lerpFrame(current.frame, next.frame, frac) : current.frame;
      // Requests play one after another; a later one that has started wins over a finished earlier one.
      result = { reqId, frame: { ...frame, index: current.index }, position: current.index + frac };
    }
    return result;
  }

  /** The service time just after the last keyframe of every held request (ms), if any. */
  get coveredUntilMs(): number | undefined {
    let until: number | undefined;
    for (const request of this.#requests.values()) {
      const last = request.frames[request.frames.length - 1];
      if (last) until = Math.max(until ?? -Infinity, last.playAtMs + FRAME_MS);
    }
    return until;
  }

  /** Drops what can no longer be shown at service time `t` or later. */
  prune(t: number): void {
    for (const [reqId, request] of this.#requests) {
      const frames = request.frames;
      const keepFrom = Math.max(0, lastAtOrBefore(frames, t - KEEP_MS));
      if (keepFrom > 0) frames.splice(0, keepFrom);
      const last = frames[frames.length - 1];
      if (request.pausedAtMs === undefined && (!last || last.playAtMs + FRAME_MS < t - KEEP_MS)) {
        if (request.ended || !last) {
          this.#requests.delete(reqId);
          if (request.ended) this.#bury(reqId);
        }
      }
    }
  }

  /** Forgets everything (after a reconnect). */
  clear(): void {
    this.#requests.clear();
    this.#dead.length = 0;
  }

  #request(reqId: string): RequestFrames {
    let request = this.#requests.get(reqId);
    if (!request) {
      request = { frames: [], pausedAtMs: undefined, ended: false };
      this.#requests.set(reqId, request);
    }
    return request;
  }

  #bury(reqId: string): void {
    if (this.#dead.includes(reqId)) return;
    this.#dead.push(reqId);
    if (this.#dead.length > MAX_DEAD) this.#dead.shift();
  }
}

/** Inserts by play time, replacing an earlier copy of the same frame index. */
function insert(frames: TimedFrame[], entry: TimedFrame): void {
  const old = frames.findIndex((f) => f.index === entry.index);
  if (old >= 0) frames.splice(old, 1);
  const at = lastAtOrBefore(frames, entry.playAtMs) + 1;
  frames.splice(at, 0, entry);
}

/** Index of the last frame with `playAtMs ≤ t` (binary search), or −1. */
function lastAtOrBefore(frames: TimedFrame[], t: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]!.playAtMs <= t) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
