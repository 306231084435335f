/**
 * Streaming acoustic features: one feature vector per 20 ms hop, at any analysis rate.
 *
 * Per hop: 20 log-mel bands as a spectral *shape* (band energy minus frame energy, so gain does not
 * matter), corrected by a running per-band channel mean (so the microphone does not matter), plus
 * frame energy relative to a speech-level tracker and to a noise-floor tracker, and a spectral
 * zero-crossing rate. Everything is read from the spectrum below 8 kHz and expressed per Hz, so the
 * features mean the same at every analysis rate (8 to 32 kHz, see front-end.ts) and no conversion to
 * 16 kHz is needed. Everything is causal; the trackers warm up from the first hop.
 */
import { RealFft } from './fft.js';
import { FEATURE_BAND_HZ } from './front-end.js';

/** The reference analysis rate: the sizes below ({@link HOP}, {@link WINDOW}, {@link FFT_SIZE}) are at this rate. */
export const ANALYSIS_RATE = 16000;
/** Hop length in ms. */
export const HOP_MS = 20;
/** Samples per hop at the reference rate (20 ms). */
export const HOP = 320;
/** Analysis window length in samples at the reference rate (25 ms, Hann). */
export const WINDOW = 400;
/**
 * FFT length at the reference rate. The windowed frame is folded (time-aliased) to this length first:
 * the FFT of the folded frame samples the full window's spectrum at 62.5 Hz spacing, at the cost of a
 * short FFT. Other rates use the power of two that gives a spacing of at most 62.5 Hz.
 */
export const FFT_SIZE = 256;
/** Hops per 25 fps drive frame. */
export const HOPS_PER_FRAME = 2;
/** Number of mel bands. */
export const MEL_BANDS = 20;
/** Values per feature vector: mel shape, level, SNR, spectral zero-crossing rate. */
export const FEATURE_DIM = MEL_BANDS + 3;

const MEL_LOW_HZ = 100;
const MEL_HIGH_HZ = 7600;
/** Bin spacing (Hz) of the reference analysis: band powers are expressed per bin of this width. */
const REFERENCE_BIN_HZ = ANALYSIS_RATE / FFT_SIZE;
/** ln power of a full-scale-normalised signal near the int16 quantisation floor. */
const POWER_FLOOR = 1e-10;
/** Hops of speech the channel mean needs before it trusts itself over its prior. */
const CHANNEL_PRIOR_HOPS = 50;
const CHANNEL_MIN_RATE = 0.006;
/**
 * The noise floor a session starts from (ln mean square: −60 dBFS), unless its first hop is quieter.
 * Seeding the floor with the first hop instead read speech that starts at sample 0 (as TTS output
 * does) as the background, so the first words were mouthed shut until a pause pulled the floor
 * down. A quiet channel sits below this; a louder background is found by the settling rule below.
 */
export const NOISE_FLOOR_PRIOR = Math.log(1e-6);
/**
 * Hops the session's opening background is judged over (400 ms): if even the quietest of them is
 * louder than the prior, they were a background present from the start, and the floor moves up to
 * that minimum at once instead of climbing at 2 dB/s. Speech from the start dips between
 * syllables and in stop closures well within that time; noise, even babble, keeps its level.
 */
const SETTLE_HOPS = 20;
/** Hops of steady energy that reveal a stationary background sooner (160 ms). */
const STEADY_HOPS = 8;
/**
 * Standard deviation (ln units, 1.5 dB) below which a run of hop energies is steady: white noise in a
 * 25 ms window varies by about 0.5 dB; held vowels move by 2 dB and more.
 */
const STEADY_SD = 0.35;

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

/**
 * Triangular mel filters as sparse rows over the power bins `0..lastBin` of a grid with spacing
 * `binHz`. Each row is normalised by its full triangle's weight, so a band cut off by a low Nyquist
 * (8 kHz input) reads what it would with silence above it.
 */
