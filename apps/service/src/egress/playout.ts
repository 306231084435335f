/**
 * Real-time playout of a session's requests into an audio source, with each drive frame sent
 * just before its audio and stamped with the time that audio leaves the source.
 *
 * The audio source (libwebrtc via @livekit/rtc-node) drains 10 ms every 10 ms and sends
 * silence when it has nothing, so the track runs on the wall clock. The scheduler hands it
 * 10 ms chunks, staying at most `maxLeadMs` ahead, and keeps for every request the runs of
 * samples it handed over: `{sample, atMs}` = "this sample leaves the source at atMs". From
 * those it stamps frames (frame k starts at sample k·rate/25), answers "how much was played"
 * for pause/interrupt/ended, and rewinds on pause. Transport-agnostic: the sink does I/O.
 */

import {
  AvatarError,
  type ControlMessage,
  DRIVE_FRAME_FIELDS,
  type DriveFrame,
  FPS,
  type FramePacket,
  responseAnimationMessage,
  type ServerResponseAnimation,
} from '@avatar-drive/core';
import type { PlaybackSnapshot } from './types.js';

/** Where the scheduler's output goes. */
export interface PlayoutSink {
  /** Hands PCM (track rate, mono) to the audio source; resolves when the source took it. */
  capture(pcm: Int16Array): Promise<void>;
  /** Drops whatever the audio source holds but has not sent yet. */
  clear(): void;
  sendFrames(packet: FramePacket): void;
  sendControl(message: ControlMessage): void;
}

export interface PlayoutEvents {
  onPlaying(reqId: string): void;
  onEnded(reqId: string, playedMs: number): void;
  onInterrupted(reqId: string, playedMs: number): void;
  /** Nothing queued or playing for `idleTimeoutMs`. */
  onIdle(idleMs: number): void;
  /** The sink failed to take audio. */
  onError(error: unknown): void;
}

export interface PlayoutOptions {
  /** Sample rate of the audio source (a multiple of 100 Hz, so 10 ms is whole samples). */
  trackRate: number;
  connectionId: string;
  avatarId: string;
  /** How far ahead of the wall clock audio is handed to the source. Default 200 ms. */
  maxLeadMs?: number;
  /** How long a request's audio waits for the frame it needs before playing without it. Default 300 ms. */
  frameHoldMs?: number;
  /** Idle time after which `onIdle` fires; 0 = never. */
  idleTimeoutMs: number;
  /** At most this many keyframes per frame packet (keeps packets well under the data MTU). Default 16. */
  maxFramesPerPacket?: number;
  /** Wall clock in Unix ms; injectable for tests. */
  now?: () => number;
}

interface Run {
  /** First sample of the run (request-relative, track rate). */
  sample: number;
  /** One past the last sample. */
  endSample: number;
  /** When `sample` leaves the audio source (wall clock, ms). */
  atMs: number;
}

class Utterance {
  pcm: Int16Array;
  length = 0;
  audioEnded = false;
  readonly frames: DriveFrame[] = [];
  framesEnded = false;
  /** Next sample to hand to the source. */
  cursor = 0;
  /** Next frame to send. */
  nextFrame = 0;
  endSent = false;
  readonly runs: Run[] = [];
  playingTimer: ReturnType<typeof setTimeout> | undefined;
  playingFired = false;
  endedTimer: ReturnType<typeof setTimeout> | undefined;
  holdSince: number | undefined;

  constructor(
    readonly reqId: string,
    rate: number,
  ) {
    this.pcm = new Int16Array(rate);
  }

  append(pcm: Int16Array): void {
    if (this.length + pcm.length > this.pcm.length) {
      const grown = new Int16Array(Math.max(this.pcm.length * 2, this.length + pcm.length));
      grown.set(this.pcm.subarray(0, this.length));
      this.pcm = grown;
    }
    this.pcm.set(pcm, this.length);
    this.length += pcm.length;
  }

  get fullyPushed(): boolean {
    return this.audioEnded && this.cursor >= this.length;
  }
}

const RECENT_LIMIT = 256;

