/**
 * The driver's per-hop analysis behind one interface, in two implementations that compute the same
 * numbers: the TypeScript path (this file) and the WebAssembly SIMD path (src/wasm/wasm-analysis.ts).
 * Samples go in hop by hop; each completed hop is standardised into a history of hops, the model
 * reads its context from there, and the pitch tracker answers for any recent point.
 */
import { type FrameAcoustics, speechActivity } from './animator.js';
import { FeatureExtractor, type HopAcoustics } from './features.js';
import { HopHistory } from './hop-history.js';
import { MlpRunner, type ModelWeights } from './model.js';
import { PitchTracker } from './pitch.js';

/** Which implementation computes a driver's analysis. */
export type EngineBackend = 'wasm' | 'js';

/** Where a driver's analysis runs and what it keeps per hop. */
export interface HopAnalysis {
  readonly backend: EngineBackend;
  /** Samples per hop at the analysis rate. */
  readonly hop: number;
  /** Hops analysed in this utterance (hop indices 0..count − 1). */
  readonly count: number;
  /**
   * Analyses samples[0, length) (analysis rate), calling `onHop` after each completed hop is in the
   * history (count already includes it).
   */
  feed(samples: Float32Array, length: number, onHop: () => void): void;
  /**
   * Present when the implementation runs the driver's front end itself (s16 at the input rate →
   * analysis rate, as createDriverFrontEnd does): {@link feed} of the input PCM, without the
   * front end's float copy.
   */
  feedInput?(pcm: Int16Array, onHop: () => void): void;
  /** With {@link feedInput}: the front end's held-back output at the end of an utterance (its flush). */
  flushInput?(onHop: () => void): void;
  /**
   * What the animator needs of one 25 fps frame, written into `acoustics` and `posteriors`: the
   * peak ln energy of its `hops` hops from `base` (within the last 64 hops), the level and noise
   * floor at its last hop, the pitch at analysis sample `endSample` (0 unless the frame stands 1.5
   * above the noise floor: pitch only matters for speech), and the model's posteriors reading hops
   * up to `newest` — or silence (1, 0, …) when the frame has no speech activity, since the animator
   * multiplies its speech posteriors by 0 anyway.
   */
  frame(
    base: number,
    hops: number,
    newest: number,
    endSample: number,
    acoustics: FrameAcoustics,
    posteriors: Float32Array,
  ): void;
  /** Starts a new utterance; `full` also forgets the speaker adaptation. */
  restart(full: boolean): void;
  /** Frees what the analysis holds outside the JavaScript heap (a no-op for the TypeScript path). */
  close(): void;
}

/** What both implementations are made from. */
export interface HopAnalysisOptions {
  /** The driver's input rate (the analysis rate, or twice it behind the half-band decimator). */
  inputRate: number;
  rate: number;
  sampleScale: number;
  lead: number;
  weights: ModelWeights;
}

/** The TypeScript path. */
export class JsHopAnalysis implements HopAnalysis {
  readonly backend = 'js';
  readonly hop: number;
  private readonly features: FeatureExtractor;
  private readonly pitch: PitchTracker;
  private readonly history: HopHistory;
  private readonly mlp: MlpRunner;
  private readonly weights: ModelWeights;
  private onHop: () => void = () => {};

  constructor(options: HopAnalysisOptions) {
    const { rate, sampleScale, lead, weights } = options;
    const header = weights.header;
    this.weights = weights;
    this.history = new HopHistory(header.featureMean, header.featureStd, header.projection);
    this.features = new FeatureExtractor(
      (f, a) => this.stored(f, a),
      header.channelPrior,
      rate,
      sampleScale,
      lead,
    );
    this.hop = this.features.hop;
    this.pitch = new PitchTracker(rate, sampleScale);
    this.mlp = new MlpRunner(weights);
  }

  get count(): number {
    return this.history.count;
  }
  /** Hop by hop, so pitch and features stay in step whatever the chunk size. */
  feed(samples: Float32Array, length: number, onHop: () => void): void {
    this.onHop = onHop;
    let from = 0;
    while (from < length) {
      const to = Math.min(length, from + this.features.samplesToNextHop());
      this.pitch.push(samples, from, to);
      this.features.push(samples, from, to);
      from = to;
    }
  }

  private stored(features: Float32Array, acoustics: HopAcoustics): void {
    this.history.push(features, acoustics);
    this.onHop();
  }

  frame(
    base: number,
    hops: number,
    newest: number,
    endSample: number,
    acoustics: FrameAcoustics,
    posteriors: Float32Array,
  ): void {
    const history = this.history;
    let energy = Number.NEGATIVE_INFINITY;
    for (let h = base; h < base + hops; h++) energy = Math.max(energy, history.energy[history.slot(h)]!);
    const last = history.slot(base + hops - 1);
    acoustics.energy = energy;
    acoustics.level = history.level[last]!;
    acoustics.noiseFloor = history.noiseFloor[last]!;
    acoustics.f0 = energy - acoustics.noiseFloor > 1.5 ? this.pitch.f0At(endSample) : 0;
    if (speechActivity(acoustics) > 0) {
      history.assemble(this.mlp.input, base, this.weights.header.context, newest);
      posteriors.set(this.mlp.run());
    } else {
      posteriors.fill(0);
      posteriors[0] = 1;
    }
  }

  restart(full: boolean): void {
    this.history.reset();
    this.pitch.reset();
    if (full) this.features.reset();
    else this.features.restart();
  }

  close(): void {}
}
