/**
 * Graceful overload: past what this process can keep in real time, new sessions are refused (4503,
 * retryable, token not spent) instead of being let in until every session falls behind.
 *
 * Load is measured on the thread that runs the sessions, over short windows: how late the frames
 * written in the window were ({@link FrameLateness}: what users feel), the event loop's lateness
 * (`monitorEventLoopDelay`: how late a 10 ms timer fires, p99 per window), its utilization
 * (`eventLoopUtilization`: the share of wall time the loop was busy or waiting for a core, not
 * idle in epoll), the process's CPU (`process.cpuUsage`) and the sessions open. What the readings
 * decide is {@link AdmissionPolicy}'s: shedding after consecutive late windows, and a capacity
 * estimated from the measured cost per session, so that a burst of new sessions is refused
 * before it overshoots, only while the process itself is busy. Established sessions are never
 * touched.
 */
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FrameLateness } from '../frame-lateness.js';
import { AdmissionPolicy, type PolicyOptions, type Refusal, type WindowReading } from './admission-policy.js';

export { RESUME_RATIO } from './admission-policy.js';

/** When a node counts as overloaded ({@link PolicyOptions}), and how often it measures. */
export interface OverloadOptions extends PolicyOptions {
  /** Length of one measuring window (default 500 ms). */
  windowMs: number;
}

export const DEFAULT_OVERLOAD: Readonly<OverloadOptions> = Object.freeze({
  lagMs: 50,
  busyPercent: 95,
  frameLateMs: 30,
  targetBusyPercent: 0,
  windowMs: 500,
  minCpuCores: 0.5,
  overWindows: 2,
  calmWindows: 4,
  capacityWindows: 3,
});

/** What the last window measured (the policy's reading of it). */
export type LoadReading = WindowReading;

/** Where the guard reads what it does not measure itself. */
export interface GuardSources {
  /** The service's frame-lateness meter (the socket output records into it). */
  frames?: FrameLateness;
  /** Sessions open now. */
  sessions?: () => number;
  /** Event-loop ms spent opening or refusing sessions since the last call. */
  openingWork?: () => number;
}

