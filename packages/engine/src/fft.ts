/**
 * Power spectrum of a real frame: a radix-2 complex FFT of half the length plus the split step
 * that turns it into the real transform. Everything is preallocated; `power()` allocates nothing.
 */
export class RealFft {
  /** Transform length (a power of two). */
  readonly size: number;
  /** Number of power bins, `size / 2 + 1`. */
  readonly bins: number;
  private readonly half: number;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly bitReverse: Uint32Array;
  private readonly cosHalf: Float64Array;
  private readonly sinHalf: Float64Array;
  private readonly cosFull: Float64Array;
  private readonly sinFull: Float64Array;

  constructor(size: number) {
    if (size < 16 || (size & (size - 1)) !== 0)
      throw new RangeError(`FFT size ${size} is not a power of two`);
    this.size = size;
    this.half = size >> 1;
    this.bins = this.half + 1;
    const m = this.half;
    this.re = new Float64Array(m);
    this.im = new Float64Array(m);
    this.bitReverse = new Uint32Array(m);
    const bits = Math.log2(m);
    for (let i = 0; i < m; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.bitReverse[i] = r;
    }
    // Twiddles of the half-length complex FFT, and of the real split step.
    this.cosHalf = new Float64Array(m >> 1);
    this.sinHalf = new Float64Array(m >> 1);
    for (let i = 0; i < m >> 1; i++) {
      this.cosHalf[i] = Math.cos((-2 * Math.PI * i) / m);
      this.sinHalf[i] = Math.sin((-2 * Math.PI * i) / m);
    }
    this.cosFull = new Float64Array(m + 1);
    this.sinFull = new Float64Array(m + 1);
    for (let k = 0; k <= m; k++) {
      this.cosFull[k] = Math.cos((-2 * Math.PI * k) / size);
      this.sinFull[k] = Math.sin((-2 * Math.PI * k) / size);
    }
  }

  /**
   * Writes `|X[k]|²` for k = 0..lastBin (default size/2) of the real input `frame` (length `size`)
   * into `out`.
   */
  power(frame: Float32Array, out: Float32Array, lastBin = this.half): void {
    const m = this.half;
    const re = this.re;
    const im = this.im;
    const rev = this.bitReverse;
    // Pack even samples as real, odd as imaginary, in bit-reversed order.
    for (let i = 0; i < m; i++) {
      const j = rev[i]!;
      re[j] = frame[2 * i]!;
      im[j] = frame[2 * i + 1]!;
    }
    // The first two stages need no multiplications (twiddles 1 and -i): one radix-4 pass.
    for (let a = 0; a < m; a += 4) {
      const r0 = re[a]!;
      const i0 = im[a]!;
      const r1 = re[a + 1]!;
      const i1 = im[a + 1]!;
      const r2 = re[a + 2]!;
      const i2 = im[a + 2]!;
      const r3 = re[a + 3]!;
      const i3 = im[a + 3]!;
      const s0r = r0 + r1;
      const s0i = i0 + i1;
      const d0r = r0 - r1;
      const d0i = i0 - i1;
      const s1r = r2 + r3;
      const s1i = i2 + i3;
      // (r2 - r3, i2 - i3) times -i.
      const d1r = i2 - i3;
      const d1i = r3 - r2;
      re[a] = s0r + s1r;
      im[a] = s0i + s1i;
      re[a + 2] = s0r - s1r;
      im[a + 2] = s0i - s1i;
      re[a + 1] = d0r + d1r;
      im[a + 1] = d0i + d1i;
      re[a + 3] = d0r - d1r;
      im[a + 3] = d0i - d1i;
    }
    const cw = this.cosHalf;
    const sw = this.sinHalf;
    for (let len = 8; len <= m; len <<= 1) {
      const halfLen = len >> 1;
      const step = m / len;
      for (let k = 0, t = 0; k < halfLen; k++, t += step) {
        const wr = cw[t]!;
        const wi = sw[t]!;
        for (let a = k; a < m; a += len) {
          const b = a + halfLen;
          const br = re[b]!;
          const bi = im[b]!;
          const xr = br * wr - bi * wi;
          const xi = br * wi + bi * wr;
          const ar = re[a]!;
          const ai = im[a]!;
          re[a] = ar + xr;
          im[a] = ai + xi;
          re[b] = ar - xr;
          im[b] = ai - xi;
        }
      }
    }
    // Split: X[k] = (Z[k] + conj Z[m-k]) / 2 + W^k (Z[k] - conj Z[m-k]) / 2i.
    const cf = this.cosFull;
    const sf = this.sinFull;
    const end = Math.min(m, lastBin);
    for (let k = 0; k <= end; k++) {
      const k1 = k === m ? 0 : k;
      const k2 = k === 0 ? 0 : m - k;
      const zr = re[k1]!;
      const zi = im[k1]!;
      const cr = re[k2]!;
      const ci = -im[k2]!;
      const er = 0.5 * (zr + cr);
      const ei = 0.5 * (zi + ci);
      // (Z - conj) / 2i = (dI, -dR) / 2 with d = Z - conj.
      const dr = 0.5 * (zi - ci);
      const di = -0.5 * (zr - cr);
      const wr = cf[k]!;
      const wi = sf[k]!;
      const xr = er + dr * wr - di * wi;
      const xi = ei + dr * wi + di * wr;
      out[k] = xr * xr + xi * xi;
    }
  }
}
