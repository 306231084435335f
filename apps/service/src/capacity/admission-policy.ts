/**
 * The overload guard's decisions, apart from its measuring so that they can be tested with made-up
 * readings: from one window's load at a time, whether the node sheds new sessions and how many
 * sessions it estimates it can hold; per new session, whether to take it.
 *
 * Two rules, both counting only windows where the process itself used at least `minCpuCores`
 * (a loop that is late or busy while the process gets little CPU waits for cores the machine's
 * other work holds: refusing would not make it punctual, and on a shared machine would refuse at
 * random).
 *
 * - Shedding (reacts to what users feel): `overWindows` consecutive windows with the frames' p99
 *   lateness, the event loop's p99 lateness or its utilization over their threshold start refusing
 *   every new session; `calmWindows` consecutive windows under {@link RESUME_RATIO} of each end it.
 * - Capacity (refuses before overshooting): each loaded window with enough sessions estimates
 *   what one session costs as the share of the window the event loop was busy (less the timed
 *   work of opening sessions), divided by the sessions open in it (utilization counts the time a
 *   callback waited for a core too, which is what a frame waits, so the estimate includes the
 *   machine's contention); the node holds
 *   `targetBusyPercent` % ÷ that cost sessions, averaged over the last `capacityWindows` such
 *   windows, and refuses a new session while the sessions open plus those being opened reach it.
 *   A window where the process used under ¾ of `minCpuCores` drops the estimate (the process is
 *   nearly idle, or starved by other work: either way its sessions' cost is not measured).
 *   A burst of new sessions is thus stopped at the estimate from the first loaded window on,
 *   instead of the two windows the shedding rule needs to see them late.
 */

/** A window is calm below this share of each threshold (the hysteresis band). */
export const RESUME_RATIO = 0.75;

/** Windows with fewer frames than this do not judge frame lateness (one slow client is not a trend). */
export const MIN_FRAMES = 100;

/** Windows with fewer sessions than this give no capacity estimate (fixed costs would dominate). */
export const MIN_SESSIONS = 10;

/** When a node counts as overloaded, and how full it may get. A threshold of 0 turns its rule off. */
export interface PolicyOptions {
  /** p99 event-loop lateness (ms) in a window that starts shedding (default 50; 0 = off). */
  lagMs: number;
  /** Event-loop utilization (% of the window busy) that starts shedding (default 95; 0 = off). */
  busyPercent: number;
  /** p99 frame lateness (ms, {@link FrameLateness}) in a window that starts shedding (default 30; 0 = off). */
  frameLateMs: number;
  /** Utilization (%) the capacity estimate aims at (default 0 = no capacity estimate; opt-in, see docs/deploy.md). */
  targetBusyPercent: number;
  /**
   * CPU (in cores, all threads) the process must have used in a window for it to count as
   * loaded by its own work (default 0.5).
   */
  minCpuCores: number;
  /** Consecutive windows over a threshold that start shedding (default 2: a single stall does not). */
  overWindows: number;
  /** Consecutive calm windows (under {@link RESUME_RATIO} of every threshold) that end shedding (default 4). */
  calmWindows: number;
  /** Loaded windows the capacity estimate averages (default 3). */
  capacityWindows: number;
}

/** One window's measurements. */
export interface WindowReading {
  /** p99 event-loop lateness, ms. */
  lagP99Ms: number;
  /** Event-loop utilization, 0 … 1. */
  utilization: number;
  /** CPU the process used, in cores (user + system, all threads). */
  cpuCores: number;
  /** p99 lateness of the frames written in the window, ms. */
  frameP99Ms: number;
  /** Frames written in the window. */
  frames: number;
  /** Sessions open over the window (the mean of its start and end). */
  sessions: number;
  /** Share of the window (0 … 1) the event loop spent opening or refusing sessions (timed). */
  openingBusy: number;
}

/** Why a new session is refused, or undefined to take it. */
export type Refusal = 'overloaded' | 'full' | undefined;

