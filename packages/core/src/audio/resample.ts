/**
 * Band-limited sample-rate conversion: a polyphase windowed-sinc (Kaiser) filter.
 *
 * Output sample n sits at input time n·from/to. Its value is the input convolved with a
 * sinc low-pass whose cutoff is 0.95 × the lower rate's Nyquist, windowed by a Kaiser window
 * designed for ~80 dB stop-band attenuation with the transition band 0.9–1.0 × that Nyquist.
 * So the passband is flat to 0.9·Nyquist and anything above the new Nyquist is rejected
 * instead of aliasing. The kernel is centred (no delay): output is time-aligned with input, and
 * the streaming {@link Resampler} holds back only the few samples it still needs.
 */
import { describeValue } from '../describe.js';
import { AvatarError } from '../errors.js';
import { floatToS16 } from './convert.js';
import { besselI0 } from './kaiser.js';

/** Filter quality knobs; the defaults meet 0.5 dB ripple and ≥ 50 dB aliasing rejection. */
export interface ResamplerOptions {
  /** Stop-band attenuation in dB the Kaiser window is designed for (default 80, range 20..160). */
  attenuationDb?: number;
  /** Passband edge as a fraction of the lower rate's Nyquist (default 0.9, range 0.5..0.99). */
  passband?: number;
}

const MAX_RATE = 1_536_000;
/** Cap on stored coefficients; beyond it phases are quantised (error ≤ half a phase step). */
const MAX_TABLE = 1 << 20;
const MAX_PHASES = 4096;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

function checkRate(rate: unknown, name: string): asserts rate is number {
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 1 || rate > MAX_RATE) {
    throw new AvatarError(
      'invalidAudio',
      `${name} must be a whole number of Hz between 1 and ${MAX_RATE}, got ${describeValue(rate)}. Pass the rate your audio was recorded at and the rate you need (e.g. 16000).`,
    );
  }
}

/** The precomputed polyphase kernel for one rate pair. */
interface Kernel {
  /** Upsampling factor L (to / gcd). */
  up: number;
  /** Downsampling factor M (from / gcd). */
  down: number;
  /** Taps per phase; output uses inputs [i - half + 1, i + half]. */
  taps: number;
  half: number;
  phases: number;
  coeffs: Float64Array;
  /**
   * Phase 0 (output on an input sample) as a symmetric kernel folded in half: `centred[k]` weighs
   * inputs centre ± k (k = 0..half), so each pair costs one multiply. Null when not symmetric.
   */
  centred: Float64Array | null;
  /**
   * The phase half-way between two inputs (when there is one), folded likewise: `midway[k]` weighs
   * the inputs k before and k after that point (k = 0..half-1). Null otherwise.
   */
  midway: Float64Array | null;
  /** Index of the midway phase, or -1. */
  midPhase: number;
}

function checkOptions(options: unknown): { attenuation: number; passband: number } {
  if (typeof options !== 'object' || options === null) {
    throw new AvatarError(
      'invalidRequest',
      'Resampler options must be an object like { attenuationDb: 80 }.',
    );
  }
  const { attenuationDb: attenuation = 80, passband = 0.9 } = options as {
    attenuationDb?: unknown;
    passband?: unknown;
  };
  if (typeof attenuation !== 'number' || !(attenuation >= 20 && attenuation <= 160)) {
    throw new AvatarError(
      'invalidRequest',
      `attenuationDb must be a number within 20..160, got ${describeValue(attenuation)}.`,
    );
  }
  if (typeof passband !== 'number' || !(passband >= 0.5 && passband <= 0.99)) {
    throw new AvatarError(
      'invalidRequest',
      `passband must be a number within 0.5..0.99, got ${describeValue(passband)}.`,
    );
  }
  return { attenuation, passband };
}

