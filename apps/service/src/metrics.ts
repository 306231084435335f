/**
 * Prometheus metrics of one service instance (its own registry, so instances never collide).
 * Per-chunk figures (engine work, frames sent) are summed in plain numbers and handed to their
 * counters when Prometheus collects: a prom-client `inc` per 20 ms chunk per session was measurable
 * at hundreds of sessions.
 */
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { FrameLateness } from './frame-lateness.js';

/**
 * What the overload guard (capacity/overload-guard) shows: declared here so that metrics depends
 * on no room of the service; the guard reports through it.
 */
export interface OverloadReadings {
  /** True while new sessions are refused for load. */
  readonly refusing: boolean;
  /** Sessions estimated to fit at the target utilization (infinite while not estimated). */
  readonly capacity: number;
  /** The last window's readings. */
  readonly reading: { readonly frameP99Ms: number; readonly lagP99Ms: number; readonly utilization: number };
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly liveSessions: Gauge;
  readonly framesSent: Counter;
  readonly audioSeconds: Counter;
  readonly engineCpuSeconds: Counter;
  readonly errors: Counter<'code'>;
  readonly tokensIssued: Counter;
  readonly overloadRefusals: Counter;
  /** How late the socket output writes frames (the overload guard reads its windows). */
  readonly frameLateness = new FrameLateness();
  #audioTotal = 0;
  #cpuTotal = 0;
  #audioPending = 0;
  #cpuPending = 0;
  #framesPending = 0;
  #openingMs = 0;

  constructor(labels: { region: string }) {
    this.registry.setDefaultLabels(labels);
    collectDefaultMetrics({ register: this.registry, prefix: 'avatar_drive_' });
    this.liveSessions = new Gauge({
      name: 'avatar_drive_live_sessions',
      help: 'Ingress sessions open on this instance.',
      registers: [this.registry],
    });
    const self = this;
    this.framesSent = new Counter({
      name: 'avatar_drive_frames_sent_total',
      help: 'Animation keyframes sent to clients.',
      registers: [this.registry],
      collect() {
        this.inc(self.#framesPending);
        self.#framesPending = 0;
      },
    });
    this.audioSeconds = new Counter({
      name: 'avatar_drive_audio_seconds_processed_total',
      help: 'Seconds of client audio run through the engine.',
      registers: [this.registry],
      collect() {
        this.inc(self.#audioPending);
        self.#audioPending = 0;
      },
    });
    this.engineCpuSeconds = new Counter({
      name: 'avatar_drive_engine_cpu_seconds_total',
      help:
        'Time the engine spent computing frames, timed around each call on its thread (wall clock: on a ' +
        'loaded machine it includes time the thread waited for a core).',
      registers: [this.registry],
      collect() {
        this.inc(self.#cpuPending);
        self.#cpuPending = 0;
      },
    });
    new Gauge({
      name: 'avatar_drive_engine_cpu_seconds_per_audio_second',
      help: 'Engine compute time per second of audio processed, since start.',
      registers: [this.registry],
      collect() {
        this.set(self.#audioTotal > 0 ? self.#cpuTotal / self.#audioTotal : 0);
      },
    });
    this.errors = new Counter({
      name: 'avatar_drive_errors_total',
      help: 'Errors reported to clients, by AvatarError code.',
      labelNames: ['code'],
      registers: [this.registry],
    });
    this.tokensIssued = new Counter({
      name: 'avatar_drive_session_tokens_issued_total',
      help: 'Session tokens minted by the console API.',
      registers: [this.registry],
    });
    this.overloadRefusals = new Counter({
      name: 'avatar_drive_sessions_refused_overload_total',
      help: 'New sessions refused (4503) because this instance was overloaded (frame or event-loop lateness, utilization) or at its estimated capacity.',
      registers: [this.registry],
    });
    let lateCounted = 0;
    let framesCounted = 0;
    new Counter({
      name: 'avatar_drive_frames_timed_total',
      help: 'Animation frames whose lateness was measured (socket output).',
      registers: [this.registry],
      collect() {
        this.inc(self.frameLateness.frames - framesCounted);
        framesCounted = self.frameLateness.frames;
      },
    });
    new Counter({
      name: 'avatar_drive_frames_late_total',
      help: `Animation frames written more than ${this.frameLateness.lateMs} ms after their deadline (the audio that completed them, at their request's own pace).`,
      registers: [this.registry],
      collect() {
        this.inc(self.frameLateness.lateFrames - lateCounted);
        lateCounted = self.frameLateness.lateFrames;
      },
    });
  }

  /**
   * Exposes what `guard` measures: whether it refuses, its last window's frame and event-loop
   * lateness and utilization, and the capacity it estimates.
   */
  watchOverload(guard: OverloadReadings): void {
    new Gauge({
      name: 'avatar_drive_overloaded',
      help: '1 while this instance refuses new sessions for overload (or at its estimated capacity), else 0.',
      registers: [this.registry],
      collect() {
        this.set(guard.refusing ? 1 : 0);
      },
    });
    new Gauge({
      name: 'avatar_drive_frame_lateness_p99_seconds',
      help: "p99 lateness of the animation frames written in the overload guard's last window.",
      registers: [this.registry],
      collect() {
        this.set(guard.reading.frameP99Ms / 1000);
      },
    });
    new Gauge({
      name: 'avatar_drive_estimated_session_capacity',
      help: 'Sessions this instance estimates it holds at its target utilization (-1 while not estimated: the process is not busy).',
      registers: [this.registry],
      collect() {
        this.set(Number.isFinite(guard.capacity) ? guard.capacity : -1);
      },
    });
    new Gauge({
      name: 'avatar_drive_event_loop_lag_p99_seconds',
      help: "p99 event-loop lateness over the overload guard's last window.",
      registers: [this.registry],
      collect() {
        this.set(guard.reading.lagP99Ms / 1000);
      },
    });
    new Gauge({
      name: 'avatar_drive_event_loop_utilization',
      help: "Share of the overload guard's last window the event loop was busy (0 … 1).",
      registers: [this.registry],
      collect() {
        this.set(guard.reading.utilization);
      },
    });
  }

  /** Records engine work: `audioSeconds` of audio took `cpuSeconds` to process. */
  recordEngineWork(audioSeconds: number, cpuSeconds: number): void {
    this.#audioTotal += audioSeconds;
    this.#cpuTotal += cpuSeconds;
    this.#audioPending += audioSeconds;
    this.#cpuPending += cpuSeconds;
  }

  /**
   * Records `ms` of event-loop time spent opening (or refusing) a session: handshake, upgrade,
   * configure. The overload guard takes it out of the utilization it divides among open sessions.
   */
  recordOpeningWork(ms: number): void {
    this.#openingMs += ms;
  }

  /** Opening work since the last call, ms (the overload guard's window). */
  takeOpeningWork(): number {
    const ms = this.#openingMs;
    this.#openingMs = 0;
    return ms;
  }

  /** Records `count` animation keyframes sent. */
  recordFramesSent(count: number): void {
    this.#framesPending += count;
  }

  recordError(code: string): void {
    this.errors.inc({ code });
  }
}
