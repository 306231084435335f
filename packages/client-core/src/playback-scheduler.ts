/**
 * The playback engine's timing core, free of WebAudio so it can be tested with a fake clock.
 *
 * One utterance plays at a time (a new one preempts the current, as the service does). Its audio
 * is scheduled on the audio clock from a start time `t0`; drive frame k is shown when the clock
 * reaches `t0 + k/25` (the audio time of sample k·sr/25), interpolated between frames. Playback
 * starts a small jitter buffer after the first animation frame arrives (or at once for an
 * audio-only utterance, or after a timeout when no animation comes), so frames that arrive a
 * little late are still in time. Audio that arrives after its slot pushes `t0` back, moving
 * audio and animation together.
 */
import { DRIVE_FRAME_FIELDS, type DriveFrame, FPS } from '@avatar-drive/core';

/** The audio clock and output the scheduler drives (WebAudio in browsers, a fake in tests). */
export interface AudioSink {
  /** Seconds on the audio clock; stands still while paused. */
  readonly currentTime: number;
  /** Plays mono samples from audio-clock time `when`; returns a function that stops them at once. */
  play(samples: Float32Array, sampleRate: number, when: number): () => void;
}

/** Tuning of {@link PlaybackScheduler}. */
export interface PlaybackOptions {
  /** Delay between "ready" and the start of playback, absorbing late frames; default 80 ms. */
  jitterBufferMs?: number;
  /** Start audio-only when no animation has come this long after the first audio; default 1500 ms. */
  animationWaitMs?: number;
  /** Minimum lead when scheduling audio; default 10 ms. */
  scheduleLeadMs?: number;
}

/** What the renderer needs at one instant of an utterance. */
export interface PlaybackSample {
  /** Utterance id (request or conversation id). */
  id: string;
  /** Seconds of the utterance's audio played at this instant. */
  audioPosition: number;
  /** The interpolated frame, or `undefined` when the utterance has no animation (audio-only). */
  frame: DriveFrame | undefined;
  /** Fractional frame position shown (`audioPosition · 25`), when a frame is shown. */
  framePosition: number | undefined;
  /** Frames of the utterance received so far (the animation available to show). */
  framesReceived: number;
}

interface Utterance {
  id: string;
  sampleRate: number;
  /** Audio chunks not yet scheduled, with their sample offset. */
  pending: Array<{ samples: Float32Array; offset: number }>;
  samples: number;
  audioEnded: boolean;
  frames: DriveFrame[];
  audioOnly: boolean;
  firstAudioAt: number | undefined;
  t0: number | undefined;
  stops: Array<() => void>;
}

/** Schedules one utterance at a time against an {@link AudioSink}'s clock. */
export class PlaybackScheduler {
  readonly #sink: AudioSink;
  readonly #jitter: number;
  readonly #animationWait: number;
  readonly #lead: number;
  #current: Utterance | undefined;
  #stalls = 0;

  constructor(sink: AudioSink, options: PlaybackOptions = {}) {
    this.#sink = sink;
    this.#jitter = (options.jitterBufferMs ?? 80) / 1000;
    this.#animationWait = (options.animationWaitMs ?? 1500) / 1000;
    this.#lead = (options.scheduleLeadMs ?? 10) / 1000;
  }

  /** The id of the utterance being buffered or played. */
  get currentId(): string | undefined {
    return this.#current?.id;
  }

  /** True once the current utterance's playback has started. */
  get started(): boolean {
    return this.#current?.t0 !== undefined;
  }

  /** Times audio arrived after its slot and moved playback back (for diagnostics). */
  get stallCount(): number {
    return this.#stalls;
  }

  /** Audio-clock time frame 0 of the current utterance plays at, once started. */
  get startTime(): number | undefined {
    return this.#current?.t0;
  }

  /**
   * Makes `id` the current utterance (a different current one is stopped at once). Returns
   * true when `id` is new.
   */
  begin(id: string, sampleRate: number): boolean {
    if (this.#current?.id === id) return false;
    this.stop();
    this.#current = {
      id,
      sampleRate,
      pending: [],
      samples: 0,
      audioEnded: false,
      frames: [],
      audioOnly: false,
      firstAudioAt: undefined,
      t0: undefined,
      stops: [],
    };
    return true;
  }