function designKernel(from: number, to: number, attenuation: number, passband: number): Kernel {
  const g = gcd(from, to);
  const up = to / g;
  const down = from / g;
  // Everything in units of the input sample period. ratio < 1 when downsampling.
  const ratio = Math.min(1, up / down);
  const cutoff = ((1 + passband) / 2) * ratio; // of the input Nyquist; 0.95 by default
  const transition = (1 - passband) * ratio * 0.5; // width in cycles per input sample
  const beta =
    attenuation > 50
      ? 0.1102 * (attenuation - 8.7)
      : attenuation >= 21
        ? 0.5842 * (attenuation - 21) ** 0.4 + 0.07886 * (attenuation - 21)
        : 0;
  const order = Math.ceil((attenuation - 8) / (2.285 * 2 * Math.PI * transition));
  const halfWidth = order / 2; // input samples either side of the centre
  const half = Math.ceil(halfWidth);
  const taps = 2 * half;
  const phases = Math.max(1, Math.min(up, MAX_PHASES, Math.floor(MAX_TABLE / taps)));
  const coeffs = new Float64Array(phases * taps);
  const i0Beta = besselI0(beta);
  for (let q = 0; q < phases; q++) {
    const frac = q / phases;
    let sum = 0;
    for (let t = 0; t < taps; t++) {
      const d = t - half + 1 - frac;
      const u = d / halfWidth;
      if (u <= -1 || u >= 1) continue;
      const x = cutoff * d;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const c = cutoff * sinc * (besselI0(beta * Math.sqrt(1 - u * u)) / i0Beta);
      coeffs[q * taps + t] = c;
      sum += c;
    }
    // Exact unity gain at DC for every phase (no ripple from phase-dependent gain).
    for (let t = 0; t < taps; t++) coeffs[q * taps + t]! /= sum;
  }
  const midPhase = phases % 2 === 0 ? phases / 2 : -1;
  return {
    up,
    down,
    taps,
    half,
    phases,
    coeffs,
    centred: foldCentred(half, coeffs),
    midway: midPhase < 0 ? null : foldMidway(half, coeffs.subarray(midPhase * taps, (midPhase + 1) * taps)),
    midPhase: midPhase,
  };
}

/** Phase 0 folded (see {@link Kernel.centred}), or null if its taps are not exactly symmetric. */
function foldCentred(half: number, coeffs: Float64Array): Float64Array | null {
  // Tap half - 1 is the centre; tap 2·half - 1 (distance half) has no partner on the left.
  const centre = half - 1;
  const folded = new Float64Array(half + 1);
  for (let k = 0; k <= half; k++) folded[k] = coeffs[centre + k]!;
  for (let k = 1; k < half; k++) if (coeffs[centre - k] !== folded[k]) return null;
  return folded;
}

/** The midway phase folded (see {@link Kernel.midway}), or null if not exactly symmetric. */
function foldMidway(half: number, row: Float64Array): Float64Array | null {
  const folded = new Float64Array(half);
  for (let k = 0; k < half; k++) {
    folded[k] = row[half + k]!;
    if (row[half - 1 - k] !== folded[k]) return null;
  }
  return folded;
}

const kernelCache = new Map<string, Kernel>();

function kernelFor(from: number, to: number, options: ResamplerOptions): Kernel {
  const { attenuation, passband } = checkOptions(options);
  const key = `${from}/${to}/${attenuation}/${passband}`;
  let kernel = kernelCache.get(key);
  if (!kernel) {
    kernel = designKernel(from, to, attenuation, passband);
    if (kernelCache.size >= 32) kernelCache.delete(kernelCache.keys().next().value as string);
    kernelCache.set(key, kernel);
  }
  return kernel;
}

/**
 * A streaming resampler: `push()` chunks of any size as they arrive, `flush()` at the end.
 * The concatenated output equals {@link resample} of the whole input, for any chunking.
 *
 * @example
 * ```ts
 * const rs = new Resampler(44100, 16000);
 * for (const chunk of micChunks) send(float32ToInt16(rs.push(chunk)));
 * send(float32ToInt16(rs.flush()));
 * ```
 */
