/**
 * Streaming 2× upsampler (zero insertion + windowed-sinc low-pass), for peers that cannot take 8 kHz
 * input. Causal; its group delay is {@link UPSAMPLE_DELAY_IN_SAMPLES} input samples.
 */

const TAPS = 48; // at the output rate
/** Group delay of the upsampler, in input-rate samples. */
export const UPSAMPLE_DELAY_IN_SAMPLES = (TAPS - 1) / 4;

function designLowPass(): Float32Array {
  const h = new Float32Array(TAPS);
  const mid = (TAPS - 1) / 2;
  const cutoff = 0.45 / 2; // of the output rate: just under the input Nyquist
  for (let i = 0; i < TAPS; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const blackman =
      0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (TAPS - 1));
    h[i] = 2 * sinc * blackman; // ×2 restores the level lost to zero insertion
  }
  return h;
}

const LOW_PASS = designLowPass();

/** Doubles the sample rate of a float stream, chunk by chunk. */
export class Upsampler2x {
  private readonly history = new Float32Array(TAPS);
  private pos = 0;

  /** Upsamples one chunk; returns twice as many samples. */
  process(input: Float32Array): Float32Array {
    const out = new Float32Array(input.length * 2);
    for (let i = 0; i < input.length; i++) {
      for (let phase = 0; phase < 2; phase++) {
        this.history[this.pos] = phase === 0 ? input[i]! : 0;
        this.pos = (this.pos + 1) % TAPS;
        let acc = 0;
        let idx = this.pos;
        for (let t = TAPS - 1; t >= 0; t--) {
          acc += LOW_PASS[t]! * this.history[idx]!;
          idx = idx + 1 === TAPS ? 0 : idx + 1;
        }
        out[2 * i + phase] = acc;
      }
    }
    return out;
  }
}

/** s16 → float in [-1, 1). */
export function toFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i]! / 32768;
  return out;
}