function melFilters(binHz: number, lastBin: number): { start: Int32Array; weights: Float32Array[] } {
  const start = new Int32Array(MEL_BANDS);
  const weights: Float32Array[] = [];
  const lo = hzToMel(MEL_LOW_HZ);
  const hi = hzToMel(MEL_HIGH_HZ);
  const edges: number[] = [];
  for (let i = 0; i < MEL_BANDS + 2; i++) edges.push(melToHz(lo + ((hi - lo) * i) / (MEL_BANDS + 1)));
  for (let b = 0; b < MEL_BANDS; b++) {
    const f0 = edges[b]!;
    const f1 = edges[b + 1]!;
    const f2 = edges[b + 2]!;
    const first = Math.max(0, Math.floor(f0 / binHz));
    const last = Math.ceil(f2 / binHz);
    const full = new Float64Array(last - first + 1);
    let sum = 0;
    for (let k = first; k <= last; k++) {
      const f = k * binHz;
      const w = Math.max(0, Math.min((f - f0) / (f1 - f0), (f2 - f) / (f2 - f1)));
      full[k - first] = w;
      sum += w;
    }
    if (sum === 0) {
      // Never let a narrow low band fall between two bins: keep the nearest bin at least.
      full[Math.round(f1 / binHz) - first] = 1;
      sum = 1;
    }
    const kept = Math.max(0, Math.min(last, lastBin) - first + 1);
    const row = new Float32Array(kept);
    for (let i = 0; i < kept; i++) row[i] = full[i]! / sum;
    start[b] = first;
    weights.push(row);
  }
  return { start, weights };
}

/** Per-band prior of the channel mean of the mel shape; all zeros means "no prior". */
export type ChannelPrior = ArrayLike<number>;

/** Whether {@link RealFft} takes this length: 2^k or 3·2^k. */
function isFftSize(n: number): boolean {
  const p = n % 3 === 0 ? n / 3 : n;
  return (p & (p - 1)) === 0;
}

/** Samples per hop at an analysis rate. */
export function hopSamples(rate: number): number {
  return Math.round((rate * HOP_MS) / 1000);
}

/**
 * What every extractor at one analysis rate reads but never writes (window, mel rows, transform
 * tables) plus the per-hop scratch (the transform's buffers, power), which `computeHop` fills and consumes in one
 * synchronous call. Shared by all extractors of that rate: a service interleaves hundreds of
 * drivers on one thread, and one copy each (≈ 10 KB at 24 kHz) crowded the CPU caches.
 */
export interface AnalysisTables {
  fft: RealFft;
  lastBin: number;
  power: Float32Array;
  window: Float32Array;
  lagCos: Float32Array;
  melStart: Int32Array;
  melOffset: Int32Array;
  melWeights: Float32Array;
  energyScale: number;
  bandScale: number;
}

const tablesByRate = new Map<string, AnalysisTables>();

/** The shared tables of an analysis rate and sample scale (made once; src/wasm copies them too). */
export function analysisTables(rate: number, sampleScale: number): AnalysisTables {
  const key = `${rate}/${sampleScale}`;
  const cached = tablesByRate.get(key);
  if (cached) return cached;
  const windowLength = Math.round((rate * WINDOW) / ANALYSIS_RATE);
  // The shortest transform (2^k or 3·2^k) whose bins are at most the reference spacing apart.
  let size = 16;
  while (rate / size > REFERENCE_BIN_HZ + 1e-9 || !isFftSize(size)) size++;
  const fft = new RealFft(size);
  const binHz = rate / size;
  const lastBin = Math.min(size / 2, Math.floor(FEATURE_BAND_HZ / binHz + 1e-9));
  const window = new Float32Array(windowLength);
  let windowPower = 0;
  for (let i = 0; i < windowLength; i++) {
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / windowLength);
    window[i] = w;
    windowPower += w * w;
  }
  // The input's scale rides on the window (a power of two: exact, see createDriverFrontEnd).
  if (sampleScale !== 1) for (let i = 0; i < windowLength; i++) window[i] = window[i]! * sampleScale;
  // Σ|X|² over the one-sided spectrum ≈ (N/2)·Σ(xw)²: scale so energy reads as mean square.
  const energyScale = 2 / (size * windowPower);
  const lagCos = new Float32Array(lastBin + 1);
  for (let k = 0; k <= lastBin; k++) lagCos[k] = Math.cos((2 * Math.PI * k * binHz) / ANALYSIS_RATE);
  const filters = melFilters(binHz, lastBin);
  const melOffset = new Int32Array(MEL_BANDS + 1);
  for (let b = 0; b < MEL_BANDS; b++) melOffset[b + 1] = melOffset[b]! + filters.weights[b]!.length;
  const melWeights = new Float32Array(melOffset[MEL_BANDS]!);
  for (let b = 0; b < MEL_BANDS; b++) melWeights.set(filters.weights[b]!, melOffset[b]!);
  const tables: AnalysisTables = {
    fft,
    lastBin,
    power: new Float32Array(fft.bins),
    window,
    lagCos,
    melStart: filters.start,
    melOffset,
    melWeights,
    energyScale,
    bandScale: energyScale * (REFERENCE_BIN_HZ / binHz),
  };
  tablesByRate.set(key, tables);
  return tables;
}

