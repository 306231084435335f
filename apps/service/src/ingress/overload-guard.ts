/**
 * Graceful overload: past what this process can keep in real time, new sessions are refused (4503,
 * retryable, token not spent) instead of being let in until every session falls behind.
 *
 * Load is measured on the thread that runs the sessions, over short windows: the event loop's
 * lateness (`monitorEventLoopDelay`: how late a 10 ms timer fires, p99 per window; a session's
 * frames wait exactly as long) and its utilization (`eventLoopUtilization`: the share of wall time
 * the loop was busy, not idle in epoll). Either counts only while the process itself used at least
 * `minCpuCores` of CPU in the window (`process.cpuUsage`): a loop that is late or "busy" while the
 * process gets little CPU waits for cores the machine's other work holds (a preempted callback
 * counts as busy time), and refusing sessions would not make it punctual — on a shared test
 * machine it would only refuse at random. `overWindows` consecutive windows over either threshold
 * start shedding (one stall — a GC, a first engine load, the machine's other work — does not);
 * shedding ends after `calmWindows` consecutive windows under {@link RESUME_RATIO} of both
 * (hysteresis: a node at the edge does not flap between refusing and accepting every second).
 * Established sessions are never touched.
 */
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** When a node counts as overloaded. A threshold of 0 turns its trigger off. */
export interface OverloadOptions {
  /** p99 event-loop lateness (ms) in a window that starts shedding (default 50; 0 = off). */
  lagMs: number;
  /** Event-loop utilization (% of the window busy) that starts shedding (default 95; 0 = off). */
  busyPercent: number;
  /** Length of one measuring window (default 500 ms). */
  windowMs: number;
  /**
   * CPU (in cores, all threads) the process must have used in a window for it to count as
   * overloaded by its own work (default 0.5).
   */
  minCpuCores: number;
  /** Consecutive windows over a threshold that start shedding (default 2: a single stall does not). */
  overWindows: number;
  /** Consecutive calm windows (under {@link RESUME_RATIO} of both thresholds) before new sessions are taken again (default 4). */
  calmWindows: number;
}

export const DEFAULT_OVERLOAD: Readonly<OverloadOptions> = Object.freeze({
  lagMs: 50,
  busyPercent: 95,
  windowMs: 500,
  minCpuCores: 0.5,
  overWindows: 2,
  calmWindows: 4,
});

/** A window is calm below this share of each threshold (the hysteresis band). */
export const RESUME_RATIO = 0.75;

/** What the last window measured. */
export interface LoadReading {
  /** p99 event-loop lateness, ms. */
  lagP99Ms: number;
  /** Event-loop utilization, 0 … 1. */
  utilization: number;
  /** CPU the process used, in cores (user + system, all threads). */
  cpuCores: number;
}

/** Watches the event loop and says whether new sessions should be refused. */
export class OverloadGuard {
  readonly options: Readonly<OverloadOptions>;
  readonly #histogram: ReturnType<typeof monitorEventLoopDelay> | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #onChange: (shedding: boolean, reading: LoadReading) => void;
  #elu: EventLoopUtilization;
  #cpu = process.cpuUsage();
  #at = performance.now();
  #windows = 0;
  #shedding = false;
  #calm = 0;
  #over = 0;
  /** The first window also holds the start-up's long turns (module loading, listen): not load. */
  #warm = false;
  #last: LoadReading = { lagP99Ms: 0, utilization: 0, cpuCores: 0 };

  /**
   * @param onChange called when shedding starts or stops (logs, metrics).
   * @example
   * const guard = new OverloadGuard({ lagMs: 50 }, (on) => console.log(on ? 'shedding' : 'accepting'));
   * if (guard.shedding) refuseNewSession();
   */
  constructor(
    options: Partial<OverloadOptions> = {},
    onChange: (shedding: boolean, reading: LoadReading) => void = () => undefined,
  ) {
    this.options = Object.freeze({ ...DEFAULT_OVERLOAD, ...options });
    this.#onChange = onChange;
    this.#elu = performance.eventLoopUtilization();
    if (!this.enabled) return;
    this.#histogram = monitorEventLoopDelay({ resolution: 10 });
    this.#histogram.enable();
    this.#timer = setInterval(() => this.#sample(), this.options.windowMs);
    this.#timer.unref();
  }

  /** False when both thresholds are 0: the node never sheds. */
  get enabled(): boolean {
    return this.options.lagMs > 0 || this.options.busyPercent > 0;
  }

  /** True while new sessions are refused. */
  get shedding(): boolean {
    return this.#shedding;
  }

  /** Windows measured so far. */
  get windows(): number {
    return this.#windows;
  }

  /** The last window's measurements. */
  get reading(): LoadReading {
    return this.#last;
  }

  /** Why the node sheds, for /readyz and the refusal's log line. */
  describe(): string {
    const { lagP99Ms, utilization, cpuCores } = this.#last;
    return `event loop p99 lateness ${lagP99Ms.toFixed(1)} ms (threshold ${this.options.lagMs || 'off'}), busy ${(utilization * 100).toFixed(0)} % (threshold ${this.options.busyPercent || 'off'}), CPU ${cpuCores.toFixed(2)} cores`;
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
    const cpuCores = (cpu.user + cpu.system) / 1000 / Math.max(1, at - this.#at);
    this.#cpu = process.cpuUsage();
    this.#at = at;
    this.#windows++;
    this.#last = { lagP99Ms, utilization, cpuCores };
    if (!this.#warm) {
      this.#warm = true;
      return;
    }
    const { lagMs, busyPercent, minCpuCores, overWindows, calmWindows } = this.options;
    const over =
      cpuCores >= minCpuCores &&
      ((lagMs > 0 && lagP99Ms > lagMs) || (busyPercent > 0 && utilization * 100 > busyPercent));
    // A window where the process got little CPU is calm too: whatever makes it late is not its sessions.
    const calm =
      cpuCores < minCpuCores * RESUME_RATIO ||
      ((lagMs === 0 || lagP99Ms < lagMs * RESUME_RATIO) &&
        (busyPercent === 0 || utilization * 100 < busyPercent * RESUME_RATIO));
    if (over) {
      this.#calm = 0;
      this.#over++;
      if (!this.#shedding && this.#over >= overWindows) {
        this.#shedding = true;
        this.#onChange(true, this.#last);
      }
      return;
    }
    this.#over = 0;
    if (!this.#shedding) return;
    this.#calm = calm ? this.#calm + 1 : 0;
    if (this.#calm >= calmWindows) {
      this.#shedding = false;
      this.#calm = 0;
      this.#onChange(false, this.#last);
    }
  }
}