export class PlayoutScheduler {
  readonly #sink: PlayoutSink;
  readonly #events: PlayoutEvents;
  readonly #rate: number;
  readonly #chunk: number;
  readonly #maxLeadMs: number;
  readonly #frameHoldMs: number;
  readonly #idleTimeoutMs: number;
  readonly #maxFramesPerPacket: number;
  readonly #connectionId: string;
  readonly #avatarId: string;
  readonly #now: () => number;

  /** Requests not yet ended, in play order. */
  readonly #queue: Utterance[] = [];
  /** Requests that ended or were interrupted recently: late input for them is dropped. */
  readonly #retired = new Set<string>();
  #paused = false;
  #closed = false;
  /** When the last sample handed to the source leaves it. */
  #queueEndMs = 0;
  #wake: (() => void) | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #pumping: Promise<void> | undefined;

  constructor(sink: PlayoutSink, events: PlayoutEvents, options: PlayoutOptions) {
    if (!Number.isInteger(options.trackRate / 100)) {
      throw new AvatarError(
        'invalidAudio',
        `Track rate ${options.trackRate} Hz is not a multiple of 100 Hz.`,
      );
    }
    this.#sink = sink;
    this.#events = events;
    this.#rate = options.trackRate;
    this.#chunk = options.trackRate / 100;
    this.#maxLeadMs = options.maxLeadMs ?? 200;
    this.#frameHoldMs = options.frameHoldMs ?? 300;
    this.#idleTimeoutMs = options.idleTimeoutMs;
    this.#maxFramesPerPacket = options.maxFramesPerPacket ?? 16;
    this.#connectionId = options.connectionId;
    this.#avatarId = options.avatarId;
    this.#now = options.now ?? (() => performance.timeOrigin + performance.now());
  }

  /** Starts the pump and the idle timer. */
  start(): void {
    this.#armIdle();
    this.#pumping = this.#pump();
  }

