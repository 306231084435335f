/**
 * Audio augmentation for the training and dev corpora: pure functions on Float32Array (samples in
 * [-1, 1)), deterministic for a given seed (randomness always comes from an {@link Rng}).
 */
import { besselI0 } from '@avatar-drive/core';
import type { Rng } from './rng.js';

// ---------------------------------------------------------------------------------------------
// Resampling: windowed sinc (Kaiser, β = 8.6), table-driven so any rate pair costs the same.

const ZERO_CROSSINGS = 16;
const TABLE_STEPS = 512; // table points per zero crossing; linear interpolation between them
const KAISER_BETA = 8.6;

let sincTable: Float64Array | undefined;

/** sinc(t)·kaiser(t / ZERO_CROSSINGS) sampled at t = i / TABLE_STEPS, i = 0..ZERO_CROSSINGS·TABLE_STEPS. */
function windowedSincTable(): Float64Array {
  if (sincTable) return sincTable;
  const n = ZERO_CROSSINGS * TABLE_STEPS;
  const table = new Float64Array(n + 2);
  const norm = besselI0(KAISER_BETA);
  for (let i = 0; i <= n; i++) {
    const t = i / TABLE_STEPS;
    const r = t / ZERO_CROSSINGS;
    const w = besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - r * r))) / norm;
    const s = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    table[i] = s * w;
  }
  sincTable = table;
  return table;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Interpolated windowed-sinc value at distance `d` input samples, for a given cutoff. */
function kernel(table: Float64Array, d: number, cutoff: number): number {
  const pos = Math.abs(d) * cutoff * TABLE_STEPS;
  const i = pos | 0;
  if (i >= ZERO_CROSSINGS * TABLE_STEPS) return 0;
  const frac = pos - i;
  return cutoff * (table[i]! + frac * (table[i + 1]! - table[i]!));
}

const polyphaseCache = new Map<string, { phases: Float32Array[]; taps: number; L: number; M: number }>();

/**
 * Polyphase filter bank for the rational ratio L/M: output n reads input samples around n·M/L, and
 * its fractional position takes one of only L values, so every coefficient is computed once.
 */
function polyphase(fromRate: number, toRate: number) {
  const key = `${fromRate}:${toRate}`;
  const cached = polyphaseCache.get(key);
  if (cached) return cached;
  const g = gcd(fromRate, toRate);
  const L = toRate / g;
  const M = fromRate / g;
  const cutoff = 0.92 * Math.min(1, toRate / fromRate);
  const half = Math.ceil(ZERO_CROSSINGS / cutoff);
  const taps = 2 * half;
  const table = windowedSincTable();
  const phases: Float32Array[] = [];
  for (let p = 0; p < L; p++) {
    const frac = p / L;
    const c = new Float32Array(taps);
    // tap j reads input base - half + 1 + j, at distance frac + half - 1 - j from the output point
    for (let j = 0; j < taps; j++) c[j] = kernel(table, frac + half - 1 - j, cutoff);
    phases.push(c);
  }
  const bank = { phases, taps, L, M };
  polyphaseCache.set(key, bank);
  return bank;
}

/**
 * Band-limited resampling between any two integer rates (windowed sinc, Kaiser β = 8.6, 16 zero
 * crossings). The cutoff sits at 0.92 × the lower Nyquist, so going down does not alias.
 */
export function resample(x: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (!(Number.isInteger(fromRate) && Number.isInteger(toRate) && fromRate > 0 && toRate > 0)) {
    throw new RangeError(`resample: rates must be positive integers (${fromRate} → ${toRate})`);
  }
  if (fromRate === toRate) return x.slice();
  const { phases, taps, L, M } = polyphase(fromRate, toRate);
  const half = taps >> 1;
  const outLength = Math.round((x.length * L) / M);
  const out = new Float32Array(outLength);
  const n = x.length;
  for (let i = 0; i < outLength; i++) {
    const num = i * M;
    const base = Math.floor(num / L);
    const c = phases[num - base * L]!;
    const first = base - half + 1;
    let acc = 0;
    if (first >= 0 && first + taps <= n) {
      for (let j = 0; j < taps; j++) acc += x[first + j]! * c[j]!;
    } else {
      for (let j = 0; j < taps; j++) {
        const k = first + j;
        if (k >= 0 && k < n) acc += x[k]! * c[j]!;
      }
    }
    out[i] = acc;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Levels.

/** Mean power of all samples. */
export function power(x: Float32Array): number {
  let acc = 0;
  for (let i = 0; i < x.length; i++) acc += x[i]! * x[i]!;
  return x.length > 0 ? acc / x.length : 0;
}

/**
 * Mean power over the active part of a signal: 10 ms frames within 40 dB of the loudest frame.
 * This is the speech level SNRs refer to, so leading/trailing silence does not change the SNR.
 */
export function activePower(x: Float32Array, sampleRate: number): number {
  const hop = Math.max(1, Math.round(sampleRate * 0.01));
  const frames: number[] = [];
  for (let i = 0; i < x.length; i += hop) {
    let acc = 0;
    const end = Math.min(x.length, i + hop);
    for (let k = i; k < end; k++) acc += x[k]! * x[k]!;
    frames.push(acc / (end - i));
  }
  let max = 0;
  for (const f of frames) if (f > max) max = f;
  if (max === 0) return 0;
  let sum = 0;
  let count = 0;
  for (const f of frames) {
    if (f >= max * 1e-4) {
      sum += f;
      count++;
    }
  }
  return sum / count;
}

/** Multiplies by 10^(db/20). */
export function applyGain(x: Float32Array, db: number): Float32Array {
  const g = 10 ** (db / 20);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i]! * g;
  return out;
}

/** Scales down (never up) so that the peak is at most `peak`, keeping 16-bit output unclipped. */
export function limitPeak(x: Float32Array, peak = 0.98): Float32Array {
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i]!));
  if (max <= peak) return x.slice();
  return applyGain(x, 20 * Math.log10(peak / max));
}