/**
 * Turns a float stream at an analysis rate (8000, 16000, 22050, 24000 or 32000 Hz) into feature
 * vectors, one per 20 ms hop. `push` calls `onHop(features, acoustics)` synchronously for each
 * completed hop; the arrays passed are reused, so copy what you keep. The optional `sampleScale`
 * (default 1) is what pushed samples are multiplied by to read as full scale ±1, e.g. 2^-15 for
 * raw s16 values; powers of two give exactly the features of pre-scaled samples. The optional
 * `lead` (default 0, less than a hop) moves the hop grid that many samples earlier: hop h ends at
 * sample (h + 1)·hop − lead, so a front end's delay need not delay the hops (see
 * AnalysisFrontEnd.leadSamples).
 */
export class FeatureExtractor {
  /** The analysis rate. */
  readonly rate: number;
  /** Samples per hop at {@link rate}. */
  readonly hop: number;
  private readonly windowLength: number;
  private readonly fft: RealFft;
  /** Highest power bin read (≤ 8 kHz). */
  private readonly lastBin: number;
  /** Last window of samples, written twice (at p and p + window) so any window is contiguous. */
  private readonly ring: Float32Array;
  private readonly power: Float32Array;
  private readonly window: Float32Array;
  /** cos(2π f_k / 16 kHz) per bin: the lag-1 autocorrelation weights of the spectral ZCR. */
  private readonly lagCos: Float32Array;
  /** Mel rows flattened: band b weighs bins melStart[b].. with melWeights[melOffset[b]..melOffset[b+1]). */
  private readonly melStart: Int32Array;
  private readonly melOffset: Int32Array;
  private readonly melWeights: Float32Array;
  private readonly prior: Float32Array;
  private readonly channelMean = new Float32Array(MEL_BANDS);
  private readonly features = new Float32Array(FEATURE_DIM);
  private readonly acoustics: HopAcoustics = { energy: 0, level: 0, noiseFloor: 0 };
  /** Power bins → mean square; band powers → power per reference bin. */
  private readonly energyScale: number;
  private readonly bandScale: number;
  /** Samples the hop grid runs ahead of the stream start: the first hop is `lead` samples short. */
  private readonly lead: number;
  private writePos = 0;
  private sinceHop = 0;
  private hops = 0;
  private speechHops = 0;
  /**
   * Whether the noise floor rests on evidence yet: a hop at or below the prior, a steady run, or
   * the settling hops done. Until then a hop louder than the prior may be background, so it does not teach
   * the channel mean (which weighs its first hops most).
   */
  private floorKnown = false;
  private level = 0;
  private noiseFloor = 0;
  /** The energies of the session's last {@link STEADY_HOPS} hops, while it settles (a ring). */
  private readonly recent = new Float32Array(STEADY_HOPS);
  /** The quietest hop energy of the session so far, while it settles. */
  private settleMin = 0;

  constructor(
    private readonly onHop: (features: Float32Array, acoustics: HopAcoustics) => void,
    channelPrior?: ChannelPrior,
    rate: number = ANALYSIS_RATE,
    sampleScale = 1,
    lead = 0,
  ) {
    this.rate = rate;
    this.hop = hopSamples(rate);
    if (!(lead >= 0 && lead < this.hop)) throw new RangeError(`lead ${lead} must be in [0, ${this.hop})`);
    this.lead = lead;
    const t = analysisTables(rate, sampleScale);
    this.windowLength = t.window.length;
    this.fft = t.fft;
    this.lastBin = t.lastBin;
    this.ring = new Float32Array(2 * this.windowLength);
    this.power = t.power;
    this.window = t.window;
    this.energyScale = t.energyScale;
    this.bandScale = t.bandScale;
    this.lagCos = t.lagCos;
    this.melStart = t.melStart;
    this.melOffset = t.melOffset;
    this.melWeights = t.melWeights;
    this.prior = new Float32Array(MEL_BANDS);
    if (channelPrior) for (let b = 0; b < MEL_BANDS; b++) this.prior[b] = channelPrior[b] ?? 0;
    this.reset();
  }

  /** Forgets all audio and adaptation. */
  reset(): void {
    this.restart();
    this.hops = 0;
    this.speechHops = 0;
    this.floorKnown = false;
    this.channelMean.set(this.prior);
  }

  /**
   * Starts a new utterance: forgets the audio but keeps the level, noise-floor and channel
   * adaptation (same speaker, same microphone).
   */
  restart(): void {
    this.ring.fill(0);
    this.writePos = 0;
    this.sinceHop = this.lead;
  }

  /**
   * Whether the noise floor rests on evidence yet (see the settling rules): until then a hop's
   * energy above the floor may be background, and it does not adapt the channel mean.
   */
  get floorSettled(): boolean {
    return this.floorKnown;
  }

