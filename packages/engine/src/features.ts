/**
 * Streaming acoustic features at the analysis rate (16 kHz): one feature vector per 20 ms hop.
 *
 * Per hop: 20 log-mel bands as a spectral *shape* (band energy minus frame energy, so gain does not
 * matter), corrected by a running per-band channel mean (so the microphone does not matter), plus
 * frame energy relative to a speech-level tracker and to a noise-floor tracker, and the
 * zero-crossing rate. Everything is causal; the trackers warm up from the first hop.
 */
import { RealFft } from './fft.js';

/** The rate every input is resampled to before analysis. */
export const ANALYSIS_RATE = 16000;
/** Samples per hop at the analysis rate (20 ms). */
export const HOP = 320;
/** Analysis window length in samples (25 ms, Hann). */
export const WINDOW = 400;
/**
 * FFT length. The windowed frame is folded (time-aliased) to this length first: the FFT of the
 * folded frame samples the full window's spectrum at 62.5 Hz spacing, at the cost of a short FFT.
 */
export const FFT_SIZE = 256;
/** Hops per 25 fps drive frame. */
export const HOPS_PER_FRAME = 2;
/** Number of mel bands. */
export const MEL_BANDS = 20;
/** Values per feature vector: mel shape, level, SNR, zero-crossing rate. */
export const FEATURE_DIM = MEL_BANDS + 3;

const MEL_LOW_HZ = 100;
const MEL_HIGH_HZ = 7600;
/** ln power of a full-scale-normalised signal near the int16 quantisation floor. */
const POWER_FLOOR = 1e-10;
/** Hops of speech the channel mean needs before it trusts itself over its prior. */
const CHANNEL_PRIOR_HOPS = 50;
const CHANNEL_MIN_RATE = 0.006;

/** Acoustic side information for animation (not fed to the model). */
export interface HopAcoustics {
  /** ln mean-square energy of the hop's window. */
  energy: number;
  /** Running speech level (ln), a peak follower with slow release. */
  level: number;
  /** Running noise floor (ln), a minimum follower with slow rise. */
  noiseFloor: number;
}

function hzToMel(hz: number): number {
  return 2595 * Math.log10(1 + hz / 700);
}
function melToHz(mel: number): number {
  return 700 * (10 ** (mel / 2595) - 1);
}

/** Triangular mel filters as sparse rows over the power bins. */
function melFilters(bins: number): { start: Int32Array; weights: Float32Array[] } {
  const start = new Int32Array(MEL_BANDS);
  const weights: Float32Array[] = [];
  const lo = hzToMel(MEL_LOW_HZ);
  const hi = hzToMel(MEL_HIGH_HZ);
  const edges: number[] = [];
  for (let i = 0; i < MEL_BANDS + 2; i++) edges.push(melToHz(lo + ((hi - lo) * i) / (MEL_BANDS + 1)));
  const binHz = ANALYSIS_RATE / 2 / (bins - 1);
  for (let b = 0; b < MEL_BANDS; b++) {
    const f0 = edges[b]!;
    const f1 = edges[b + 1]!;
    const f2 = edges[b + 2]!;
    const first = Math.max(0, Math.floor(f0 / binHz));
    const last = Math.min(bins - 1, Math.ceil(f2 / binHz));
    const row = new Float32Array(last - first + 1);
    let sum = 0;
    for (let k = first; k <= last; k++) {
      const f = k * binHz;
      // Never let a narrow low band fall between two bins: keep the nearest bin at least.
      const w = Math.max(0, Math.min((f - f0) / (f1 - f0), (f2 - f) / (f2 - f1)));
      row[k - first] = w;
      sum += w;
    }
    if (sum === 0) {
      const k = Math.round(f1 / binHz);
      row[k - first] = 1;
      sum = 1;
    }
    for (let i = 0; i < row.length; i++) row[i] = row[i]! / sum;
    start[b] = first;
    weights.push(row);
  }
  return { start, weights };
}

/** Per-band prior of the channel mean of the mel shape; all zeros means "no prior". */
export type ChannelPrior = ArrayLike<number>;

/**
 * Turns a 16 kHz float stream into feature vectors, one per {@link HOP} samples.
 * `push` calls `onHop(features, acoustics)` synchronously for each completed hop; the arrays passed
 * are reused, so copy what you keep.
 */
export class FeatureExtractor {
  private readonly fft = new RealFft(FFT_SIZE);
  /** Last WINDOW samples, written twice (at p and p + WINDOW) so any window is contiguous. */
  private readonly ring = new Float32Array(2 * WINDOW);
  private readonly frame = new Float32Array(FFT_SIZE);
  private readonly power: Float32Array;
  private readonly window = new Float32Array(WINDOW);
  private readonly melStart: Int32Array;
  private readonly melWeights: Float32Array[];
  private readonly prior: Float32Array;
  private readonly channelMean = new Float32Array(MEL_BANDS);
  private readonly features = new Float32Array(FEATURE_DIM);
  private readonly acoustics: HopAcoustics = { energy: 0, level: 0, noiseFloor: 0 };
  private readonly energyScale: number;
  private writePos = 0;
  private sinceHop = 0;
  /** Zero crossings since the last hop, and the sample before. */
  private crossings = 0;
  private lastSample = 0;
  private hops = 0;
  private speechHops = 0;
  private level = 0;
  private noiseFloor = 0;

