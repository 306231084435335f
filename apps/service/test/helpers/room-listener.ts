/**
 * A second participant for the egress tests: joins the room with @livekit/rtc-node, records
 * the avatar's audio (RMS per 10 ms, with arrival times), its frame packets and control
 * messages, and what it sees of the avatar participant.
 */

import {
  CONTROL_TOPIC,
  type ControlMessage,
  decodeControlMessage,
  decodeFramePacket,
  FRAMES_TOPIC,
  type FramePacket,
} from '@avatar-drive/core';
import {
  AudioStream,
  type RemoteParticipant,
  type RemoteTrack,
  Room,
  RoomEvent,
  TrackKind,
} from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';

export const API_KEY = 'devkey';
export const API_SECRET = 'secret';

export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

export interface AudioBlock {
  /** Wall clock (ms) when the 10 ms block reached the listener. */
  atMs: number;
  rms: number;
}

export interface Received<T> {
  atMs: number;
  value: T;
}

export async function joinToken(
  room: string,
  identity: string,
  extra: { kind?: string; attributes?: Record<string, string>; canUpdateOwnMetadata?: boolean } = {},
): Promise<string> {
  const at = new AccessToken(API_KEY, API_SECRET, { identity, ttl: '10m' });
  at.addGrant({
    room,
    roomJoin: true,
    canPublish: true,
    canSubscribe: true,
    canPublishData: true,
    ...(extra.canUpdateOwnMetadata !== undefined && { canUpdateOwnMetadata: extra.canUpdateOwnMetadata }),
  });
  if (extra.kind) at.kind = extra.kind;
  if (extra.attributes) at.attributes = extra.attributes;
  return at.toJwt();
}

export class RoomListener {
  readonly room = new Room();
  readonly audio: AudioBlock[] = [];
  readonly frames: Received<FramePacket>[] = [];
  readonly control: Received<ControlMessage>[] = [];
  avatar: RemoteParticipant | undefined;
  trackName: string | undefined;
  #track: Promise<RemoteTrack>;
  #resolveTrack!: (track: RemoteTrack) => void;
  #reading: Promise<void> | undefined;

  constructor() {
    this.#track = new Promise((resolve) => {
      this.#resolveTrack = resolve;
    });
    this.room.on(RoomEvent.ParticipantConnected, (p) => {
      this.avatar = p;
    });
    this.room.on(RoomEvent.TrackSubscribed, (track, publication, participant) => {
      if (track.kind !== TrackKind.KIND_AUDIO) return;
      this.avatar = participant;
      this.trackName = publication.name;
      this.#resolveTrack(track);
    });
    this.room.on(RoomEvent.DataReceived, (payload, _participant, _kind, topic) => {
      const atMs = wallNow();
      if (topic === FRAMES_TOPIC) this.frames.push({ atMs, value: decodeFramePacket(payload) });
      if (topic === CONTROL_TOPIC) this.control.push({ atMs, value: decodeControlMessage(payload) });
    });
  }

  async join(url: string, roomName: string, identity = 'listener'): Promise<void> {
    await this.room.connect(url, await joinToken(roomName, identity), {
      autoSubscribe: true,
      dynacast: false,
    });
    for (const p of this.room.remoteParticipants.values()) this.avatar ??= p;
  }

  /** Waits for the avatar's audio track and records it from then on. */
  async recordAudio(timeoutMs = 10_000): Promise<void> {
    const track = await within(this.#track, timeoutMs, 'the avatar audio track');
    const stream = new AudioStream(track, { sampleRate: 48000, numChannels: 1 });
    const reader = stream.getReader();
    this.#reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || !value) return;
        this.audio.push({ atMs: wallNow(), rms: rms(value.data) });
      }
    })().catch(() => {});
  }

  /** Waits until `predicate` holds, polling every 20 ms. */
  async until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  framesOf(reqId: string): Received<FramePacket>[] {
    return this.frames.filter((f) => f.value.animation.reqId === reqId);
  }

  controlOf(reqId: string, type?: ControlMessage['type']): Received<ControlMessage>[] {
    return this.control.filter(
      (c) => c.value.reqId === reqId && (type === undefined || c.value.type === type),
    );
  }

  /** Audio blocks louder than `threshold` RMS. */
  loud(threshold = 1000): AudioBlock[] {
    return this.audio.filter((b) => b.rms > threshold);
  }

  async leave(): Promise<void> {
    await this.room.disconnect();
    await this.#reading;
  }
}

export function rms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

/** `seconds` of a 440 Hz tone at amplitude 8000 (RMS ≈ 5657). */
export function tone(sampleRate: number, seconds: number): Int16Array {
  const n = Math.round(sampleRate * seconds);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
  return out;
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