  /** Samples still needed to complete the current hop. */
  samplesToNextHop(): number {
    return this.hop - this.sinceHop;
  }

  /** Feeds samples at the analysis rate (full scale ±1, or ±1/sampleScale: see the constructor). */
  push(samples: Float32Array, from = 0, to = samples.length): void {
    const ring = this.ring;
    const length = this.windowLength;
    const hop = this.hop;
    let pos = this.writePos;
    let since = this.sinceHop;
    let i = from;
    while (i < to) {
      // Copy up to the hop end or the ring end, whichever comes first.
      const n = Math.min(to - i, hop - since, length - pos);
      const piece = samples.subarray(i, i + n);
      ring.set(piece, pos);
      ring.set(piece, pos + length);
      i += n;
      since += n;
      pos += n;
      if (pos === length) pos = 0;
      if (since === hop) {
        this.writePos = pos;
        this.computeHop();
        since = 0;
      }
    }
    this.writePos = pos;
    this.sinceHop = since;
  }

  /** Windowed (and folded) sample `i` of the transform's input, rounded to float32. */
  private windowedAt(i: number, folded: number, direct: number): number {
    const buf = this.ring;
    const win = this.window;
    const start = this.writePos;
    const size = this.fft.size;
    if (i < folded) return Math.fround(buf[start + i]! * win[i]! + buf[start + i + size]! * win[i + size]!);
    return i < direct ? Math.fround(buf[start + i]! * win[i]!) : 0;
  }

  /**
   * The session's first {@link SETTLE_HOPS} hops: a background present from the start and louder
   * than the prior lifts the floor to its minimum at once, as soon as {@link STEADY_HOPS} steady
   * hops show it, or at the end of the settling hops when none of them dipped to the floor.
   */
  private settleFloor(energy: number): void {
    const recent = this.recent;
    const h = this.hops;
    recent[h % STEADY_HOPS] = energy;
    this.settleMin = h === 0 ? energy : Math.min(this.settleMin, energy);
    let lift = Number.NEGATIVE_INFINITY;
    if (h + 1 >= STEADY_HOPS) {
      let sum = 0;
      let min = energy;
      for (let i = 0; i < STEADY_HOPS; i++) {
        sum += recent[i]!;
        if (recent[i]! < min) min = recent[i]!;
      }
      const mean = sum / STEADY_HOPS;
      let sq = 0;
      for (let i = 0; i < STEADY_HOPS; i++) sq += (recent[i]! - mean) ** 2;
      if (sq < STEADY_HOPS * STEADY_SD * STEADY_SD) lift = min;
    }
    if (h + 1 === SETTLE_HOPS) lift = Math.max(lift, this.settleMin);
    if (lift > Number.NEGATIVE_INFINITY) {
      this.floorKnown = true;
      if (lift > this.noiseFloor) this.noiseFloor = lift;
    }
  }