export class AdmissionPolicy {
  readonly options: Readonly<PolicyOptions>;
  #shedding = false;
  #over = 0;
  #calm = 0;
  /** The last loaded windows' capacity estimates (sessions), oldest first. */
  readonly #estimates: number[] = [];
  #capacity = Number.POSITIVE_INFINITY;

  constructor(options: PolicyOptions) {
    this.options = Object.freeze({ ...options });
  }

  /** True while every new session is refused (the shedding rule). */
  get shedding(): boolean {
    return this.#shedding;
  }

  /** Sessions the node is estimated to hold at its target utilization; Infinity when not estimated. */
  get capacity(): number {
    return this.#capacity;
  }

  /**
   * Takes one window's reading; returns true when shedding started or stopped with it.
   * @example
   * const policy = new AdmissionPolicy({ ...DEFAULT_OVERLOAD });
   * policy.window({ lagP99Ms: 3, utilization: 0.6, cpuCores: 0.7, frameP99Ms: 8, frames: 5000, sessions: 200, openingBusy: 0 });
   * policy.capacity; // 200 × 0.85 / 0.6 ≈ 283
   */
  window(r: WindowReading): boolean {
    const o = this.options;
    const loaded = r.cpuCores >= o.minCpuCores;
    this.#estimate(r, loaded);
    const busy = r.utilization * 100;
    const judgeFrames = o.frameLateMs > 0 && r.frames >= MIN_FRAMES;
    const over =
      loaded &&
      ((o.lagMs > 0 && r.lagP99Ms > o.lagMs) ||
        (o.busyPercent > 0 && busy > o.busyPercent) ||
        (judgeFrames && r.frameP99Ms > o.frameLateMs));
    // A window where the process got little CPU is calm too: whatever makes it late is not its sessions.
    const calm =
      r.cpuCores < o.minCpuCores * RESUME_RATIO ||
      ((o.lagMs === 0 || r.lagP99Ms < o.lagMs * RESUME_RATIO) &&
        (o.busyPercent === 0 || busy < o.busyPercent * RESUME_RATIO) &&
        (!judgeFrames || r.frameP99Ms < o.frameLateMs * RESUME_RATIO));
    if (over) {
      this.#calm = 0;
      this.#over++;
      if (!this.#shedding && this.#over >= o.overWindows) {
        this.#shedding = true;
        return true;
      }
      return false;
    }
    this.#over = 0;
    if (!this.#shedding) return false;
    this.#calm = calm ? this.#calm + 1 : 0;
    if (this.#calm < o.calmWindows) return false;
    this.#shedding = false;
    this.#calm = 0;
    return true;
  }

  /**
   * Whether to take one more session with `open` sessions open or being opened.
   * @example
   * if (policy.admit(sessions.size + opening) !== undefined) refuseWith4503();
   */
  admit(open: number): Refusal {
    if (this.#shedding) return 'overloaded';
    if (open >= this.#capacity) return 'full';
    return undefined;
  }

  #estimate(r: WindowReading, loaded: boolean): void {
    const { targetBusyPercent, minCpuCores, capacityWindows } = this.options;
    if (targetBusyPercent <= 0) return;
    if (r.cpuCores < minCpuCores * RESUME_RATIO) {
      this.#estimates.length = 0;
      this.#capacity = Number.POSITIVE_INFINITY;
      return;
    }
    // What the open sessions cost is the utilization less the opening work: a burst of new
    // sessions would otherwise read as costly sessions and stop well short of capacity. A window
    // spent mostly opening says too little about streaming to estimate from (not all of an
    // opening's cost is timed: the socket's accept, HTTP parsing, collecting its garbage).
    const streaming = r.utilization - r.openingBusy;
    if (!loaded || r.sessions < MIN_SESSIONS || streaming <= 0 || r.openingBusy > streaming) return;
    this.#estimates.push((r.sessions * targetBusyPercent) / 100 / streaming);
    while (this.#estimates.length > capacityWindows) this.#estimates.shift();
    let sum = 0;
    for (const e of this.#estimates) sum += e;
    this.#capacity = Math.floor(sum / this.#estimates.length);
  }
}