/** Watches the event loop and the frames and says whether a new session may be taken. */
export class OverloadGuard {
  readonly options: Readonly<OverloadOptions>;
  readonly #policy: AdmissionPolicy;
  readonly #histogram: ReturnType<typeof monitorEventLoopDelay> | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #onChange: (shedding: boolean, reading: LoadReading) => void;
  readonly #frames: FrameLateness | undefined;
  readonly #sessions: () => number;
  readonly #openingWork: () => number;
  #elu: EventLoopUtilization;
  #cpu = process.cpuUsage();
  #at = performance.now();
  #windows = 0;
  #sessionsAtStart = 0;
  /** Sessions admitted whose upgrade is still under way (not yet in `sessions()`). */
  #opening = 0;
  /** The first window also holds the start-up's long turns (module loading, listen): not load. */
  #warm = false;
  #last: LoadReading = {
    lagP99Ms: 0,
    utilization: 0,
    cpuCores: 0,
    frameP99Ms: 0,
    frames: 0,
    sessions: 0,
    openingBusy: 0,
  };

  /**
   * @param onChange called when shedding starts or stops (logs, metrics).
   * @example
   * const guard = new OverloadGuard({ lagMs: 50 }, (on) => console.log(on ? 'shedding' : 'accepting'));
   * if (guard.admit() !== undefined) refuseNewSession();
   * else try { openSession(); } finally { guard.settle(); }
   */
  constructor(
    options: Partial<OverloadOptions> = {},
    onChange: (shedding: boolean, reading: LoadReading) => void = () => undefined,
    sources: GuardSources = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_OVERLOAD, ...options });
    this.#policy = new AdmissionPolicy(this.options);
    this.#onChange = onChange;
    this.#frames = sources.frames;
    this.#sessions = sources.sessions ?? (() => 0);
    this.#openingWork = sources.openingWork ?? (() => 0);
    this.#elu = performance.eventLoopUtilization();
    if (!this.enabled) return;
    this.#histogram = monitorEventLoopDelay({ resolution: 10 });
    this.#histogram.enable();
    this.#timer = setInterval(() => this.#sample(), this.options.windowMs);
    this.#timer.unref();
  }

  /**
   * False when the event-loop thresholds are both 0: the node never refuses for load, by the
   * frame-lateness and capacity rules neither (one switch turns every rule off, as it always did).
   */
  get enabled(): boolean {
    return this.options.lagMs > 0 || this.options.busyPercent > 0;
  }

  /** True while new sessions are refused because the node was late (the shedding rule). */
  get shedding(): boolean {
    return this.#policy.shedding;
  }

  /** Sessions the node is estimated to hold; Infinity while not estimated. */
  get capacity(): number {
    return this.#policy.capacity;
  }

  /** True while a new session would be refused (shedding, or at the estimated capacity). */
  get refusing(): boolean {
    return this.#policy.admit(this.#sessions() + this.#opening) !== undefined;
  }

  /**
   * Whether to take one more session: undefined to take it (then call {@link settle} once its
   * upgrade is over, however it ended), else why not.
   */
  admit(): Refusal {
    const refusal = this.#policy.admit(this.#sessions() + this.#opening);
    if (refusal === undefined) this.#opening++;
    return refusal;
  }

  /** An admitted session's upgrade is over: it is counted in `sessions()` now, or never will be. */
  settle(): void {
    if (this.#opening > 0) this.#opening--;
  }

  /** Windows measured so far. */
  get windows(): number {
    return this.#windows;
  }

  /** The last window's measurements. */
  get reading(): LoadReading {
    return this.#last;
  }

  /** Why the node refuses, for /readyz and the refusal's log line. */
  describe(): string {
    const { lagP99Ms, utilization, cpuCores, frameP99Ms } = this.#last;
    const o = this.options;
    const capacity = this.capacity;
    return (
      `event loop p99 lateness ${lagP99Ms.toFixed(1)} ms (threshold ${o.lagMs || 'off'}), busy ${(utilization * 100).toFixed(0)} % (threshold ${o.busyPercent || 'off'}), ` +
      `frame p99 lateness ${frameP99Ms.toFixed(0)} ms (threshold ${o.frameLateMs || 'off'}), CPU ${cpuCores.toFixed(2)} cores, ` +
      `${this.#sessions()} sessions (estimated capacity ${Number.isFinite(capacity) ? capacity : 'not measured'})`
    );
  }

  close(): void {
    clearInterval(this.#timer);
    this.#histogram?.disable();
  }

  #sample(): void {
    const histogram = this.#histogram!;
    // Delays are recorded in ns beyond the timer's resolution; an empty window (the timer never
    // fired, i.e. one turn longer than the window) counts as the whole window late.
    const lagP99Ms = histogram.count > 0 ? histogram.percentile(99) / 1e6 : this.options.windowMs;
    histogram.reset();
    const now = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(now, this.#elu).utilization;
    this.#elu = now;
    const at = performance.now();
    const cpu = process.cpuUsage(this.#cpu);
    const elapsed = Math.max(1, at - this.#at);
    const cpuCores = (cpu.user + cpu.system) / 1000 / elapsed;
    const openingBusy = Math.min(1, this.#openingWork() / elapsed);
    this.#cpu = process.cpuUsage();
    this.#at = at;
    const frames = this.#frames?.takeWindow();
    const sessionsNow = this.#sessions();
    const sessions = (this.#sessionsAtStart + sessionsNow) / 2;
    this.#sessionsAtStart = sessionsNow;
    this.#windows++;
    this.#last = {
      lagP99Ms,
      utilization,
      cpuCores,
      frameP99Ms: frames?.p99Ms ?? 0,
      frames: frames?.frames ?? 0,
      sessions,
      openingBusy,
    };
    if (!this.#warm) {
      this.#warm = true;
      return;
    }
    if (this.#policy.window(this.#last)) this.#onChange(this.#policy.shedding, this.#last);
  }
}
