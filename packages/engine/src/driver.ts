/**
 * The streaming driver: PCM chunks in, 25 fps drive frames out, in order, each as soon as its audio
 * plus the lookahead has arrived. Output depends only on the input samples and the seed, never on
 * how the input was chunked.
 */
import {
  AvatarError,
  type DriveFrame,
  FPS,
  FRAME_LAYOUT,
  frameCountForSamples,
  isSupportedSampleRate,
  SUPPORTED_SAMPLE_RATES,
  VISEMES,
} from '@avatar-drive/core';
import { type FrameAcoustics, FrameAnimator } from './animator.js';
import { HOP_MS, HOPS_PER_FRAME } from './features.js';
import { newDriveFrame } from './frame-slab.js';
import { createDriverFrontEnd, type ScaledAnalysisFrontEnd } from './front-end.js';
import { type EngineBackend, type HopAnalysis, JsHopAnalysis } from './hop-analysis.js';
import { type ModelWeights, parseModelWeights } from './model.js';
import { wasmUnavailableReason } from './wasm/runtime.js';
import { WasmHopAnalysis } from './wasm/wasm-analysis.js';
import { defaultModelWeights } from './weights.js';

/** Default lookahead past the end of a frame, in ms (latency = 40 ms frame + lookahead = 60 ms). */
export const DEFAULT_LOOKAHEAD_MS = 20;
/** Largest accepted lookahead, in ms. */
export const MAX_LOOKAHEAD_MS = 200;

/** Options of {@link createDriver}. */
export interface DriverOptions {
  /** Input sample rate: one of SUPPORTED_SAMPLE_RATES (8000, 16000, 22050, 24000, 32000, 44100, 48000). */
  sampleRate: number;
  /**
   * Audio the driver waits for past the end of a frame before emitting it, in ms (0..200, rounded
   * down to the 20 ms analysis hop; default 20). More lookahead adds latency; below 20 ms the model sees less future
   * and gets less accurate.
   */
  lookaheadMs?: number;
  /** Seed of the head-motion, blink and gaze randomness (default 0). Same seed + same audio = same frames. */
  seed?: number;
  /** Custom weights: a weights file's bytes or parsed weights. Default: the bundled model. */
  weights?: Uint8Array | ModelWeights;
  /**
   * Where the analysis (features, FFT, model, pitch) runs: `'wasm'`, the engine's WebAssembly SIMD
   * module; `'js'`, plain TypeScript; `'auto'` (default), WebAssembly when this runtime and build
   * have it, else TypeScript. Both give the same frames within a tested tolerance (see the README).
   * Drivers on WebAssembly share one module instance; call {@link Driver.close} when done with one.
   */
  backend?: 'auto' | EngineBackend;
}

/** A streaming audio → drive-frame converter for one stream of utterances. */
export interface Driver {
  /** The input sample rate. */
  readonly sampleRate: number;
  /** The effective lookahead in ms (after rounding down to 20 ms). */
  readonly lookaheadMs: number;
  /**
   * Algorithmic latency in ms: frame length (40 ms) + lookahead. At 44.1/48 kHz the analysis hops run
   * 0.25 ms early, so the input decimator's delay adds nothing.
   */
  readonly latencyMs: number;
  /**
   * Feeds mono s16 PCM of the current utterance (any length, including 0) and returns the frames
   * that became complete, in order.
   */
  push(pcm: Int16Array): DriveFrame[];
  /**
   * Ends the utterance: returns the remaining frames (the last one may cover a partial frame of
   * audio), then starts a new utterance at frame 0. Speaker adaptation (level, noise floor, channel)
   * carries over to the next utterance; call {@link reset} to forget it too.
   */
  end(): DriveFrame[];
  /** Drops all buffered audio and adaptation: the next push starts from scratch. */
  reset(): void;
  /**
   * Hands frames this driver returned back to it once the caller is done with them (encoded and
   * sent, or copied): later frames are written into them instead of newly allocated ones, which
   * saves eight typed arrays per frame (at hundreds of sessions on one thread, allocating them was
   * a measurable share of the engine's cost). The caller must not read or keep a frame after
   * recycling it. Optional: frames never recycled are garbage-collected as usual. Frames without
   * the rig's layout, and any beyond a few spare ones, are ignored.
   */
  recycle(frames: readonly DriveFrame[]): void;
  /** Which implementation runs the analysis (see {@link DriverOptions.backend}). */
  readonly backend: EngineBackend;
  /**
   * Frees the driver's state in the shared WebAssembly memory (a collected driver frees it too, but
   * later). The driver cannot be used afterwards. Idempotent; a no-op on the TypeScript backend.
   */
  close(): void;
}

