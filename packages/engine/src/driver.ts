/**
 * The streaming driver: PCM chunks in, 25 fps drive frames out, in order, each as soon as its audio
 * plus the lookahead has arrived. Output depends only on the input samples and the seed, never on
 * how the input was chunked.
 */
import {
  AvatarError,
  type DriveFrame,
  FPS,
  frameCountForSamples,
  isSupportedSampleRate,
  SUPPORTED_SAMPLE_RATES,
} from '@avatar-drive/core';
import { FrameAnimator } from './animator.js';
import { ANALYSIS_RATE, FeatureExtractor, HOP, HOPS_PER_FRAME, type HopAcoustics } from './features.js';
import { HopHistory } from './hop-history.js';
import { MlpRunner, type ModelWeights, parseModelWeights } from './model.js';
import { PITCH_RATE, PitchTracker } from './pitch.js';
import { createStreamResampler, type StreamResampler } from './resampling.js';
import { defaultModelWeights } from './weights.js';

/** Default lookahead past the end of a frame, in ms (latency = 40 ms frame + lookahead = 60 ms). */
export const DEFAULT_LOOKAHEAD_MS = 20;
/** Largest accepted lookahead, in ms. */
export const MAX_LOOKAHEAD_MS = 200;
const HOP_MS = (HOP / ANALYSIS_RATE) * 1000;

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
}

/** A streaming audio → drive-frame converter for one stream of utterances. */
export interface Driver {
  /** The input sample rate. */
  readonly sampleRate: number;
  /** The effective lookahead in ms (after rounding down to 20 ms). */
  readonly lookaheadMs: number;
  /** Algorithmic latency in ms: frame length (40 ms) + lookahead, plus the resampler's few samples. */
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
  return new StreamingDriver(sampleRate, Math.floor(lookaheadMs / HOP_MS), seed, weights);
}

class StreamingDriver implements Driver {
  readonly sampleRate: number;
  readonly lookaheadMs: number;
  readonly latencyMs: number;
  private readonly lookaheadHops: number;
  private readonly weights: ModelWeights;
  private readonly features: FeatureExtractor;
  private readonly pitch: PitchTracker;
  private readonly history: HopHistory;
  private readonly mlp: MlpRunner;
  private readonly animator: FrameAnimator;
  private resampler: StreamResampler | null;
  private inputSamples = 0;
  private nextFrame = 0;
  private out: DriveFrame[] = [];
  private scratch = new Float32Array(0);

  constructor(sampleRate: number, lookaheadHops: number, seed: number, weights: ModelWeights) {
    this.sampleRate = sampleRate;
    this.lookaheadHops = lookaheadHops;
    this.lookaheadMs = lookaheadHops * HOP_MS;
    this.weights = weights;
    const header = weights.header;
    this.history = new HopHistory(header.featureMean, header.featureStd);
    this.features = new FeatureExtractor((f, a) => this.onHop(f, a), header.channelPrior);
    this.pitch = new PitchTracker();
    this.mlp = new MlpRunner(weights);
    this.animator = new FrameAnimator(seed);
    this.resampler = createStreamResampler(sampleRate, ANALYSIS_RATE);
    const resamplerMs = this.resampler ? (this.resampler.latencySamples / sampleRate) * 1000 : 0;
    this.latencyMs = 1000 / FPS + this.lookaheadMs + resamplerMs;
  }

  push(pcm: Int16Array): DriveFrame[] {
    if (!(pcm instanceof Int16Array)) {
      throw new AvatarError('invalidAudio', 'push() takes mono s16 PCM as an Int16Array.');
    }
    this.inputSamples += pcm.length;
    if (this.resampler) {
      this.feed(this.resampler.push(pcm));
    } else {
      if (this.scratch.length < pcm.length) this.scratch = new Float32Array(pcm.length);
      const s = this.scratch;
      for (let i = 0; i < pcm.length; i++) s[i] = pcm[i]! / 32768;
      this.feed(s, pcm.length);
    }
    return this.take();
  }

  end(): DriveFrame[] {
    if (this.resampler) this.feed(this.resampler.flush());
    const frames = frameCountForSamples(this.inputSamples, this.sampleRate);
    // Pad with silence until the last frame's lookahead is there.
    const neededHops = frames * HOPS_PER_FRAME + this.modelFutureHops();
    const silence = new Float32Array(HOP);
    while (this.nextFrame < frames && this.history.count < neededHops) this.feed(silence);
    const out = this.take();
    // The last partial frame may have been emitted by padding; drop frames past the audio.
    const kept = out.filter((f) => f.index < frames);
    this.startUtterance(false);
    return kept;
  }

  reset(): void {
    this.startUtterance(true);
  }

  private startUtterance(full: boolean): void {
    this.inputSamples = 0;
    this.nextFrame = 0;
    this.history.reset();
    this.pitch.reset();
    this.out = [];
    this.resampler = createStreamResampler(this.sampleRate, ANALYSIS_RATE);
    if (full) {
      this.features.reset();
      this.animator.reset();
    } else {
      this.features.restart();
    }
  }

  /** Hops past the frame's last hop that the model reads (its trained lookahead, capped by ours). */
  private modelFutureHops(): number {
    return this.lookaheadHops;
  }

  /** Feeds 16 kHz samples hop by hop, so pitch and features stay in step whatever the chunk size. */
  private feed(samples: Float32Array, length = samples.length): void {
    let from = 0;
    while (from < length) {
      const to = Math.min(length, from + this.features.samplesToNextHop());
      this.pitch.push(samples, from, to);
      this.features.push(samples, from, to);
      from = to;
    }
  }

  private take(): DriveFrame[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private onHop(features: Float32Array, acoustics: HopAcoustics): void {
    this.history.push(features, acoustics);
    // Frame k needs hops up to 4k + 3 + lookahead.
    while (this.history.count >= (this.nextFrame + 1) * HOPS_PER_FRAME + this.lookaheadHops) {
      this.out.push(this.emit(this.nextFrame));
      this.nextFrame++;
    }
  }

  private emit(k: number): DriveFrame {
    const base = k * HOPS_PER_FRAME;
    const newest = base + HOPS_PER_FRAME - 1 + this.lookaheadHops;
    const history = this.history;
    history.assemble(this.mlp.input, base, this.weights.header.context, newest);
    const posteriors = this.mlp.run();
    let energy = Number.NEGATIVE_INFINITY;
    for (let h = base; h < base + HOPS_PER_FRAME; h++)
      energy = Math.max(energy, history.energy[history.slot(h)]!);
    const last = history.slot(base + HOPS_PER_FRAME - 1);
    const noiseFloor = history.noiseFloor[last]!;
    // Pitch only matters for speech; skip the autocorrelation in silence and noise.
    const f0 = energy - noiseFloor > 1.5 ? this.pitch.f0At(((k + 1) * PITCH_RATE) / FPS) : 0;
    return this.animator.frame(k, posteriors, {
      energy,
      level: history.level[last]!,
      noiseFloor,
      f0,
    });
  }
}