  constructor(
    private readonly onHop: (features: Float32Array, acoustics: HopAcoustics) => void,
    channelPrior?: ChannelPrior,
  ) {
    this.power = new Float32Array(this.fft.bins);
    let windowPower = 0;
    for (let i = 0; i < WINDOW; i++) {
      const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / WINDOW);
      this.window[i] = w;
      windowPower += w * w;
    }
    // Σ|X|² over the one-sided spectrum ≈ (N/2)·Σ(xw)²: scale so energy reads as mean square.
    this.energyScale = 2 / (FFT_SIZE * windowPower);
    const filters = melFilters(this.fft.bins);
    this.melStart = filters.start;
    this.melWeights = filters.weights;
    this.prior = new Float32Array(MEL_BANDS);
    if (channelPrior) for (let b = 0; b < MEL_BANDS; b++) this.prior[b] = channelPrior[b] ?? 0;
    this.reset();
  }

  /** Forgets all audio and adaptation. */
  reset(): void {
    this.ring.fill(0);
    this.writePos = 0;
    this.sinceHop = 0;
    this.crossings = 0;
    this.lastSample = 0;
    this.hops = 0;
    this.speechHops = 0;
    this.channelMean.set(this.prior);
  }

  /**
   * Starts a new utterance: forgets the audio but keeps the level, noise-floor and channel
   * adaptation (same speaker, same microphone).
   */
  restart(): void {
    this.ring.fill(0);
    this.writePos = 0;
    this.sinceHop = 0;
    this.crossings = 0;
    this.lastSample = 0;
  }

  /** Samples still needed to complete the current hop. */
  samplesToNextHop(): number {
    return HOP - this.sinceHop;
  }

  /** Feeds 16 kHz samples (full scale ±1). */
  push(samples: Float32Array, from = 0, to = samples.length): void {
    const ring = this.ring;
    let pos = this.writePos;
    let since = this.sinceHop;
    let last = this.lastSample;
    for (let i = from; i < to; i++) {
      const x = samples[i]!;
      if (x >= 0 !== last >= 0) this.crossings++;
      last = x;
      ring[pos] = x;
      ring[pos + WINDOW] = x;
      pos = pos + 1 === WINDOW ? 0 : pos + 1;
      if (++since === HOP) {
        this.writePos = pos;
        this.computeHop();
        since = 0;
      }
    }
    this.writePos = pos;
    this.sinceHop = since;
    this.lastSample = last;
  }

  private computeHop(): void {
    const frame = this.frame;
    const buf = this.ring;
    const win = this.window;
    // The window is buf[start, start + WINDOW) (the ring is mirrored, so it is contiguous); samples
    // past FFT_SIZE fold back onto the start.
    const start = this.writePos;
    const folded = WINDOW - FFT_SIZE;
    for (let i = 0; i < folded; i++) {
      frame[i] = buf[start + i]! * win[i]! + buf[start + i + FFT_SIZE]! * win[i + FFT_SIZE]!;
    }
    for (let i = folded; i < FFT_SIZE; i++) frame[i] = buf[start + i]! * win[i]!;
    const crossings = this.crossings;
    this.crossings = 0;
    const power = this.power;
    this.fft.power(frame, power);
    const scale = this.energyScale;
    let total = 0;
    for (let k = 0; k < power.length; k++) total += power[k]!;
    const energy = Math.log(total * scale + POWER_FLOOR);

    // Trackers. The first hop seeds both; the level follows peaks fast and releases slowly,
    // the noise floor follows dips fast and rises slowly (≈2 dB/s).
    if (this.hops === 0) {
      this.level = energy;
      this.noiseFloor = energy;
    } else {
      this.level += (energy > this.level ? 0.6 : 0.004) * (energy - this.level);
      if (energy < this.noiseFloor) this.noiseFloor += 0.5 * (energy - this.noiseFloor);
      else this.noiseFloor += 0.01;
      if (this.level < this.noiseFloor) this.level = this.noiseFloor;
    }
    this.hops++;
    const snr = energy - this.noiseFloor;

    const f = this.features;
    const isSpeech = snr > 2.3;
    let rate = 0;
    if (isSpeech) {
      this.speechHops++;
      rate = Math.max(1 / (this.speechHops + CHANNEL_PRIOR_HOPS), CHANNEL_MIN_RATE);
    }
    const bandFloor = POWER_FLOOR / MEL_BANDS;
    for (let b = 0; b < MEL_BANDS; b++) {
      const row = this.melWeights[b]!;
      const first = this.melStart[b]!;
      let s = 0;
      for (let i = 0; i < row.length; i++) s += row[i]! * power[first + i]!;
      const shape = Math.log(s * scale + bandFloor) - energy;
      if (rate > 0) this.channelMean[b] = this.channelMean[b]! + rate * (shape - this.channelMean[b]!);
      f[b] = shape - this.channelMean[b]!;
    }
    f[MEL_BANDS] = Math.max(-12, energy - this.level);
    f[MEL_BANDS + 1] = Math.min(14, snr);
    f[MEL_BANDS + 2] = crossings / HOP;
    const a = this.acoustics;
    a.energy = energy;
    a.level = this.level;
    a.noiseFloor = this.noiseFloor;
    this.onHop(f, a);
  }
}