export class Resampler {
  /** Input rate in Hz. */
  readonly fromRate: number;
  /** Output rate in Hz. */
  readonly toRate: number;
  readonly #k: Kernel;
  /** Input samples kept: buf[0] is absolute input index `#bufStart`. */
  #buf: Float64Array = new Float64Array(1024);
  #bufLen = 0;
  #bufStart = 0;
  #inputCount = 0;
  /** Next output: centred on input index `#pos` + `#phase`/L. */
  #pos = 0;
  #phase = 0;
  #outputCount = 0;
  #flushed = false;

  /**
   * @param fromRate input rate, a whole number of Hz.
   * @param toRate output rate, a whole number of Hz (usually one of SUPPORTED_SAMPLE_RATES).
   * @throws AvatarError `invalidAudio` for a rate that is not a positive whole number.
   */
  constructor(fromRate: number, toRate: number, options: ResamplerOptions = {}) {
    checkRate(fromRate, 'fromRate');
    checkRate(toRate, 'toRate');
    this.fromRate = fromRate;
    this.toRate = toRate;
    this.#k = kernelFor(fromRate, toRate, options);
  }

  /**
   * Input samples of look-ahead the centred kernel needs before it can emit an output: the
   * streaming latency is `latencySamples / fromRate` seconds.
   */
  get latencySamples(): number {
    return this.#k.phases === this.#k.up ? this.#k.half : this.#k.half + 1;
  }

  /** Feeds input samples (floats, or s16 which is scaled to -1..1) and returns the output ready so far. */
  push(samples: Float32Array | Int16Array): Float32Array {
    if (this.#flushed) {
      throw new AvatarError(
        'invalidState',
        'This Resampler was flushed; create a new Resampler for the next stream.',
      );
    }
    if (!(samples instanceof Float32Array) && !(samples instanceof Int16Array)) {
      throw new AvatarError('invalidAudio', 'Resampler.push() takes a Float32Array or an Int16Array.');
    }
    this.#append(samples);
    return this.#produce(false);
  }

