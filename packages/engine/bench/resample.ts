/**
 * Streaming sample-rate conversion for peers that need another input rate: a windowed-sinc interpolator
 * (polyphase table, linear between phases), chunk-size independent. Output stays time-aligned with the
 * input; each output sample waits for {@link RESAMPLE_HOLD_IN_SAMPLES} input samples after it.
 */

const HALF_TAPS = 16; // taps each side of the interpolation point, at the lower of the two rates
const PHASES = 512;
/** Input samples an output sample waits for (when upsampling). */
export const RESAMPLE_HOLD_IN_SAMPLES = HALF_TAPS;

/** Converts a float stream from `inRate` to `outRate`, chunk by chunk. */
export class StreamResampler {
  private readonly step: number; // input samples per output sample
  private readonly half: number; // taps each side, at the input rate
  private readonly table: Float32Array; // (PHASES + 1) rows of 2·half taps
  private readonly history: Float32Array; // the last `width` inputs, stored twice so any window is contiguous
  private readonly width: number;
  private filled = 0; // input samples received
  private next: number; // input position (absolute, in samples) of the next output sample

  constructor(
    readonly inRate: number,
    readonly outRate: number,
  ) {
    this.step = inRate / outRate;
    const scale = Math.max(1, this.step); // downsampling stretches the filter
    this.half = Math.ceil(HALF_TAPS * scale);
    this.width = 2 * this.half;
    const cutoff = 0.45 / scale; // cycles per input sample, under the lower Nyquist
    this.table = new Float32Array((PHASES + 1) * this.width);
    for (let p = 0; p <= PHASES; p++) {
      const frac = p / PHASES;
      for (let j = 0; j < this.width; j++) {
        // tap j sits at input offset (j − half + 1) from the integer position; x is its distance
        const x = j - this.half + 1 - frac;
        const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
        const w = 0.5 + 0.5 * Math.cos((Math.PI * x) / (this.half + 1)); // Hann over the span
        this.table[p * this.width + j] = sinc * w;
      }
    }
    this.history = new Float32Array(2 * this.width);
    // output sample 0 is input time 0 (samples before the stream count as silence)
    this.next = 0;
  }

  /** Converts one chunk; returns the output samples that became computable. */
  process(input: Float32Array): Float32Array {
    const out: number[] = [];
    for (let i = 0; i < input.length; i++) {
      const at = this.filled % this.width;
      this.history[at] = input[i]!;
      this.history[at + this.width] = input[i]!;
      this.filled++;
      // output at position t needs inputs up to floor(t) + half
      while (Math.floor(this.next) + this.half < this.filled) {
        out.push(this.interpolate(this.next));
        this.next += this.step;
      }
    }
    return Float32Array.from(out);
  }

  private interpolate(t: number): number {
    const base = Math.floor(t);
    const pos = (t - base) * PHASES;
    const p = Math.floor(pos);
    const a = pos - p;
    const w = this.width;
    const table = this.table;
    const history = this.history;
    const row0 = p * w;
    const row1 = row0 + w;
    // inputs base − half + 1 … base + half; before the stream they are the buffer's initial zeros
    const start = (((base - this.half + 1) % w) + w) % w;
    let acc = 0;
    for (let j = 0; j < w; j++) {
      acc += (table[row0 + j]! + (table[row1 + j]! - table[row0 + j]!) * a) * history[start + j]!;
    }
    return acc;
  }
}

/** s16 → float in [-1, 1). */
export function toFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i]! / 32768;
  return out;
}