  /** Adds audio to utterance `id` (ignored when it is not current); `last` closes its audio. */
  pushAudio(id: string, pcm: Int16Array, last: boolean): void {
    const u = this.#current;
    if (!u || u.id !== id || u.audioEnded) return;
    if (pcm.length > 0) {
      const samples = new Float32Array(pcm.length);
      for (let i = 0; i < pcm.length; i++) samples[i] = pcm[i]! / 32768;
      u.pending.push({ samples, offset: u.samples });
      u.samples += pcm.length;
    }
    if (u.firstAudioAt === undefined) u.firstAudioAt = this.#sink.currentTime;
    if (last) u.audioEnded = true;
    this.update();
  }

  /** Adds frames (in order, continuing the utterance's numbering) to utterance `id`. */
  pushFrames(id: string, frames: readonly DriveFrame[]): void {
    const u = this.#current;
    if (!u || u.id !== id) return;
    for (const frame of frames) u.frames.push(frame);
    this.update();
  }

  /** Marks utterance `id` as having no animation: it starts without waiting for frames. */
  setAudioOnly(id: string): void {
    const u = this.#current;
    if (!u || u.id !== id) return;
    u.audioOnly = true;
    this.update();
  }

  /**
   * Starts the current utterance when it is ready and schedules its pending audio. Returns the
   * id of an utterance whose playback just finished (all of its audio played), once.
   */
  update(): string | undefined {
    const u = this.#current;
    if (!u) return undefined;
    const now = this.#sink.currentTime;
    if (u.t0 === undefined) {
      const hasAudio = u.samples > 0 || u.audioEnded;
      const waitedOut = u.firstAudioAt !== undefined && now - u.firstAudioAt >= this.#animationWait;
      if (!hasAudio || !(u.frames.length > 0 || u.audioOnly || waitedOut)) return undefined;
      u.t0 = now + Math.max(this.#jitter, this.#lead);
    }
    for (const chunk of u.pending) {
      let when = u.t0 + chunk.offset / u.sampleRate;
      if (when < now + this.#lead) {
        // Late audio: move the whole utterance (audio and frames) back rather than drop or overlap.
        u.t0 += now + this.#lead - when;
        when = now + this.#lead;
        this.#stalls += 1;
      }
      u.stops.push(this.#sink.play(chunk.samples, u.sampleRate, when));
    }
    u.pending.length = 0;
    if (u.audioEnded && now >= u.t0 + u.samples / u.sampleRate) {
      this.#current = undefined;
      return u.id;
    }
    return undefined;
  }

  /**
   * What to show at audio-clock time `time` (default now): the frame for that instant,
   * interpolated, or `undefined` before the start / after the end / with nothing current.
   */
  sample(time: number = this.#sink.currentTime): PlaybackSample | undefined {
    const u = this.#current;
    if (!u || u.t0 === undefined || time < u.t0) return undefined;
    const audioPosition = time - u.t0;
    if (u.audioEnded && audioPosition >= u.samples / u.sampleRate) return undefined;
    if (u.frames.length === 0)
      return { id: u.id, audioPosition, frame: undefined, framePosition: undefined, framesReceived: 0 };
    const position = audioPosition * FPS;
    const k = Math.floor(position);
    const last = u.frames.length - 1;
    const a = u.frames[Math.min(k, last)]!;
    // Hold the newest frame when the next has not arrived yet (the jitter buffer ran dry).
    const b = k + 1 <= last ? u.frames[k + 1]! : a;
    const frac = k < last ? position - k : 0;
    return {
      id: u.id,
      audioPosition,
      frame: lerpFrame(a, b, frac),
      framePosition: k > last ? last : position,
      framesReceived: u.frames.length,
    };
  }

  /** Stops the current utterance's audio and animation at once and forgets it. */
  stop(): string | undefined {
    const u = this.#current;
    if (!u) return undefined;
    for (const stop of u.stops) stop();
    this.#current = undefined;
    return u.id;
  }
}

/** Linear interpolation of every field of two frames (`t` = 0 → a, 1 → b). */
export function lerpFrame(a: DriveFrame, b: DriveFrame, t: number): DriveFrame {
  const out = { index: a.index } as DriveFrame;
  for (const field of DRIVE_FRAME_FIELDS) {
    const x = a[field];
    const y = b[field];
    const r = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) r[i] = x[i]! + ((y[i] ?? x[i]!) - x[i]!) * t;
    out[field] = r;
  }
  return out;
}