  private computeHop(): void {
    const buf = this.ring;
    const win = this.window;
    const size = this.fft.size;
    const length = this.windowLength;
    // The window is buf[start, start + length) (the ring is mirrored, so it is contiguous); samples
    // past the FFT size fold back onto the start.
    const start = this.writePos;
    const folded = Math.max(0, length - size);
    const direct = Math.min(size, length);
    // Windowed samples go straight to the transform's input slots, rounded to float32 as a
    // Float32Array frame would hold them (same values, one pass less).
    const fft = this.fft;
    const re = fft.re;
    const im = fft.im;
    const order = fft.inputOrder;
    const half = size >> 1;
    // Three runs of sample pairs, so the loops carry no per-sample branch: both samples folded,
    // both direct, both past the window (zero). A pair straddling a boundary (odd `folded` or
    // `direct`) goes through `windowedAt`, which does the same arithmetic sample by sample.
    const foldPairs = folded >> 1;
    const directPairs = direct >> 1;
    let n = 0;
    for (; n < foldPairs; n++) {
      const i = start + 2 * n;
      const w = 2 * n;
      const j = order[n]!;
      re[j] = Math.fround(buf[i]! * win[w]! + buf[i + size]! * win[w + size]!);
      im[j] = Math.fround(buf[i + 1]! * win[w + 1]! + buf[i + 1 + size]! * win[w + 1 + size]!);
    }
    if (folded & 1) {
      const j = order[n]!;
      re[j] = this.windowedAt(2 * n, folded, direct);
      im[j] = this.windowedAt(2 * n + 1, folded, direct);
      n++;
    }
    for (; n < directPairs; n++) {
      const i = start + 2 * n;
      const w = 2 * n;
      const j = order[n]!;
      re[j] = Math.fround(buf[i]! * win[w]!);
      im[j] = Math.fround(buf[i + 1]! * win[w + 1]!);
    }
    for (; n < half; n++) {
      const j = order[n]!;
      re[j] = this.windowedAt(2 * n, folded, direct);
      im[j] = this.windowedAt(2 * n + 1, folded, direct);
    }
    const power = this.power;
    const lastBin = this.lastBin;
    fft.powerOfLoaded(power, lastBin);
    const scale = this.energyScale;
    const lagCos = this.lagCos;
    // Two accumulators per sum: a single chain of ~130 dependent adds is latency-bound.
    let total0 = 0;
    let total1 = 0;
    let lagged0 = 0;
    let lagged1 = 0;
    let k = 0;
    for (; k < lastBin; k += 2) {
      const p0 = power[k]!;
      const p1 = power[k + 1]!;
      total0 += p0;
      total1 += p1;
      lagged0 += p0 * lagCos[k]!;
      lagged1 += p1 * lagCos[k + 1]!;
    }
    if (k === lastBin) {
      total0 += power[k]!;
      lagged0 += power[k]! * lagCos[k]!;
    }
    const total = total0 + total1;
    const lagged = lagged0 + lagged1;
    const energy = Math.log(total * scale + POWER_FLOOR);
    // Spectral zero-crossing rate: the expected crossings per 16 kHz sample of a Gaussian signal with
    // this spectrum, acos(ρ₁)/π with ρ₁ its lag-1 autocorrelation (Rice). Silence reads 0.
    const floor = POWER_FLOOR / scale;
    const rho = (lagged + floor) / (total + floor);
    const zcr = Math.acos(Math.min(1, Math.max(-1, rho))) / Math.PI;

    // Trackers. The level follows peaks fast and releases slowly (the first hop seeds it); the
    // noise floor starts at the prior (or the first hop, if quieter), follows dips fast and rises
    // slowly (≈2 dB/s). In the session's first 400 ms a background louder than the prior, present
    // from the start, lifts the floor to its minimum at once (settleFloor).
    if (this.hops === 0) {
      this.level = energy;
      this.noiseFloor = Math.min(energy, NOISE_FLOOR_PRIOR);
    } else {
      this.level += (energy > this.level ? 0.6 : 0.004) * (energy - this.level);
      if (energy < this.noiseFloor) this.noiseFloor += 0.5 * (energy - this.noiseFloor);
      else this.noiseFloor += 0.01;
    }
    if (this.hops < SETTLE_HOPS) this.settleFloor(energy);
    if (this.level < this.noiseFloor) this.level = this.noiseFloor;
    this.hops++;
    const snr = energy - this.noiseFloor;

    const f = this.features;
    if (energy <= NOISE_FLOOR_PRIOR) this.floorKnown = true;
    const isSpeech = snr > 2.3 && this.floorKnown;
    let rate = 0;
    if (isSpeech) {
      this.speechHops++;
      rate = Math.max(1 / (this.speechHops + CHANNEL_PRIOR_HOPS), CHANNEL_MIN_RATE);
    }
    const bandFloor = POWER_FLOOR / MEL_BANDS;
    const bandScale = this.bandScale;
    const channelMean = this.channelMean;
    const melWeights = this.melWeights;
    const melOffset = this.melOffset;
    const melStart = this.melStart;
    for (let b = 0; b < MEL_BANDS; b++) {
      const from = melOffset[b]!;
      const to = melOffset[b + 1]!;
      const shift = melStart[b]! - from;
      // Two accumulators (even and odd bins) halve the add chain.
      let s0 = 0;
      let s1 = 0;
      let i = from;
      for (; i + 1 < to; i += 2) {
        s0 += melWeights[i]! * power[shift + i]!;
        s1 += melWeights[i + 1]! * power[shift + i + 1]!;
      }
      if (i < to) s0 += melWeights[i]! * power[shift + i]!;
      const s = s0 + s1;
      const shape = Math.log(s * bandScale + bandFloor) - energy;
      if (rate > 0) channelMean[b] = channelMean[b]! + rate * (shape - channelMean[b]!);
      f[b] = shape - channelMean[b]!;
    }
    f[MEL_BANDS] = Math.max(-12, energy - this.level);
    f[MEL_BANDS + 1] = Math.min(14, snr);
    f[MEL_BANDS + 2] = zcr;
    const a = this.acoustics;
    a.energy = energy;
    a.level = this.level;
    a.noiseFloor = this.noiseFloor;
    this.onHop(f, a);
  }
}