  /** Stops everything; pending events are not fired. */
  async stop(): Promise<void> {
    this.#closed = true;
    this.#clearIdle();
    for (const u of this.#queue) this.#cancelTimers(u);
    this.#queue.length = 0;
    this.#wakeUp();
    await this.#pumping;
  }

  pushAudio(reqId: string, pcm: Int16Array, end: boolean): void {
    if (this.#closed || this.#retired.has(reqId)) return;
    let u = this.#find(reqId);
    if (u?.audioEnded) {
      throw new AvatarError(
        'invalidRequest',
        `Audio for request ${reqId} arrived after its end; start a new req_id for new speech.`,
      );
    }
    if (pcm.length === 0 && !end) return;
    if (!u || u.length === 0) {
      if (!u && pcm.length === 0) {
        this.#retire(reqId); // an empty request: nothing to play, and its frames are dropped
        return;
      }
      // Requests stream one at a time: audio of a new one ends any still open before it,
      // or a client that never sent `end` would hold everything behind it forever.
      for (const other of this.#queue) {
        if (other !== u && !other.audioEnded) {
          other.audioEnded = true;
          this.#closeIfHandedOver(other);
        }
      }
    }
    if (!u) {
      u = new Utterance(reqId, this.#rate);
      this.#queue.push(u);
    }
    this.#clearIdle();
    u.append(pcm);
    if (end) u.audioEnded = true;
    this.#closeIfHandedOver(u);
    this.#wakeUp();
  }

  /**
   * A request whose end came after all its audio was handed over (or that had none) is not
   * visited by the pump again: send its last frames and schedule its end here.
   */
  #closeIfHandedOver(u: Utterance): void {
    if (!u.fullyPushed) return;
    this.#sendDueFrames(u);
    this.#scheduleEnded(u, this.#now());
  }

  pushFrames(reqId: string, frames: readonly DriveFrame[], end: boolean): void {
    if (this.#closed || this.#retired.has(reqId)) return;
    let u = this.#find(reqId);
    if (!u) {
      // Frames may come before the request's first audio: keep them for it.
      u = new Utterance(reqId, this.#rate);
      this.#queue.push(u);
    }
    for (const frame of frames) u.frames.push(finite(frame));
    if (end) u.framesEnded = true;
    // Frames whose audio already went out (late frames) leave now, stamped with their time.
    this.#sendDueFrames(u);
    this.#wakeUp();
  }

  pause(): PlaybackSnapshot {
    if (this.#paused || this.#closed) return this.snapshot();
    const now = this.#now();
    this.#paused = true;
    this.#sink.clear();
    for (const u of this.#queue) this.#rewindTo(u, this.#playedSamples(u, now), now);
    this.#queueEndMs = now;
    const snap = this.snapshot();
    if (snap.reqId) {
      this.#sink.sendControl({ v: 1, type: 'paused', reqId: snap.reqId, atMs: now, playedMs: snap.playedMs });
    }
    return snap;
  }

  resume(): PlaybackSnapshot {
    if (!this.#paused || this.#closed) return this.snapshot();
    this.#paused = false;
    const snap = this.snapshot();
    if (snap.reqId) {
      this.#sink.sendControl({
        v: 1,
        type: 'resumed',
        reqId: snap.reqId,
        atMs: this.#now(),
        playedMs: snap.playedMs,
      });
    }
    if (this.#queue.length === 0) this.#armIdle();
    this.#wakeUp();
    return snap;
  }

  /**
   * Stops `reqId` and every request queued before it (they would otherwise play first);
   * without `reqId`, the request playing now. Requests queued after it keep their place.
   */
  interrupt(reqId?: string): PlaybackSnapshot {
    if (this.#closed) return this.snapshot();
    const target = reqId === undefined ? this.#queue[0] : this.#find(reqId);
    if (!target) {
      if (reqId !== undefined) this.#retire(reqId); // its late input is dropped
      return this.snapshot();
    }
    const now = this.#now();
    this.#sink.clear();
    const cut = this.#queue.indexOf(target) + 1;
    const stopped = this.#queue.splice(0, cut);
    for (const u of stopped) {
      const playedMs = this.#toMs(this.#playedSamples(u, now));
      this.#cancelTimers(u);
      this.#retire(u.reqId);
      this.#sink.sendControl({ v: 1, type: 'interrupted', reqId: u.reqId, atMs: now, playedMs });
      this.#events.onInterrupted(u.reqId, playedMs);
    }
    // What was queued behind the stopped requests was cleared from the source too: rewind it.
    for (const u of this.#queue) this.#rewindTo(u, this.#playedSamples(u, now), now);
    this.#queueEndMs = now;
    if (this.#queue.length === 0) this.#armIdle();
    this.#wakeUp();
    return this.snapshot();
  }

  snapshot(): PlaybackSnapshot {
    const u = this.#queue[0];
    const playedMs = u ? this.#toMs(this.#playedSamples(u, this.#now())) : 0;
    const state = this.#paused ? 'paused' : u ? 'playing' : 'idle';
    return { state, reqId: u?.reqId ?? '', playedMs };
  }

  // ---- the pump ----

  async #pump(): Promise<void> {
    while (!this.#closed) {
      const step = this.#nextStep();
      if (step.kind === 'wait') {
        await this.#sleep(step.ms);
        continue;
      }
      try {
        await this.#sink.capture(step.pcm);
      } catch (error) {
        if (this.#closed) return;
        this.#events.onError(error);
        return;
      }
    }
  }

  /** Decides the next 10 ms: a chunk to capture, or how long to wait for something to change. */
  #nextStep(): { kind: 'chunk'; pcm: Int16Array } | { kind: 'wait'; ms: number | undefined } {
    if (this.#paused) return { kind: 'wait', ms: undefined };
    const u = this.#queue.find((x) => !x.fullyPushed);
    if (!u) return { kind: 'wait', ms: undefined };
    const now = this.#now();
    const lead = this.#queueEndMs - now;
    if (lead > this.#maxLeadMs) return { kind: 'wait', ms: lead - this.#maxLeadMs };
    const available = u.length - u.cursor;
    if (available < this.#chunk && !u.audioEnded) return { kind: 'wait', ms: undefined };
    // Sync before latency: audio waits (bounded) for the frame that animates it.
    const frame = Math.floor((u.cursor * FPS) / this.#rate);
    if (!u.framesEnded && frame >= u.frames.length) {
      u.holdSince ??= now;
      const left = u.holdSince + this.#frameHoldMs - now;
      if (left > 0) return { kind: 'wait', ms: left };
    } else {
      u.holdSince = undefined;
    }
    const n = Math.min(this.#chunk, available);
    const pcm = new Int16Array(this.#chunk); // zero-padded when the request's tail is short
    pcm.set(u.pcm.subarray(u.cursor, u.cursor + n));
    const atMs = Math.max(now, this.#queueEndMs);
    const last = u.runs[u.runs.length - 1];
    if (last && last.endSample === u.cursor && Math.abs(this.#runEndMs(last) - atMs) < 0.5) {
      last.endSample += n;
    } else {
      u.runs.push({ sample: u.cursor, endSample: u.cursor + n, atMs });
    }
    this.#queueEndMs = atMs + 10;
    u.cursor += n;
    if (!u.playingFired && u.playingTimer === undefined) this.#schedulePlaying(u, atMs, now);
    this.#sendDueFrames(u);
    if (u.fullyPushed) this.#scheduleEnded(u, now);
    return { kind: 'chunk', pcm };
  }

  // ---- frames ----

  /** Sends every received, unsent frame whose first sample has been handed to the source. */
  #sendDueFrames(u: Utterance): void {
    if (u.endSent) return;
    const due: number[] = [];
    while (u.nextFrame < u.frames.length) {
      const start = this.#frameStart(u.nextFrame);
      if (start >= u.cursor && !(u.fullyPushed && u.framesEnded)) break;
      due.push(u.nextFrame);
      u.nextFrame++;
    }
    const end = u.fullyPushed && u.framesEnded && u.nextFrame >= u.frames.length;
    if (due.length === 0 && !end) return;
    const sentAtMs = this.#now();
    for (let i = 0; i < due.length || (i === 0 && end); i += this.#maxFramesPerPacket) {
      const batch = due.slice(i, i + this.#maxFramesPerPacket);
      const last = i + this.#maxFramesPerPacket >= due.length;
      const packetEnd = end && last;
      const message = responseAnimationMessage({
        connectionId: this.#connectionId,
        reqId: u.reqId,
        end: packetEnd,
        avatarId: this.#avatarId,
        frames: batch.map((k) => u.frames[k]!),
      });
      const animation = message.data.value as ServerResponseAnimation;
      this.#sink.sendFrames({
        firstFrameIndex: batch[0] ?? u.frames.length,
        sampleRate: this.#rate,
        sentAtMs,
        playAtMs: batch.map((k) => this.#playAt(u, this.#frameStart(k))),
        end: packetEnd,
        animation,
      });
    }
    if (end) u.endSent = true;
  }

  #frameStart(index: number): number {
    return Math.round((index * this.#rate) / FPS);
  }

  /** When `sample` of `u` leaves the source (extrapolated past the last run for tail frames). */
  #playAt(u: Utterance, sample: number): number {
    for (let i = u.runs.length - 1; i >= 0; i--) {
      const run = u.runs[i]!;
      if (sample >= run.sample) return run.atMs + this.#toMs(sample - run.sample);
    }
    const first = u.runs[0];
    return first ? first.atMs - this.#toMs(first.sample - sample) : this.#now();
  }

  // ---- bookkeeping ----

  /** Samples of `u` that have left the source by `now`. */
  #playedSamples(u: Utterance, now: number): number {
    let played = 0;
    for (const run of u.runs) {
      if (run.atMs > now) break;
      played = Math.min(run.endSample, run.sample + Math.floor(((now - run.atMs) * this.#rate) / 1000));
    }
    return played;
  }

  /** Forgets everything of `u` after `sample`: it will be handed to the source again. */
  #rewindTo(u: Utterance, sample: number, now: number): void {
    while (u.runs.length > 0 && u.runs[u.runs.length - 1]!.sample >= sample) u.runs.pop();
    const last = u.runs[u.runs.length - 1];
    if (last && last.endSample > sample) last.endSample = sample;
    if (sample < u.cursor) {
      u.cursor = sample;
      // Frames from the one holding `sample` on are sent again with their new times;
      // receivers replace a frame they hold by (reqId, index).
      u.nextFrame = Math.min(u.nextFrame, Math.floor((sample * FPS) / this.#rate));
      u.endSent = false;
    }
    if (u.endedTimer !== undefined && !u.fullyPushed) {
      clearTimeout(u.endedTimer);
      u.endedTimer = undefined;
    }
    if (u.playingTimer !== undefined && !u.playingFired && (u.runs[0]?.atMs ?? now + 1) > now) {
      clearTimeout(u.playingTimer);
      u.playingTimer = undefined;
    }
  }

  #schedulePlaying(u: Utterance, atMs: number, now: number): void {
    u.playingTimer = setTimeout(
      () => {
        u.playingFired = true;
        if (this.#closed) return;
        this.#sink.sendControl({ v: 1, type: 'playing', reqId: u.reqId, atMs });
        this.#events.onPlaying(u.reqId);
      },
      Math.max(0, atMs - now),
    );
  }

  #scheduleEnded(u: Utterance, now: number): void {
    if (u.endedTimer !== undefined) clearTimeout(u.endedTimer);
    u.endedTimer = setTimeout(
      () => {
        u.endedTimer = undefined;
        if (this.#closed || !u.fullyPushed) return;
        const index = this.#queue.indexOf(u);
        if (index < 0) return;
        this.#queue.splice(index, 1);
        this.#retire(u.reqId);
        this.#cancelTimers(u);
        const playedMs = this.#toMs(u.length);
        if (!u.endSent) {
          // Frames still missing at the end of the audio: close the request for receivers.
          u.framesEnded = true;
          this.#sendDueFrames(u);
        }
        this.#sink.sendControl({ v: 1, type: 'ended', reqId: u.reqId, atMs: this.#now(), playedMs });
        this.#events.onEnded(u.reqId, playedMs);
        if (this.#queue.length === 0 && !this.#paused) this.#armIdle();
      },
      Math.max(0, this.#endOf(u) - now),
    );
  }

  /** When the last sample handed over of `u` leaves the source. */
  #endOf(u: Utterance): number {
    const last = u.runs[u.runs.length - 1];
    return last ? this.#runEndMs(last) : this.#now();
  }

  #cancelTimers(u: Utterance): void {
    if (u.playingTimer !== undefined && !u.playingFired) clearTimeout(u.playingTimer);
    if (u.endedTimer !== undefined) clearTimeout(u.endedTimer);
    u.playingTimer = undefined;
    u.endedTimer = undefined;
  }

  #armIdle(): void {
    this.#clearIdle();
    if (this.#idleTimeoutMs <= 0 || this.#closed) return;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      if (!this.#closed && this.#queue.length === 0) this.#events.onIdle(this.#idleTimeoutMs);
    }, this.#idleTimeoutMs);
  }

  #clearIdle(): void {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  #find(reqId: string): Utterance | undefined {
    return this.#queue.find((u) => u.reqId === reqId);
  }

  #retire(reqId: string): void {
    this.#retired.add(reqId);
    if (this.#retired.size > RECENT_LIMIT) {
      const oldest = this.#retired.values().next().value;
      if (oldest !== undefined) this.#retired.delete(oldest);
    }
  }

  #runEndMs(run: Run): number {
    return run.atMs + this.#toMs(run.endSample - run.sample);
  }

  #toMs(samples: number): number {
    return (samples * 1000) / this.#rate;
  }

  #sleep(ms: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, Math.max(1, ms));
      function done(): void {
        if (timer !== undefined) clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/**
 * `frame`, or a copy with every NaN or infinity set to 0: clients reject non-finite rig values
 * (and the message builder refuses them), so a pluggable engine's bad value must not reach them.
 */
function finite(frame: DriveFrame): DriveFrame {
  if (DRIVE_FRAME_FIELDS.every((name) => frame[name].every(Number.isFinite))) return frame;
  const copy = { ...frame };
  for (const name of DRIVE_FRAME_FIELDS) copy[name] = frame[name].map((v) => (Number.isFinite(v) ? v : 0));
  return copy;
}