// ---------------------------------------------------------------------------------------------
// Noise.

/** Gaussian white noise, unit variance. */
export function whiteNoise(length: number, rng: Rng): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = rng.normal();
  return out;
}

/** Pink (1/f) noise from white noise through Paul Kellet's filter, scaled to unit power. */
export function pinkNoise(length: number, rng: Rng): Float32Array {
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  let b4 = 0;
  let b5 = 0;
  let b6 = 0;
  for (let i = 0; i < length; i++) {
    const w = rng.normal();
    b0 = 0.99886 * b0 + w * 0.0555179;
    b1 = 0.99332 * b1 + w * 0.0750759;
    b2 = 0.969 * b2 + w * 0.153852;
    b3 = 0.8665 * b3 + w * 0.3104856;
    b4 = 0.55 * b4 + w * 0.5329522;
    b5 = -0.7616 * b5 - w * 0.016898;
    out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
    b6 = w * 0.115926;
  }
  const p = power(out);
  return p > 0 ? applyGain(out, -10 * Math.log10(p)) : out;
}

/**
 * Babble: several talkers at once, each a random stretch of another utterance (looped if short),
 * each normalised to the same active level before summing.
 */
export function babbleNoise(
  length: number,
  sources: readonly Float32Array[],
  sampleRate: number,
  rng: Rng,
  talkers = 4,
): Float32Array {
  const usable = sources.filter((s) => s.length > 0 && activePower(s, sampleRate) > 0);
  if (usable.length === 0) throw new RangeError('babbleNoise: needs at least one non-silent source');
  const out = new Float32Array(length);
  for (let t = 0; t < talkers; t++) {
    const src = rng.pick(usable);
    const g = 1 / Math.sqrt(activePower(src, sampleRate));
    let at = rng.int(0, src.length - 1);
    for (let i = 0; i < length; i++) {
      out[i] = out[i]! + src[at]! * g;
      at = at + 1 === src.length ? 0 : at + 1;
    }
  }
  return out;
}

/**
 * Adds `noise` (looped if shorter) scaled so that activePower(signal) / power(scaled noise) equals
 * `snrDb`. Returns the mixture; the signal is not rescaled.
 */
export function addNoise(
  signal: Float32Array,
  noise: Float32Array,
  snrDb: number,
  sampleRate: number,
): Float32Array {
  if (noise.length === 0) throw new RangeError('addNoise: noise is empty');
  const looped = new Float32Array(signal.length);
  for (let i = 0; i < signal.length; i++) looped[i] = noise[i % noise.length]!;
  const ps = activePower(signal, sampleRate);
  const pn = power(looped);
  const out = signal.slice();
  if (ps === 0 || pn === 0) return out;
  const g = Math.sqrt(ps / (pn * 10 ** (snrDb / 10)));
  for (let i = 0; i < out.length; i++) out[i] = out[i]! + g * looped[i]!;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reverb: convolution with an exponentially decaying noise impulse response.

function fftInPlace(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len >> 1; k++) {
        const a = i + k;
        const b = a + (len >> 1);
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i] = re[i]! / n;
      im[i] = im[i]! / n;
    }
  }
}

/** Linear convolution via FFT, truncated to x.length (the reverb tail past the end is dropped). */
export function convolve(x: Float32Array, h: Float32Array): Float32Array {
  let n = 1;
  while (n < x.length + h.length - 1) n <<= 1;
  const ar = new Float64Array(n);
  const ai = new Float64Array(n);
  const br = new Float64Array(n);
  const bi = new Float64Array(n);
  ar.set(x);
  br.set(h);
  fftInPlace(ar, ai, false);
  fftInPlace(br, bi, false);
  for (let i = 0; i < n; i++) {
    const r = ar[i]! * br[i]! - ai[i]! * bi[i]!;
    ai[i] = ar[i]! * bi[i]! + ai[i]! * br[i]!;
    ar[i] = r;
  }
  fftInPlace(ar, ai, true);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = ar[i]!;
  return out;
}