/**
 * Creates a streaming driver.
 *
 * @throws AvatarError `unsupportedSampleRate` when `sampleRate` is not a supported rate;
 *   `invalidRequest` for a bad lookahead, seed or weights file.
 * @example
 * ```ts
 * const driver = createDriver({ sampleRate: 16000 });
 * for (const chunk of chunks) render(driver.push(chunk));
 * render(driver.end());
 * ```
 */
export function createDriver(options: DriverOptions): Driver {
  const { sampleRate } = options;
  if (!isSupportedSampleRate(sampleRate)) {
    throw new AvatarError(
      'unsupportedSampleRate',
      `Sample rate ${String(sampleRate)} is not supported. Use one of ${SUPPORTED_SAMPLE_RATES.join(', ')} Hz (resample your audio first).`,
    );
  }
  const lookaheadMs = options.lookaheadMs ?? DEFAULT_LOOKAHEAD_MS;
  if (
    typeof lookaheadMs !== 'number' ||
    !Number.isFinite(lookaheadMs) ||
    lookaheadMs < 0 ||
    lookaheadMs > MAX_LOOKAHEAD_MS
  ) {
    throw new AvatarError(
      'invalidRequest',
      `lookaheadMs must be a number from 0 to ${MAX_LOOKAHEAD_MS}, got ${String(lookaheadMs)}. Omit it for the default ${DEFAULT_LOOKAHEAD_MS} ms.`,
    );
  }
  const seed = options.seed ?? 0;
  if (typeof seed !== 'number' || !Number.isInteger(seed)) {
    throw new AvatarError('invalidRequest', `seed must be an integer, got ${String(seed)}.`);
  }
  const weights =
    options.weights === undefined
      ? defaultModelWeights()
      : options.weights instanceof Uint8Array
        ? parseModelWeights(options.weights)
        : options.weights;
  const backend = options.backend ?? 'auto';
  if (backend !== 'auto' && backend !== 'wasm' && backend !== 'js') {
    throw new AvatarError(
      'invalidRequest',
      `backend must be 'auto', 'wasm' or 'js', got ${String(backend)}.`,
    );
  }
  const reason = backend === 'js' ? '' : wasmUnavailableReason();
  if (backend === 'wasm' && reason !== '') {
    throw new AvatarError(
      'invalidRequest',
      `The WebAssembly backend is not available: ${reason}. Use backend 'auto' or 'js' to run on TypeScript.`,
    );
  }
  const useWasm = backend !== 'js' && reason === '';
  return new StreamingDriver(sampleRate, Math.floor(lookaheadMs / HOP_MS), seed, weights, useWasm);
}

class StreamingDriver implements Driver {
  readonly sampleRate: number;
  readonly lookaheadMs: number;
  readonly latencyMs: number;
  private readonly lookaheadHops: number;
  readonly backend: EngineBackend;
  private readonly analysis: HopAnalysis;
  private readonly animator: FrameAnimator;
  private readonly onHop = (): void => this.hopDone();
  private closed = false;
  private frontEnd: ScaledAnalysisFrontEnd;
  /** Analysis samples per 25 fps frame. */
  private readonly frameSamples: number;
  /** Analysis samples the hop grid runs early (the front end's leadSamples). */
  private readonly lead: number;
  private readonly silentHop: Float32Array;
  private inputSamples = 0;
  private nextFrame = 0;
  /** Next frame whose posteriors are to be computed (runs ahead of nextFrame by the future frames). */
  private nextPosterior = 0;
  /** Hops past a frame's last hop that its model input reads: the model's lookahead, capped by ours. */
  private readonly inputLookahead: number;
  /** Whole frames of lookahead beyond the model's: used to anticipate the next mouth shape. */
  private readonly futureFrames: number;
  private readonly posteriors = new Float32Array(FRAME_RING * VISEMES.length);
  private readonly acoustics: FrameAcoustics[] = Array.from({ length: FRAME_RING }, () => ({
    energy: 0,
    level: 0,
    noiseFloor: 0,
    f0: 0,
  }));
  /** Per ring slot: the view of its posteriors, and the `upcoming` argument of the animator (made once, not per frame). */
  private readonly posteriorViews: Float32Array[] = Array.from({ length: FRAME_RING }, (_, slot) =>
    this.posteriors.subarray(slot * VISEMES.length, (slot + 1) * VISEMES.length),
  );
  private readonly upcoming = Array.from({ length: FRAME_RING }, (_, slot) => ({
    posteriors: this.posteriorViews[slot]!,
    acoustics: this.acoustics[slot]!,
  }));
  private out: DriveFrame[] = [];
  /** Frames handed back by {@link recycle}, written again by the next emitted frames. */
  private readonly spare: DriveFrame[] = [];

