/**
 * The demo page's `window.__demo` hook: what the page exposes for automated checks (apps/e2e reads
 * it) and curious developers (devtools). No imports, so the tests can type it without the page.
 */

/** How the page drives the avatar: through the service (`sdk`), a relay (`host`), or the engine in the page (`local`). */
export type Mode = 'sdk' | 'host' | 'local';

/** What the page exposes on `window.__demo`. */
export interface DemoHook {
  mode: Mode;
  avatarId: string | undefined;
  /** Every state change, in order (consecutive repeats collapsed). */
  connectionStates: string[];
  /** The current view's connection and conversation callbacks as delivered (`connection:connected`, …; repeats collapsed). */
  timeline: string[];
  conversationStates: string[];
  errors: Array<{ code: string; message: string }>;
  /** Output level (RMS of the avatar's voice after the volume), now and the peak since reset. */
  level: number;
  peakLevel: number;
  /**
   * Audio-clock time (the output's `AudioContext.currentTime`) when {@link level} was read: the
   * reading covers the output's last `levelWindowS` seconds before it. Read once per rendered
   * frame, like `jawOpen`.
   */
  levelAt: number | undefined;
  /** Seconds of output one {@link level} reading covers (the analyser's window). */
  levelWindowS: number;
  /**
   * The output's AudioContext state at the last reading (`running`, `suspended`, …), and when that
   * reading was taken (`performance.now()` seconds): an audio clock ({@link levelAt}) that falls
   * behind it stood still (a starved or failed audio device).
   */
  audioState: string | undefined;
  levelReadS: number | undefined;
  /** Rendered frames since the page opened (one per `requestAnimationFrame`); `jawOpen` is read once per frame. */
  frames: number;
  /**
   * The last interrupt from the page's button: the audio-clock time and the frame count then, so
   * a check can wait for a level reading and a rendered frame that come wholly after it.
   */
  lastInterrupt: { audioTime: number | undefined; frame: number } | undefined;
  /** Mouth opening applied to the avatar now (jawOpen influence, 0..1), and the peak since reset. */
  jawOpen: number;
  peakJaw: number;
  /** Last measured audio-to-animation offset (ms). */
  syncOffsetMs: number | undefined;
  /** Bytes the last avatar load downloaded (0 = everything from the cache). */
  downloadedBytes: number | undefined;
  firstRendering: boolean;
  /** Local mode: true once the samples and the engine are loaded (speaking makes no request from then). */
  localReady: boolean;
  /** The region of the current/last SDK session. */
  region: string | undefined;
  /** The loaded avatar's coverage report (`view.avatarCoverage`): format, mouth, counts. */
  coverage: { format: string; mouth: string; visemes: number; arkit: number; missing: string[] } | undefined;
  /**
   * What renders WebGL here (client-web's `detectRenderer()`), and whether the view uses the
   * low-end set: on by default under software rendering, `?lowEnd=0|1` or the toggle overrides.
   */
  rendering: { renderer: string; software: boolean; lowEnd: boolean };
  /** Milliseconds from the page's start to the first frame with the avatar drawn. */
  firstFrameMs: number | undefined;
  /** The id of the last avatar uploaded from this page. */
  uploadedAvatarId: string | undefined;
  /** Gaussians drawn, once a LAM splat avatar is ready (`view.splatCount`); undefined for a mesh. */
  splatCount: number | undefined;
  resetPeak(): void;
  /**
   * Holds the current avatar's mouth at `open` (0..1 on the jawOpen blendshape and the `aa`
   * viseme, head and eyes neutral) instead of what the controller plays, or hands it back to the
   * controller (`undefined`). Checks compare a render at a known pose with one at rest, both held
   * the same way, so they measure the mouth and nothing else. False without a view.
   */
  holdMouth(open: number | undefined): boolean;
}