  /** Returns the remaining output (the input is treated as followed by silence) and ends the stream. */
  flush(): Float32Array {
    if (this.#flushed) return new Float32Array(0);
    this.#flushed = true;
    return this.#produce(true);
  }

  /** {@link push} for s16 in and out: output rounded and clipped to s16. */
  pushInt16(samples: Int16Array): Int16Array {
    return toInt16(this.push(samples));
  }

  /** {@link flush} with s16 output. */
  flushInt16(): Int16Array {
    return toInt16(this.flush());
  }

  #append(samples: Float32Array | Int16Array): void {
    const n = samples.length;
    if (this.#bufLen + n > this.#buf.length) {
      const next = new Float64Array(Math.max(this.#buf.length * 2, this.#bufLen + n));
      next.set(this.#buf.subarray(0, this.#bufLen));
      this.#buf = next;
    }
    const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
    const buf = this.#buf;
    let j = this.#bufLen;
    for (let i = 0; i < n; i++) buf[j++] = samples[i]! * scale;
    this.#bufLen = j;
    this.#inputCount += n;
  }

  #produce(final: boolean): Float32Array {
    const { up, down, taps, half, phases, coeffs, centred, midway, midPhase } = this.#k;
    const wholeStep = Math.floor(down / up);
    const partStep = down % up;
    // Total outputs for the whole stream: those centred before the end of input.
    const total = final ? Math.ceil((this.#inputCount * up) / down) : Number.POSITIVE_INFINITY;
    const buf = this.#buf;
    const start = this.#bufStart;
    const available = this.#inputCount;
    // Hot loop on locals and a preallocated output: at most this many outputs are ready now.
    const bound = Math.min(
      total - this.#outputCount,
      Math.ceil(((available - this.#pos + 1) * up) / down) + 1,
    );
    const out = new Float32Array(Math.max(0, bound));
    let produced = 0;
    let pos = this.#pos;
    let phase = this.#phase;
    const quantised = phases !== up;
    while (produced < bound) {
      // With quantised phases, a phase that rounds up to a whole sample moves the centre on by one.
      let q = quantised ? Math.round((phase * phases) / up) : phase;
      let centre = pos;
      if (q === phases) {
        q = 0;
        centre++;
      }
      if (!final && centre + half >= available) break; // newest input the kernel touches is not here yet
      const first = centre - half + 1;
      const base = q * taps;
      let acc = 0;
      if (first >= 0 && first + taps <= available) {
        const offset = first - start;
        if (q === 0 && centred !== null) {
          // Symmetric pairs around the centre share one multiply.
          const c = offset + half - 1;
          let a1 = centred[half]! * buf[c + half]!;
          let k = 1;
          for (; k + 1 < half; k += 2) {
            acc += centred[k]! * (buf[c - k]! + buf[c + k]!);
            a1 += centred[k + 1]! * (buf[c - k - 1]! + buf[c + k + 1]!);
          }
          for (; k < half; k++) acc += centred[k]! * (buf[c - k]! + buf[c + k]!);
          acc += a1 + centred[0]! * buf[c]!;
        } else if (q === midPhase && midway !== null) {
          // Pairs either side of the half-way point share one multiply.
          const lo = offset + half - 1;
          const hi = offset + half;
          let a1 = 0;
          let k = 0;
          for (; k + 1 < half; k += 2) {
            acc += midway[k]! * (buf[lo - k]! + buf[hi + k]!);
            a1 += midway[k + 1]! * (buf[lo - k - 1]! + buf[hi + k + 1]!);
          }
          for (; k < half; k++) acc += midway[k]! * (buf[lo - k]! + buf[hi + k]!);
          acc += a1;
        } else {
          for (let t = 0; t < taps; t++) acc += buf[offset + t]! * coeffs[base + t]!;
        }
      } else {
        for (let t = 0; t < taps; t++) {
          const idx = first + t;
          if (idx < 0 || idx >= available) continue; // silence before the start and after the end
          acc += buf[idx - start]! * coeffs[base + t]!;
        }
      }
      out[produced++] = acc;
      // Advance by M/L input samples without a division per output.
      pos += wholeStep;
      phase += partStep;
      if (phase >= up) {
        phase -= up;
        pos++;
      }
    }
    this.#pos = pos;
    this.#phase = phase;
    this.#outputCount += produced;
    // Drop input no future output can reach.
    const keepFrom = Math.max(start, Math.min(this.#pos - half, available));
    const drop = keepFrom - start;
    if (drop > 0) {
      buf.copyWithin(0, drop, this.#bufLen);
      this.#bufLen -= drop;
      this.#bufStart = keepFrom;
    }
    return produced === out.length ? out : out.subarray(0, produced);
  }
}

/**
 * Resamples a whole signal with a band-limited (windowed-sinc) filter. Returns the same sample
 * type it was given (s16 output is rounded and clipped). Output length is ⌈n·to/from⌉.
 *
 * @example
 * ```ts
 * const pcm16k = resample(pcm44k, 44100, 16000); // Int16Array in, Int16Array out
 * ```
 * @throws AvatarError `invalidAudio` for a rate that is not a positive whole number.
 */
export function resample<T extends Float32Array | Int16Array>(
  samples: T,
  fromRate: number,
  toRate: number,
  options: ResamplerOptions = {},
): T {
  const isInt = samples instanceof Int16Array;
  if (!isInt && !(samples instanceof Float32Array)) {
    throw new AvatarError(
      'invalidAudio',
      'resample() takes a Float32Array or an Int16Array of mono samples.',
    );
  }
  if (fromRate === toRate) {
    checkRate(fromRate, 'fromRate');
    return samples.slice() as T;
  }
  const rs = new Resampler(fromRate, toRate, options);
  const head = rs.push(samples);
  const tail = rs.flush();
  const all = new Float32Array(head.length + tail.length);
  all.set(head);
  all.set(tail, head.length);
  return (isInt ? toInt16(all) : all) as T;
}

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = floatToS16(samples[i]!);
  return out;
}