  constructor(sampleRate: number, lookaheadHops: number, seed: number, weights: ModelWeights, wasm: boolean) {
    this.sampleRate = sampleRate;
    this.lookaheadHops = lookaheadHops;
    this.lookaheadMs = lookaheadHops * HOP_MS;
    const modelLookahead = Math.max(0, ...weights.header.context.map(([, to]) => to - (HOPS_PER_FRAME - 1)));
    this.inputLookahead = Math.min(lookaheadHops, modelLookahead);
    this.futureFrames = Math.max(0, Math.floor((lookaheadHops - modelLookahead) / HOPS_PER_FRAME));
    this.frontEnd = createDriverFrontEnd(sampleRate);
    const rate = this.frontEnd.analysisRate;
    const scale = this.frontEnd.sampleScale;
    this.frameSamples = rate / FPS;
    this.lead = this.frontEnd.leadSamples;
    const analysisOptions = { inputRate: sampleRate, rate, sampleScale: scale, lead: this.lead, weights };
    this.analysis = wasm ? new WasmHopAnalysis(analysisOptions) : new JsHopAnalysis(analysisOptions);
    this.backend = this.analysis.backend;
    this.silentHop = new Float32Array(this.analysis.hop);
    this.animator = new FrameAnimator(seed);
    // The hops run `lead` analysis samples early, which covers the decimator's delay (see
    // leadSamples). A hop's last sample is one input before its boundary, hence the − 1.
    const decimation = sampleRate / rate;
    const frontEndSamples = Math.max(0, this.frontEnd.latencySamples - 1 - this.lead * decimation);
    this.latencyMs = 1000 / FPS + this.lookaheadMs + (frontEndSamples / sampleRate) * 1000;
  }

  push(pcm: Int16Array): DriveFrame[] {
    if (this.closed) throw closedError();
    if (!(pcm instanceof Int16Array)) {
      throw new AvatarError('invalidAudio', 'push() takes mono s16 PCM as an Int16Array.');
    }
    this.inputSamples += pcm.length;
    // An analysis with its own front end takes the input PCM as it is.
    if (this.analysis.feedInput) this.analysis.feedInput(pcm, this.onHop);
    else this.feed(this.frontEnd.push(pcm));
    return this.take();
  }

  end(): DriveFrame[] {
    if (this.closed) throw closedError();
    if (this.analysis.flushInput) this.analysis.flushInput(this.onHop);
    else this.feed(this.frontEnd.flush());
    const frames = frameCountForSamples(this.inputSamples, this.sampleRate);
    // Pad with silence until the last frame's lookahead is there.
    const neededHops = frames * HOPS_PER_FRAME + this.lookaheadHops;
    while (this.nextFrame < frames && this.analysis.count < neededHops) this.feed(this.silentHop);
    const out = this.take();
    // The last partial frame may have been emitted by padding; drop frames past the audio.
    const kept = out.filter((f) => f.index < frames);
    this.startUtterance(false);
    return kept;
  }

  reset(): void {
    if (this.closed) throw closedError();
    this.startUtterance(true);
  }