/**
 * A room impulse response: a unit direct path followed, after a short gap, by Gaussian noise under an
 * exponential envelope that falls 60 dB in `rt60` seconds; `wetDb` sets the reverberant energy
 * relative to the direct path.
 */
export function roomImpulse(sampleRate: number, rt60: number, rng: Rng, wetDb = -6): Float32Array {
  const length = Math.max(1, Math.round(rt60 * sampleRate));
  const h = new Float32Array(length);
  const gap = Math.min(length - 1, Math.round(0.003 * sampleRate));
  const decay = Math.log(1000) / (rt60 * sampleRate); // amplitude e^(-decay·n): -60 dB at rt60
  let tail = 0;
  for (let i = gap + 1; i < length; i++) {
    const v = rng.normal() * Math.exp(-decay * (i - gap));
    h[i] = v;
    tail += v * v;
  }
  const g = tail > 0 ? Math.sqrt(10 ** (wetDb / 10) / tail) : 0;
  for (let i = gap + 1; i < length; i++) h[i] = h[i]! * g;
  h[0] = 1;
  return h;
}

/** Reverberates `x` with {@link roomImpulse}, keeping its active level. */
export function reverb(
  x: Float32Array,
  sampleRate: number,
  rt60: number,
  rng: Rng,
  wetDb = -6,
): Float32Array {
  const wet = convolve(x, roomImpulse(sampleRate, rt60, rng, wetDb));
  const before = activePower(x, sampleRate);
  const after = activePower(wet, sampleRate);
  return after > 0 && before > 0 ? applyGain(wet, 10 * Math.log10(before / after)) : wet;
}

// ---------------------------------------------------------------------------------------------
// Filters and the telephone channel.

/** A biquad section (RBJ cookbook coefficients, a0 normalised to 1). */
export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** Second-order high- or low-pass at `freq` Hz with quality `q`. */
export function biquad(kind: 'lowpass' | 'highpass', freq: number, sampleRate: number, q: number): Biquad {
  const w = (2 * Math.PI * freq) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  const a0 = 1 + alpha;
  const b1 = kind === 'lowpass' ? 1 - cos : -(1 + cos);
  const b0 = kind === 'lowpass' ? (1 - cos) / 2 : (1 + cos) / 2;
  return { b0: b0 / a0, b1: b1 / a0, b2: b0 / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
}

/** Runs `x` through a cascade of biquads (direct form I). */
export function filter(x: Float32Array, sections: readonly Biquad[]): Float32Array {
  let cur = x;
  for (const s of sections) {
    const out = new Float32Array(cur.length);
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    for (let i = 0; i < cur.length; i++) {
      const v = cur[i]!;
      const y = s.b0 * v + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2;
      x2 = x1;
      x1 = v;
      y2 = y1;
      y1 = y;
      out[i] = y;
    }
    cur = out;
  }
  return cur;
}

/** Butterworth Q values of the two sections of a 4th-order filter. */
const BUTTER4_Q = [0.5411961, 1.306563];

/** µ-law (G.711) compression and expansion: the quantisation noise of a digital phone line. */
export function muLaw(x: Float32Array): Float32Array {
  const mu = 255;
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = Math.max(-1, Math.min(1, x[i]!));
    const c = (Math.sign(v) * Math.log1p(mu * Math.abs(v))) / Math.log1p(mu);
    const q = Math.round(c * 127) / 127; // 8-bit code
    out[i] = (Math.sign(q) * ((1 + mu) ** Math.abs(q) - 1)) / mu;
  }
  return out;
}

/**
 * The telephone channel: band-pass (4th-order Butterworth high- and low-pass, by default 300 and
 * 3400 Hz), then 8 kHz sampling and, unless disabled, G.711 µ-law quantisation.
 */
export function telephone(
  x: Float32Array,
  sampleRate: number,
  options: { low?: number; high?: number; muLaw?: boolean } = {},
): { samples: Float32Array; sampleRate: 8000 } {
  const low = options.low ?? 300;
  const high = Math.min(options.high ?? 3400, 3900, sampleRate * 0.45);
  const sections = [
    ...BUTTER4_Q.map((q) => biquad('highpass', low, sampleRate, q)),
    ...BUTTER4_Q.map((q) => biquad('lowpass', high, sampleRate, q)),
  ];
  const band = resample(filter(x, sections), sampleRate, 8000);
  return { samples: options.muLaw === false ? band : muLaw(band), sampleRate: 8000 };
}
