/**
 * The driver's per-hop analysis behind one interface, in two implementations that compute the same
 * numbers: the TypeScript path (this file) and the WebAssembly SIMD path (src/wasm/wasm-analysis.ts).
 * Samples go in hop by hop; each completed hop is standardised into a history of hops, the model
 * reads its context from there, and the pitch tracker answers for any recent point.
 */
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
  /** Per ring slot ({@link slot}): the hop's ln energy, speech level and noise floor. */
  readonly energy: Float32Array;
  readonly level: Float32Array;
  readonly noiseFloor: Float32Array;
  /** Ring slot of hop `index`, for the last 64 hops. */
  slot(index: number): number;
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
  /** Pitch (Hz, 0 when unvoiced) of the 24 ms ending at analysis sample `endSample`. */
  f0At(endSample: number): number;
  /** The model's posteriors for the frame whose first hop is `base`, reading hops up to `newest`. */
  posteriors(base: number, newest: number): Float32Array;
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
  get energy(): Float32Array {
    return this.history.energy;
  }
  get level(): Float32Array {
    return this.history.level;
  }
  get noiseFloor(): Float32Array {
    return this.history.noiseFloor;
  }

  slot(index: number): number {
    return this.history.slot(index);
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

  f0At(endSample: number): number {
    return this.pitch.f0At(endSample);
  }

  posteriors(base: number, newest: number): Float32Array {
    this.history.assemble(this.mlp.input, base, this.weights.header.context, newest);
    return this.mlp.run();
  }

  restart(full: boolean): void {
    this.history.reset();
    this.pitch.reset();
    if (full) this.features.reset();
    else this.features.restart();
  }

  close(): void {}
}