  recycle(frames: readonly DriveFrame[]): void {
    const spare = this.spare;
    for (let i = 0; i < frames.length && spare.length < MAX_SPARE_FRAMES; i++) {
      const frame = frames[i]!;
      // A frame handed back twice would be written as two frames at once.
      if (hasFrameLayout(frame) && !spare.includes(frame)) spare.push(frame);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.analysis.close();
  }

  private startUtterance(full: boolean): void {
    this.inputSamples = 0;
    this.nextFrame = 0;
    this.nextPosterior = 0;
    this.analysis.restart(full);
    this.out = [];
    // An analysis with its own front end restarts it itself (and never reads this one's buffers).
    if (!this.analysis.feedInput) this.frontEnd = createDriverFrontEnd(this.sampleRate);
    if (full) this.animator.reset();
  }

  /** Feeds analysis-rate samples to the analysis, which calls back after each hop. */
  private feed(samples: Float32Array, length = samples.length): void {
    this.analysis.feed(samples, length, this.onHop);
  }

  private take(): DriveFrame[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private hopDone(): void {
    const count = this.analysis.count;
    // Posteriors of frame j once its model input is complete (hop 2j + 1 + model lookahead)...
    while (count >= (this.nextPosterior + 1) * HOPS_PER_FRAME + this.inputLookahead) {
      this.analyse(this.nextPosterior);
      this.nextPosterior++;
    }
    // ...and frame k itself once hop 2k + 1 + lookahead is there (frames k+1..k+F are analysed by then).
    while (count >= (this.nextFrame + 1) * HOPS_PER_FRAME + this.lookaheadHops) {
      this.out.push(this.emit(this.nextFrame));
      this.nextFrame++;
    }
  }

  /** Runs the model and gathers the acoustics of frame `j` into the per-frame rings. */
  private analyse(j: number): void {
    const base = j * HOPS_PER_FRAME;
    const slot = j % FRAME_RING;
    this.analysis.frame(
      base,
      HOPS_PER_FRAME,
      base + HOPS_PER_FRAME - 1 + this.inputLookahead,
      (j + 1) * this.frameSamples - this.lead,
      this.acoustics[slot]!,
      this.posteriorViews[slot]!,
    );
  }

  private emit(k: number): DriveFrame {
    const slot = k % FRAME_RING;
    const next = (k + 1) % FRAME_RING;
    const upcoming = this.futureFrames > 0 ? this.upcoming[next]! : null;
    const frame = this.spare.pop();
    if (frame) clearDriveFrame(frame, k);
    return this.animator.frame(
      frame ?? newDriveFrame(k),
      this.posteriorViews[slot]!,
      this.acoustics[slot]!,
      upcoming,
    );
  }
}

/** Spare frames a driver keeps for reuse: one engine call yields at most a few in real time. */
const MAX_SPARE_FRAMES = 8;

/** True when `frame` has every field with the rig's length (a frame a driver could have made). */
function hasFrameLayout(frame: DriveFrame): boolean {
  return (
    frame !== null &&
    typeof frame === 'object' &&
    frame.translation?.length === FRAME_LAYOUT.translation &&
    frame.rotation?.length === FRAME_LAYOUT.rotation &&
    frame.neckPose?.length === FRAME_LAYOUT.neckPose &&
    frame.jawPose?.length === FRAME_LAYOUT.jawPose &&
    frame.eyePose?.length === FRAME_LAYOUT.eyePose &&
    frame.eyeLid?.length === FRAME_LAYOUT.eyeLid &&
    frame.expression?.length === FRAME_LAYOUT.expression &&
    frame.visemes?.length === FRAME_LAYOUT.visemes &&
    frame.expression instanceof Float32Array
  );
}

/** Makes a recycled frame what core's createDriveFrame would return for `index` (all zeros). */
function clearDriveFrame(frame: DriveFrame, index: number): void {
  frame.index = index;
  zero(frame.translation);
  zero(frame.rotation);
  zero(frame.neckPose);
  zero(frame.jawPose);
  zero(frame.eyePose);
  zero(frame.eyeLid);
  zero(frame.expression);
  zero(frame.visemes);
}

/** A loop, not `fill(0)`: for arrays this small the builtin's call costs more than the stores. */
function zero(values: Float32Array): void {
  for (let k = 0; k < values.length; k++) values[k] = 0;
}

function closedError(): AvatarError {
  return new AvatarError('invalidRequest', 'This driver was closed; create a new one with createDriver().');
}

/** Frames of posteriors and acoustics kept (current + future + a margin). */
const FRAME_RING = 8;
