/**
 * Power spectrum of a real frame: a complex FFT of half the length plus the split step that turns it
 * into the real transform. The length is a power of two, or three times one (the engine's 22.05 and
 * 24 kHz analysis folds its window to 384 samples): then the half-length transform is three
 * power-of-two transforms joined by one radix-3 pass. Everything is preallocated; `power()` allocates
 * nothing.
 */
export class RealFft {
  /** Transform length (2^k or 3·2^k, at least 16). */
  readonly size: number;
  /** Number of power bins, `size / 2 + 1`. */
  readonly bins: number;
  /** Half the length: the complex transform's. (This and the tables below are read by src/wasm too.) */
  readonly half: number;
  /** 1 or 3: the number of power-of-two sub-transforms of the half-length transform. */
  readonly radix: number;
  /** Length of each power-of-two sub-transform. */
  readonly sub: number;
  /** Real and imaginary parts of the half-length transform (input, then output, in place). */
  readonly re: Float64Array;
  readonly im: Float64Array;
  /**
   * Where complex input n (frame[2n] + i·frame[2n+1]) goes in {@link re}/{@link im}: sub-transform
   * n mod radix, bit-reversed. Lets a caller load its frame straight into place ({@link powerOfLoaded}).
   */
  readonly inputOrder: Uint32Array;
  readonly bitReverse: Uint32Array;
  readonly cosSub: Float64Array;
  readonly sinSub: Float64Array;
  /** Twiddles W_half^k and W_half^2k of the radix-3 pass (k < sub). */
  readonly cos3: Float64Array;
  readonly sin3: Float64Array;
  readonly cosFull: Float64Array;
  readonly sinFull: Float64Array;

  constructor(size: number) {
    const radix = size % 3 === 0 ? 3 : 1;
    const pow = size / radix;
    if (!Number.isInteger(pow) || pow < 16 || (pow & (pow - 1)) !== 0)
      throw new RangeError(`FFT size ${size} is not 2^k or 3·2^k`);
    this.size = size;
    this.half = size >> 1;
    this.bins = this.half + 1;
    this.radix = radix;
    const m = this.half;
    const p = m / radix;
    this.sub = p;
    this.re = new Float64Array(m);
    this.im = new Float64Array(m);
    this.bitReverse = new Uint32Array(p);
    const bits = Math.log2(p);
    for (let i = 0; i < p; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.bitReverse[i] = r;
    }
    this.inputOrder = new Uint32Array(m);
    for (let n = 0; n < m; n++)
      this.inputOrder[n] = (n % radix) * p + this.bitReverse[Math.floor(n / radix)]!;
    this.cosSub = new Float64Array(p >> 1);
    this.sinSub = new Float64Array(p >> 1);
    for (let i = 0; i < p >> 1; i++) {
      this.cosSub[i] = Math.cos((-2 * Math.PI * i) / p);
      this.sinSub[i] = Math.sin((-2 * Math.PI * i) / p);
    }
    this.cos3 = new Float64Array(2 * p);
    this.sin3 = new Float64Array(2 * p);
    if (radix === 3) {
      for (let k = 0; k < p; k++) {
        for (let r = 1; r <= 2; r++) {
          this.cos3[2 * k + r - 1] = Math.cos((-2 * Math.PI * r * k) / m);
          this.sin3[2 * k + r - 1] = Math.sin((-2 * Math.PI * r * k) / m);
        }
      }
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
    const re = this.re;
    const im = this.im;
    const order = this.inputOrder;
    for (let n = 0; n < this.half; n++) {
      const j = order[n]!;
      re[j] = frame[2 * n]!;
      im[j] = frame[2 * n + 1]!;
    }
    this.powerOfLoaded(out, lastBin);
  }

  /**
   * {@link power} of the frame already loaded into {@link re}/{@link im} at {@link inputOrder}
   * (their contents are consumed).
   */
  powerOfLoaded(out: Float32Array, lastBin = this.half): void {
    const m = this.half;
    const re = this.re;
    const im = this.im;
    const radix = this.radix;
    const p = this.sub;
    for (let r = 0; r < radix; r++) this.transform(r * p);
    if (radix === 3) this.joinRadix3();
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

  /** In-place radix-2 transform of re/im[base, base + sub), input in bit-reversed order. */
  private transform(base: number): void {
    const re = this.re;
    const im = this.im;
    const p = this.sub;
    const endAt = base + p;
    // The first two stages need no multiplications (twiddles 1 and -i): one radix-4 pass.
    for (let a = base; a < endAt; a += 4) {
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
    const cw = this.cosSub;
    const sw = this.sinSub;
    // Then the radix-2 stages two at a time (radix 2²): blocks of 4L, stage one pairs (a, a+L) and
    // (a+2L, a+3L) with twiddle W_2L^k, stage two pairs (a, a+2L) with W_4L^k and (a+L, a+3L) with
    // W_4L^k·(-i). Same arithmetic as two separate stages, half the loads and stores.
    let quarter = 4;
    for (; 4 * quarter <= p; quarter *= 4) {
      const block = 4 * quarter;
      const step1 = p / (2 * quarter);
      const step2 = p / block;
      for (let k = 0; k < quarter; k++) {
        const w1r = cw[k * step1]!;
        const w1i = sw[k * step1]!;
        const w2r = cw[k * step2]!;
        const w2i = sw[k * step2]!;
        for (let a = base + k; a < endAt; a += block) {
          const b = a + quarter;
          const c = b + quarter;
          const d = c + quarter;
          const x1r = re[b]!;
          const x1i = im[b]!;
          const t1r = x1r * w1r - x1i * w1i;
          const t1i = x1r * w1i + x1i * w1r;
          const x3r = re[d]!;
          const x3i = im[d]!;
          const t3r = x3r * w1r - x3i * w1i;
          const t3i = x3r * w1i + x3i * w1r;
          const x0r = re[a]!;
          const x0i = im[a]!;
          const x2r = re[c]!;
          const x2i = im[c]!;
          const u0r = x0r + t1r;
          const u0i = x0i + t1i;
          const u1r = x0r - t1r;
          const u1i = x0i - t1i;
          const u2r = x2r + t3r;
          const u2i = x2i + t3i;
          const u3r = x2r - t3r;
          const u3i = x2i - t3i;
          const vr = u2r * w2r - u2i * w2i;
          const vi = u2r * w2i + u2i * w2r;
          // (u3 · W_4L^k) · (-i) = (im, -re) of the product.
          const pr = u3r * w2r - u3i * w2i;
          const pi = u3r * w2i + u3i * w2r;
          re[a] = u0r + vr;
          im[a] = u0i + vi;
          re[c] = u0r - vr;
          im[c] = u0i - vi;
          re[b] = u1r + pi;
          im[b] = u1i - pr;
          re[d] = u1r - pi;
          im[d] = u1i + pr;
        }
      }
    }
    // A last single radix-2 stage when the number of stages left was odd.
    if (2 * quarter <= p) {
      const halfLen = quarter;
      const len = 2 * halfLen;
      const step = p / len;
      for (let k = 0, t = 0; k < halfLen; k++, t += step) {
        const wr = cw[t]!;
        const wi = sw[t]!;
        for (let a = base + k; a < endAt; a += len) {
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
  }

  /**
   * Joins the three sub-transforms Y_r (r = 0, 1, 2, at offsets r·sub) into the half-length
   * transform: Z[k + j·sub] = Σ_r W_3^{jr} · W_half^{rk} · Y_r[k].
   */
  private joinRadix3(): void {
    const re = this.re;
    const im = this.im;
    const p = this.sub;
    const c3 = this.cos3;
    const s3 = this.sin3;
    const s60 = Math.sqrt(3) / 2;
    for (let k = 0; k < p; k++) {
      const ar = re[k]!;
      const ai = im[k]!;
      const w1r = c3[2 * k]!;
      const w1i = s3[2 * k]!;
      const w2r = c3[2 * k + 1]!;
      const w2i = s3[2 * k + 1]!;
      const yr = re[k + p]!;
      const yi = im[k + p]!;
      const br = yr * w1r - yi * w1i;
      const bi = yr * w1i + yi * w1r;
      const zr = re[k + 2 * p]!;
      const zi = im[k + 2 * p]!;
      const cr = zr * w2r - zi * w2i;
      const ci = zr * w2i + zi * w2r;
      const sr = br + cr;
      const si = bi + ci;
      // W_3 = -1/2 - i·√3/2: the j = 1, 2 outputs share a - s/2 and ± i·(√3/2)(b - c)·(-1).
      const mr = ar - 0.5 * sr;
      const mi = ai - 0.5 * si;
      const dr = s60 * (bi - ci);
      const di = -s60 * (br - cr);
      re[k] = ar + sr;
      im[k] = ai + si;
      re[k + p] = mr + dr;
      im[k + p] = mi + di;
      re[k + 2 * p] = mr - dr;
      im[k + 2 * p] = mi - di;
    }
  }
}
