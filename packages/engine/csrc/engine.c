/*
 * The engine's hot loops in C for wasm32 + SIMD128: the feature hop (window, FFT, power, energy and
 * mel sums, logs, trackers), the per-hop standardisation and projection, the model (MLP) and the
 * pitch tracker's decimation and autocorrelation. Built freestanding (no libc): see build.mjs.
 *
 * Every computation but the MLP repeats the TypeScript path's arithmetic (src/features.ts, fft.ts,
 * hop-history.ts, pitch.ts, front-end.ts) operation for operation, in the same precision and order:
 * float64 where the TypeScript path computes in doubles, float32 where it stores into a Float32Array.
 * The SIMD lanes carry sums that the TypeScript path already keeps apart (its even/odd accumulators,
 * its rows, neighbouring outputs), so vectorising does not re-associate anything, and every
 * threshold (speech gating, noise floor, pitch) decides as it does there. What can differ is ln,
 * acos and exp, which are this file's own approximations (within 2 units in the last place of a
 * double, see the tests), not V8's. The MLP (layer) sums in float32 lanes instead of model.ts's
 * doubles: its posteriors differ by float32 rounding and reach the frames only through continuous
 * steps (test/wasm-backend.test.ts bounds the frames' difference by 1e-4; ≈ 3e-6 is seen).
 *
 * Memory is owned by the JavaScript side (src/wasm/): it writes the shared tables of each analysis
 * rate and each model into linear memory once, and one slot per driver; the functions here only
 * read those and write the slot and the per-rate scratch.
 */
#include <stdint.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(#name)))

#define MEL_BANDS 20
#define FEATURE_DIM 23
#define HISTORY 64
#define STEADY_HOPS 8
#define SETTLE_HOPS 20
#define CHANNEL_PRIOR_HOPS 50
#define CHANNEL_MIN_RATE 0.006
#define POWER_FLOOR 1e-10
#define STEADY_SD 0.35
#define CLIP 6.0
#define MAX_LAYERS 8
#define MAX_CONTEXT 32
/* Most model outputs slot_frame takes (checked by src/wasm/shared-data.ts). */
#define MAX_CLASSES 64

/* Pitch tracker sizes (pitch.ts). */
#define P_SPAN 48
#define P_MIN_LAG 6
#define P_MAX_LAG 27
#define P_RING 512

/* Half-band decimator (front-end.ts HalfbandDecimator, HALFBAND_PAIRS = 6). */
#define D_PAIRS 6
#define D_REACH (2 * D_PAIRS - 1)
/* Input samples a slot carries from one call to the next: at most 2·reach + 1. */
#define D_CARRY (2 * D_REACH + 2)

/* ---------------------------------------------------------------- math ---------------------------- */

static const double LN2_HI = 0.693147180369123816490; /* ln 2 with its last 32 bits cleared */
static const double LN2_LO = 1.90821492927058770002e-10; /* ln 2 − LN2_HI */
static const double PI = 3.14159265358979323846;

/*
 * Natural log of a positive, finite, normal x: x = m·2^e with m in [√½, √2), ln m = 2·atanh(s) with
 * s = (m − 1)/(m + 1), |s| ≤ 0.1716, summed as an odd series to s^23 (the first term left out is
 * below 2^-60 of the result). e·ln 2 is added in two parts so its rounding stays below the series'.
 */
static double ln(double x) {
  union {
    double d;
    uint64_t u;
  } v = {x};
  int e = (int)((v.u >> 52) & 0x7ff) - 1023;
  v.u = (v.u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  double m = v.d;
  if (m > 1.41421356237309504880) {
    m *= 0.5;
    e += 1;
  }
  double f = m - 1.0; /* exact (Sterbenz) */
  double s = f / (m + 1.0);
  double s2 = s * s;
  double series =
      s2 * (1.0 / 3 +
            s2 * (1.0 / 5 +
                  s2 * (1.0 / 7 +
                        s2 * (1.0 / 9 +
                              s2 * (1.0 / 11 +
                                    s2 * (1.0 / 13 +
                                          s2 * (1.0 / 15 +
                                                s2 * (1.0 / 17 + s2 * (1.0 / 19 + s2 * (1.0 / 21 + s2 / 23))))))))));
  /* 2s = f − s·f (since f − 2s = s·f), which keeps the large part f exact. */
  double de = (double)e;
  double lnm = f - (s * f - 2.0 * s * series);
  return de * LN2_HI + (lnm + de * LN2_LO);
}

/* {@link ln} of both lanes, by the same operations (so each lane equals ln of it exactly). */
static v128_t ln2(v128_t x) {
  v128_t ebits = wasm_v128_and(wasm_u64x2_shr(x, 52), wasm_i64x2_splat(0x7ff));
  v128_t e = wasm_f64x2_sub(wasm_f64x2_convert_low_i32x4(wasm_i32x4_shuffle(ebits, ebits, 0, 2, 0, 2)),
                            wasm_f64x2_splat(1023.0));
  v128_t m = wasm_v128_or(wasm_v128_and(x, wasm_i64x2_splat(0x000fffffffffffffLL)),
                          wasm_i64x2_splat(0x3ff0000000000000LL));
  v128_t big = wasm_f64x2_gt(m, wasm_f64x2_splat(1.41421356237309504880));
  m = wasm_v128_bitselect(wasm_f64x2_mul(m, wasm_f64x2_splat(0.5)), m, big);
  e = wasm_v128_bitselect(wasm_f64x2_add(e, wasm_f64x2_splat(1.0)), e, big);
  v128_t one = wasm_f64x2_splat(1.0);
  v128_t f = wasm_f64x2_sub(m, one);
  v128_t s = wasm_f64x2_div(f, wasm_f64x2_add(m, one));
  v128_t s2 = wasm_f64x2_mul(s, s);
  v128_t series = wasm_f64x2_splat(1.0 / 23);
  series = wasm_f64x2_mul(s2, series);
  static const double c[10] = {1.0 / 21, 1.0 / 19, 1.0 / 17, 1.0 / 15, 1.0 / 13, 1.0 / 11, 1.0 / 9, 1.0 / 7, 1.0 / 5, 1.0 / 3};
  for (int i = 0; i < 10; i++) series = wasm_f64x2_mul(s2, wasm_f64x2_add(wasm_f64x2_splat(c[i]), series));
  v128_t lnm = wasm_f64x2_sub(
      f, wasm_f64x2_sub(wasm_f64x2_mul(s, f), wasm_f64x2_mul(wasm_f64x2_mul(wasm_f64x2_splat(2.0), s), series)));
  return wasm_f64x2_add(wasm_f64x2_mul(e, wasm_f64x2_splat(LN2_HI)),
                        wasm_f64x2_add(lnm, wasm_f64x2_mul(e, wasm_f64x2_splat(LN2_LO))));
}

/* Coefficients of asin y = Σ c_n y^(2n+1), filled by init(). */
#define ASIN_TERMS 30
static double asin_c[ASIN_TERMS];

/* asin for |y| ≤ 0.5 by its series: the last term kept is below 2^-60 of the result. */
static double asin_small(double y) {
  double y2 = y * y;
  double sum = asin_c[ASIN_TERMS - 1];
  for (int n = ASIN_TERMS - 2; n >= 0; n--) sum = asin_c[n] + y2 * sum;
  return y * sum;
}

/* acos on [−1, 1] through asin of a half-angle argument, so the series always sees |y| ≤ 0.5. */
static double acos_(double x) {
  if (x > 0.5) return 2.0 * asin_small(__builtin_sqrt((1.0 - x) * 0.5));
  if (x < -0.5) return PI - 2.0 * asin_small(__builtin_sqrt((1.0 + x) * 0.5));
  return PI / 2 - asin_small(x);
}

EXPORT(init) void init(void) {
  double c = 1.0;
  for (int n = 0; n < ASIN_TERMS; n++) {
    asin_c[n] = c / (2 * n + 1);
    /* c_n = (2n)! / (4^n (n!)²) */
    c = c * (2.0 * n + 1) / (2.0 * n + 2);
  }
}

/* The approximations themselves, for the accuracy tests. */
EXPORT(test_ln) double test_ln(double x) { return ln(x); }
EXPORT(test_acos) double test_acos(double x) { return acos_(x); }

/* ---------------------------------------------------------------- layouts ------------------------- */

/* Shared per analysis rate and sample scale (written by src/wasm/tables.ts). */
typedef struct {
  double energy_scale;
  double band_scale;
  double noise_floor_prior; /* features.ts NOISE_FLOOR_PRIOR, the same double */
  int32_t size;  /* transform length */
  int32_t half;  /* size / 2 */
  int32_t radix; /* 1 or 3 */
  int32_t sub;   /* length of each power-of-two sub-transform */
  int32_t window_length;
  int32_t last_bin;
  int32_t hop;
  const uint32_t *input_order; /* half */
  const double *cos_sub;       /* sub / 2 */
  const double *sin_sub;
  const double *cos3; /* 2·sub */
  const double *sin3;
  const double *cos_full; /* half + 1 */
  const double *sin_full;
  const float *window; /* window_length */
  const float *lag_cos; /* last_bin + 1 */
  const int32_t *mel_start; /* MEL_BANDS */
  const int32_t *mel_offset; /* MEL_BANDS + 1 */
  const float *mel_weights;
  double *re; /* scratch, half */
  double *im;
  float *power; /* scratch, half + 1 */
  double *stage_tw; /* 3 · sub: each stage's twiddles in the order transform reads them (tables_prepare) */
  float *frame;     /* scratch, window_length: the ring's samples in time order (compute_hop) */
} Tables;

/* Shared per model (written by src/wasm/model.ts). */
typedef struct {
  int32_t layers; /* weight layers */
  int32_t sizes[MAX_LAYERS + 1];
  const float *weights[MAX_LAYERS]; /* packed in blocks of 4 rows (see layer) */
  const float *biases[MAX_LAYERS];  /* padded to a multiple of 4 */
  float *acts[MAX_LAYERS + 1];       /* scratch, padded to a multiple of 4 */
  int32_t dim;                 /* values per hop in the history */
  int32_t contexts;
  int32_t ctx_from[MAX_CONTEXT];
  int32_t ctx_to[MAX_CONTEXT];
  const double *projection; /* rows × FEATURE_DIM, or 0 */
  const double *mean;       /* FEATURE_DIM */
  const float *inv_std;     /* FEATURE_DIM */
  const float *prior;       /* MEL_BANDS */
} Model;

/* One driver (src/wasm/slots.ts sizes and places it). */
typedef struct {
  /* Tracker state (doubles, as the TypeScript numbers). */
  double level;
  double noise_floor;
  double settle_min;
  /* The frame slot_frame computed last: energy, level, noise floor, f0 (doubles, as the driver's
     FrameAcoustics), then the posteriors (float32, as its Float32Array). */
  double frame_acoustics[4];
  float frame_posteriors[MAX_CLASSES];
  /* Pitch: the filter state and the block sum in progress. */
  double p_sum;
  double p_x1, p_x2, p_y1, p_y2;
  double p_b0, p_b1, p_b2, p_a1, p_a2;
  double p_rate;
  double d_taps[D_PAIRS]; /* the decimator's odd-offset taps, already × 2^-15 */
  const Tables *tables;
  const Model *model;
  float *ring;    /* window_length: the last samples, the oldest at write_pos */
  float *history; /* HISTORY · dim */
  float *p_ring;  /* P_RING */
  int32_t write_pos;
  int32_t since_hop;
  int32_t lead;
  int32_t hops;
  int32_t speech_hops;
  int32_t floor_known;
  int32_t count; /* history hops */
  int32_t p_block;
  int32_t p_integer;
  int32_t p_written;
  int32_t p_phase;
  int32_t d_len; /* carried decimator inputs; the next output is centred on d_carry[D_REACH] */
  float d_carry[D_CARRY];
  float channel_mean[MEL_BANDS];
  float recent[STEADY_HOPS];
  float features[FEATURE_DIM];
  float z[FEATURE_DIM];
  float p_scores[P_MAX_LAG + 2];
  /* Per hop of the history ring: ln energy, speech level, noise floor, in float32 as hop-history.ts keeps them. */
  float h_energy[HISTORY];
  float h_level[HISTORY];
  float h_floor[HISTORY];
  float p_span[P_SPAN + P_MAX_LAG];
} Slot;

EXPORT(slot_header_bytes) int32_t slot_header_bytes(void) { return (int32_t)((sizeof(Slot) + 15) & ~15u); }
EXPORT(slot_bytes) int32_t slot_bytes(const Tables *t, const Model *m) {
  return slot_header_bytes() + 4 * (t->window_length + HISTORY * m->dim + P_RING);
}

/* ---------------------------------------------------------------- slots --------------------------- */

EXPORT(slot_restart) void slot_restart(Slot *s) {
  float *ring = s->ring;
  int n = s->tables->window_length;
  for (int i = 0; i < n; i++) ring[i] = 0;
  s->write_pos = 0;
  s->since_hop = s->lead;
  s->count = 0;
  float *pr = s->p_ring;
  for (int i = 0; i < P_RING; i++) pr[i] = 0;
  s->p_written = 0;
  s->p_phase = 0;
  s->p_sum = 0;
  s->p_x1 = s->p_x2 = s->p_y1 = s->p_y2 = 0;
  /* Silence before the stream start: the first centre sees `reach` zeros before it. */
  for (int i = 0; i < D_CARRY; i++) s->d_carry[i] = 0;
  s->d_len = D_REACH;
}

EXPORT(slot_reset) void slot_reset(Slot *s) {
  slot_restart(s);
  s->hops = 0;
  s->speech_hops = 0;
  s->floor_known = 0;
  for (int b = 0; b < MEL_BANDS; b++) s->channel_mean[b] = s->model->prior[b];
}

/* `pitch` holds the pitch filter's coefficients and rate (computed by the TypeScript PitchTracker). */
EXPORT(slot_init)
void slot_init(Slot *s, const Tables *t, const Model *m, int32_t lead, const double *pitch, int32_t block,
               int32_t integer) {
  char *base = (char *)s;
  s->tables = t;
  s->model = m;
  s->ring = (float *)(base + slot_header_bytes());
  s->history = s->ring + t->window_length;
  s->p_ring = s->history + HISTORY * m->dim;
  s->lead = lead;
  s->p_b0 = pitch[0];
  s->p_b1 = pitch[1];
  s->p_b2 = pitch[2];
  s->p_a1 = pitch[3];
  s->p_a2 = pitch[4];
  s->p_rate = pitch[5];
  s->p_block = block;
  s->p_integer = integer;
  s->level = 0;
  s->noise_floor = 0;
  s->settle_min = 0;
  slot_reset(s);
}

EXPORT(slot_set_taps) void slot_set_taps(Slot *s, const double *taps) {
  for (int i = 0; i < D_PAIRS; i++) s->d_taps[i] = taps[i];
}

/* s16 → float32 (exact), eight samples per step. */
static void pcm_to_float(const int16_t *pcm, float *out, int n) {
  int i = 0;
  for (; i + 7 < n; i += 8) {
    v128_t v = wasm_v128_load(pcm + i);
    wasm_v128_store(out + i, wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(v)));
    wasm_v128_store(out + i + 4, wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(v)));
  }
  for (; i < n; i++) out[i] = (float)pcm[i];
}

/* The decimator's input split by parity (its outputs read odd offsets around even centres). */
#define D_MAX_INPUT 4096
static float d_even[(D_MAX_INPUT + D_CARRY) / 2 + 8];
static float d_odd[(D_MAX_INPUT + D_CARRY) / 2 + 8];

/*
 * Decimates the s16 samples pcm[0, n) (n ≤ D_MAX_INPUT; x is float scratch with D_CARRY floats of
 * room before it) into out, with the arithmetic of front-end.ts HalfbandDecimator: the sums of two
 * s16 inputs are exact in float32, each product and sum is a double in the TypeScript order, the
 * output rounds to float32 once. Four outputs per step: the centres and the odd-offset inputs are
 * split into their own arrays first, so output m + 1's inputs are output m's shifted by one lane.
 * Returns the outputs written.
 */
EXPORT(slot_decimate) int32_t slot_decimate(Slot *s, const int16_t *pcm, float *x, int32_t n, float *out) {
  pcm_to_float(pcm, x, n);
  float *b = x - s->d_len;
  for (int i = 0; i < s->d_len; i++) b[i] = s->d_carry[i];
  const int total = s->d_len + n;
  const double half = 0.5 / 32768;
  const double t0 = s->d_taps[0], t1 = s->d_taps[1], t2 = s->d_taps[2];
  const double t3 = s->d_taps[3], t4 = s->d_taps[4], t5 = s->d_taps[5];
  /* Output m is centred on b[D_REACH + 2m]; its inputs b[c ± (2k + 1)] are e[m + 5 ∓ k], e[m + 6 + k]. */
  const int count = total - 2 * D_REACH > 0 ? (total - 2 * D_REACH + 1) / 2 : 0;
  float *e = d_even;
  float *o = d_odd;
  const int pairs = total / 2;
  int j = 0;
  for (; j + 3 < pairs; j += 4) {
    v128_t lo = wasm_v128_load(b + 2 * j), hi = wasm_v128_load(b + 2 * j + 4);
    wasm_v128_store(e + j, wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6));
    wasm_v128_store(o + j, wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7));
  }
  for (; j < pairs; j++) {
    e[j] = b[2 * j];
    o[j] = b[2 * j + 1];
  }
  if (total & 1) e[pairs] = b[total - 1];
  const v128_t vhalf = wasm_f64x2_splat(half);
  const v128_t v0 = wasm_f64x2_splat(t0), v1 = wasm_f64x2_splat(t1), v2 = wasm_f64x2_splat(t2);
  const v128_t v3 = wasm_f64x2_splat(t3), v4 = wasm_f64x2_splat(t4), v5 = wasm_f64x2_splat(t5);
  int m = 0;
  for (; m + 3 < count; m += 4) {
    const float *q = e + m;
    const v128_t s1 = wasm_f32x4_add(wasm_v128_load(q + 5), wasm_v128_load(q + 6));
    const v128_t s3 = wasm_f32x4_add(wasm_v128_load(q + 4), wasm_v128_load(q + 7));
    const v128_t s5 = wasm_f32x4_add(wasm_v128_load(q + 3), wasm_v128_load(q + 8));
    const v128_t s7 = wasm_f32x4_add(wasm_v128_load(q + 2), wasm_v128_load(q + 9));
    const v128_t s9 = wasm_f32x4_add(wasm_v128_load(q + 1), wasm_v128_load(q + 10));
    const v128_t s11 = wasm_f32x4_add(wasm_v128_load(q), wasm_v128_load(q + 11));
    const v128_t centre = wasm_v128_load(o + m + D_REACH / 2);
    v128_t r[2];
    for (int h = 0; h < 2; h++) {
      /* Lanes 0–1, then 2–3, widened to double. */
      const v128_t c = h ? wasm_i32x4_shuffle(centre, centre, 2, 3, 0, 1) : centre;
#define WIDEN(v) wasm_f64x2_promote_low_f32x4(h ? wasm_i32x4_shuffle(v, v, 2, 3, 0, 1) : v)
      v128_t a = wasm_f64x2_add(wasm_f64x2_mul(vhalf, wasm_f64x2_promote_low_f32x4(c)), wasm_f64x2_mul(v0, WIDEN(s1)));
      a = wasm_f64x2_add(a, wasm_f64x2_mul(v2, WIDEN(s5)));
      a = wasm_f64x2_add(a, wasm_f64x2_mul(v4, WIDEN(s9)));
      v128_t d = wasm_f64x2_add(wasm_f64x2_mul(v1, WIDEN(s3)), wasm_f64x2_mul(v3, WIDEN(s7)));
      d = wasm_f64x2_add(d, wasm_f64x2_mul(v5, WIDEN(s11)));
#undef WIDEN
      r[h] = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(a, d));
    }
    wasm_v128_store(out + m, wasm_i32x4_shuffle(r[0], r[1], 0, 1, 4, 5));
  }
  for (; m < count; m++) {
    const float *q = e + m;
    const double a = half * o[m + D_REACH / 2] + t0 * (double)(q[5] + q[6]) + t2 * (double)(q[3] + q[8]) +
                     t4 * (double)(q[1] + q[10]);
    const double d = t1 * (double)(q[4] + q[7]) + t3 * (double)(q[2] + q[9]) + t5 * (double)(q[0] + q[11]);
    out[m] = (float)(a + d);
  }
  const int keep = 2 * count;
  s->d_len = total - keep;
  for (int i = 0; i < s->d_len; i++) s->d_carry[i] = b[keep + i];
  return count;
}

EXPORT(slot_count) int32_t slot_count(Slot *s) { return s->count; }
EXPORT(slot_features) float *slot_features(Slot *s) { return s->features; }

/* ---------------------------------------------------------------- FFT ----------------------------- */

static inline v128_t cmul_re(v128_t ar, v128_t ai, v128_t br, v128_t bi) {
  return wasm_f64x2_sub(wasm_f64x2_mul(ar, br), wasm_f64x2_mul(ai, bi));
}
static inline v128_t cmul_im(v128_t ar, v128_t ai, v128_t br, v128_t bi) {
  return wasm_f64x2_add(wasm_f64x2_mul(ar, bi), wasm_f64x2_mul(ai, br));
}

/* In-place radix-2 transform of re/im[base, base + sub), input bit-reversed (fft.ts transform). */
static void transform(const Tables *t, int base) {
  double *re = t->re;
  double *im = t->im;
  const int p = t->sub;
  const int end = base + p;
  for (int a = base; a < end; a += 4) {
    double r0 = re[a], i0 = im[a], r1 = re[a + 1], i1 = im[a + 1];
    double r2 = re[a + 2], i2 = im[a + 2], r3 = re[a + 3], i3 = im[a + 3];
    double s0r = r0 + r1, s0i = i0 + i1, d0r = r0 - r1, d0i = i0 - i1;
    double s1r = r2 + r3, s1i = i2 + i3;
    double d1r = i2 - i3, d1i = r3 - r2;
    re[a] = s0r + s1r;
    im[a] = s0i + s1i;
    re[a + 2] = s0r - s1r;
    im[a + 2] = s0i - s1i;
    re[a + 1] = d0r + d1r;
    im[a + 1] = d0i + d1i;
    re[a + 3] = d0r - d1r;
    im[a + 3] = d0i - d1i;
  }
  const double *tw = t->stage_tw;
  int quarter = 4;
  /* Radix-2² stages; two neighbouring k share every instruction (lanes k, k + 1). */
  for (; 4 * quarter <= p; quarter *= 4) {
    const int block = 4 * quarter;
    const double *c1 = tw, *s1 = tw + quarter, *c2 = tw + 2 * quarter, *s2 = tw + 3 * quarter;
    tw += 4 * quarter;
    for (int k = 0; k < quarter; k += 2) {
      v128_t w1r = wasm_v128_load(c1 + k), w1i = wasm_v128_load(s1 + k);
      v128_t w2r = wasm_v128_load(c2 + k), w2i = wasm_v128_load(s2 + k);
      for (int a = base + k; a < end; a += block) {
        int b = a + quarter, c = b + quarter, d = c + quarter;
        v128_t x1r = wasm_v128_load(re + b), x1i = wasm_v128_load(im + b);
        v128_t t1r = cmul_re(x1r, x1i, w1r, w1i);
        v128_t t1i = cmul_im(x1r, x1i, w1r, w1i);
        v128_t x3r = wasm_v128_load(re + d), x3i = wasm_v128_load(im + d);
        v128_t t3r = cmul_re(x3r, x3i, w1r, w1i);
        v128_t t3i = cmul_im(x3r, x3i, w1r, w1i);
        v128_t x0r = wasm_v128_load(re + a), x0i = wasm_v128_load(im + a);
        v128_t x2r = wasm_v128_load(re + c), x2i = wasm_v128_load(im + c);
        v128_t u0r = wasm_f64x2_add(x0r, t1r), u0i = wasm_f64x2_add(x0i, t1i);
        v128_t u1r = wasm_f64x2_sub(x0r, t1r), u1i = wasm_f64x2_sub(x0i, t1i);
        v128_t u2r = wasm_f64x2_add(x2r, t3r), u2i = wasm_f64x2_add(x2i, t3i);
        v128_t u3r = wasm_f64x2_sub(x2r, t3r), u3i = wasm_f64x2_sub(x2i, t3i);
        v128_t vr = cmul_re(u2r, u2i, w2r, w2i), vi = cmul_im(u2r, u2i, w2r, w2i);
        v128_t pr = cmul_re(u3r, u3i, w2r, w2i), pi = cmul_im(u3r, u3i, w2r, w2i);
        wasm_v128_store(re + a, wasm_f64x2_add(u0r, vr));
        wasm_v128_store(im + a, wasm_f64x2_add(u0i, vi));
        wasm_v128_store(re + c, wasm_f64x2_sub(u0r, vr));
        wasm_v128_store(im + c, wasm_f64x2_sub(u0i, vi));
        wasm_v128_store(re + b, wasm_f64x2_add(u1r, pi));
        wasm_v128_store(im + b, wasm_f64x2_sub(u1i, pr));
        wasm_v128_store(re + d, wasm_f64x2_sub(u1r, pi));
        wasm_v128_store(im + d, wasm_f64x2_add(u1i, pr));
      }
    }
  }
  if (2 * quarter <= p) {
    const int half_len = quarter;
    const int len = 2 * half_len;
    const double *cr = tw, *sr = tw + half_len;
    for (int k = 0; k < half_len; k += 2) {
      v128_t wr = wasm_v128_load(cr + k), wi = wasm_v128_load(sr + k);
      for (int a = base + k; a < end; a += len) {
        int b = a + half_len;
        v128_t br = wasm_v128_load(re + b), bi = wasm_v128_load(im + b);
        v128_t xr = cmul_re(br, bi, wr, wi), xi = cmul_im(br, bi, wr, wi);
        v128_t ar = wasm_v128_load(re + a), ai = wasm_v128_load(im + a);
        wasm_v128_store(re + a, wasm_f64x2_add(ar, xr));
        wasm_v128_store(im + a, wasm_f64x2_add(ai, xi));
        wasm_v128_store(re + b, wasm_f64x2_sub(ar, xr));
        wasm_v128_store(im + b, wasm_f64x2_sub(ai, xi));
      }
    }
  }
}

/*
 * Copies each FFT stage's twiddles (fft.ts reads cos/sin of the sub-transform at stage-dependent
 * strides) into consecutive runs, so transform loads two neighbouring k with one v128 load. The
 * same doubles, only placed: the transform's output does not change.
 */
EXPORT(tables_prepare) void tables_prepare(Tables *t) {
  const int p = t->sub;
  const double *cw = t->cos_sub;
  const double *sw = t->sin_sub;
  double *tw = t->stage_tw;
  int quarter = 4;
  for (; 4 * quarter <= p; quarter *= 4) {
    const int step1 = p / (2 * quarter);
    const int step2 = p / (4 * quarter);
    for (int k = 0; k < quarter; k++) {
      tw[k] = cw[k * step1];
      tw[quarter + k] = sw[k * step1];
      tw[2 * quarter + k] = cw[k * step2];
      tw[3 * quarter + k] = sw[k * step2];
    }
    tw += 4 * quarter;
  }
  if (2 * quarter <= p) {
    const int step = p / (2 * quarter);
    for (int k = 0; k < quarter; k++) {
      tw[k] = cw[k * step];
      tw[quarter + k] = sw[k * step];
    }
  }
}

/* Joins three sub-transforms (fft.ts joinRadix3). */
static void join_radix3(const Tables *t) {
  double *re = t->re;
  double *im = t->im;
  const int p = t->sub;
  const double *c3 = t->cos3;
  const double *s3 = t->sin3;
  const double s60 = 0.86602540378443864676; /* Math.sqrt(3) / 2, the same double */
  for (int k = 0; k < p; k++) {
    double ar = re[k], ai = im[k];
    double w1r = c3[2 * k], w1i = s3[2 * k], w2r = c3[2 * k + 1], w2i = s3[2 * k + 1];
    double yr = re[k + p], yi = im[k + p];
    double br = yr * w1r - yi * w1i, bi = yr * w1i + yi * w1r;
    double zr = re[k + 2 * p], zi = im[k + 2 * p];
    double cr = zr * w2r - zi * w2i, ci = zr * w2i + zi * w2r;
    double sr = br + cr, si = bi + ci;
    double mr = ar - 0.5 * sr, mi = ai - 0.5 * si;
    double dr = s60 * (bi - ci), di = -s60 * (br - cr);
    re[k] = ar + sr;
    im[k] = ai + si;
    re[k + p] = mr + dr;
    im[k + p] = mi + di;
    re[k + 2 * p] = mr - dr;
    im[k + 2 * p] = mi - di;
  }
}

/* One bin of the split step: X[k] = (Z[k] + conj Z[m−k]) / 2 + W^k (Z[k] − conj Z[m−k]) / 2i. */
static inline void split_bin(const Tables *t, int k) {
  const int m = t->half;
  const double *re = t->re;
  const double *im = t->im;
  int k1 = k == m ? 0 : k;
  int k2 = k == 0 ? 0 : m - k;
  double zr = re[k1], zi = im[k1];
  double cr = re[k2], ci = -im[k2];
  double er = 0.5 * (zr + cr), ei = 0.5 * (zi + ci);
  double dr = 0.5 * (zi - ci), di = -0.5 * (zr - cr);
  double wr = t->cos_full[k], wi = t->sin_full[k];
  double xr = er + dr * wr - di * wi;
  double xi = ei + dr * wi + di * wr;
  t->power[k] = (float)(xr * xr + xi * xi);
}

/* Power bins 0..last_bin of the loaded frame (fft.ts powerOfLoaded). */
static void power_of_loaded(const Tables *t) {
  const int m = t->half;
  double *re = t->re;
  double *im = t->im;
  for (int r = 0; r < t->radix; r++) transform(t, r * t->sub);
  if (t->radix == 3) join_radix3(t);
  const double *cf = t->cos_full;
  const double *sf = t->sin_full;
  float *out = t->power;
  const int end = m < t->last_bin ? m : t->last_bin;
  int k = 0;
  split_bin(t, 0);
  k = 1;
  /* Bins k, k + 1 as lanes (both inside 1..m − 1): their mirrors m − k, m − k − 1 load reversed. */
  const int vend = end < m - 1 ? end : m - 1;
  const v128_t half_ = wasm_f64x2_splat(0.5);
  for (; k + 1 <= vend; k += 2) {
    v128_t zr = wasm_v128_load(re + k), zi = wasm_v128_load(im + k);
    v128_t mr = wasm_v128_load(re + m - k - 1), mi = wasm_v128_load(im + m - k - 1);
    v128_t cr = wasm_i64x2_shuffle(mr, mr, 1, 0);
    v128_t ci = wasm_f64x2_neg(wasm_i64x2_shuffle(mi, mi, 1, 0));
    v128_t er = wasm_f64x2_mul(half_, wasm_f64x2_add(zr, cr));
    v128_t ei = wasm_f64x2_mul(half_, wasm_f64x2_add(zi, ci));
    v128_t dr = wasm_f64x2_mul(half_, wasm_f64x2_sub(zi, ci));
    v128_t di = wasm_f64x2_mul(wasm_f64x2_splat(-0.5), wasm_f64x2_sub(zr, cr));
    v128_t wr = wasm_v128_load(cf + k), wi = wasm_v128_load(sf + k);
    v128_t xr = wasm_f64x2_sub(wasm_f64x2_add(er, wasm_f64x2_mul(dr, wr)), wasm_f64x2_mul(di, wi));
    v128_t xi = wasm_f64x2_add(wasm_f64x2_add(ei, wasm_f64x2_mul(dr, wi)), wasm_f64x2_mul(di, wr));
    v128_t pw = wasm_f64x2_add(wasm_f64x2_mul(xr, xr), wasm_f64x2_mul(xi, xi));
    wasm_v128_store64_lane(out + k, wasm_f32x4_demote_f64x2_zero(pw), 0);
  }
  for (; k <= end; k++) split_bin(t, k);
}

/* ---------------------------------------------------------------- features ------------------------ */

/* fround(a·wa + b·wb): float32 products are exact in double, the sum rounds once, then to float32. */
static inline double folded_at(const float *buf, const float *win, int start, int i, int size) {
  return (double)(float)((double)buf[start + i] * win[i] + (double)buf[start + i + size] * win[i + size]);
}

static inline double windowed_at(const float *buf, const float *win, int start, int i, int folded, int direct,
                                 int size) {
  if (i < folded) return folded_at(buf, win, start, i, size);
  return i < direct ? (double)(buf[start + i] * win[i]) : 0.0;
}

/* The session's settling rules (features.ts settleFloor). */
static void settle_floor(Slot *s, double energy) {
  float *recent = s->recent;
  const int h = s->hops;
  recent[h % STEADY_HOPS] = (float)energy;
  s->settle_min = h == 0 ? energy : (energy < s->settle_min ? energy : s->settle_min);
  double lift = -__builtin_inf();
  if (h + 1 >= STEADY_HOPS) {
    double sum = 0;
    double min = energy;
    for (int i = 0; i < STEADY_HOPS; i++) {
      sum += recent[i];
      if (recent[i] < min) min = recent[i];
    }
    double mean = sum / STEADY_HOPS;
    double sq = 0;
    for (int i = 0; i < STEADY_HOPS; i++) {
      double d = recent[i] - mean;
      sq += d * d;
    }
    if (sq < STEADY_HOPS * STEADY_SD * STEADY_SD) lift = min;
  }
  if (h + 1 == SETTLE_HOPS && s->settle_min > lift) lift = s->settle_min;
  if (lift > -__builtin_inf()) {
    s->floor_known = 1;
    if (lift > s->noise_floor) s->noise_floor = lift;
  }
}

/* Standardises, clips and projects the hop into the history ring (hop-history.ts push). */
static void store_hop(Slot *s) {
  const Model *m = s->model;
  float *z = s->z;
  for (int i = 0; i < FEATURE_DIM; i++) {
    double v = ((double)s->features[i] - m->mean[i]) * m->inv_std[i];
    /* z > CLIP ? CLIP : Math.max(z, −CLIP), through float32 storage. */
    z[i] = (float)(v > CLIP ? CLIP : (v > -CLIP || v != v ? v : -CLIP));
  }
  float *out = s->history + (s->count % HISTORY) * m->dim;
  if (m->projection) {
    const double *proj = m->projection;
    const int rows = m->dim;
    int r = 0;
    /* Two rows per vector, each summed in input order as the TypeScript path does. */
    for (; r + 1 < rows; r += 2) {
      const double *p0 = proj + r * FEATURE_DIM;
      const double *p1 = p0 + FEATURE_DIM;
      v128_t acc = wasm_f64x2_splat(0);
      for (int i = 0; i < FEATURE_DIM; i++) {
        v128_t w = wasm_f64x2_make(p0[i], p1[i]);
        acc = wasm_f64x2_add(acc, wasm_f64x2_mul(w, wasm_f64x2_splat((double)z[i])));
      }
      out[r] = (float)wasm_f64x2_extract_lane(acc, 0);
      out[r + 1] = (float)wasm_f64x2_extract_lane(acc, 1);
    }
    for (; r < rows; r++) {
      double acc = 0;
      for (int i = 0; i < FEATURE_DIM; i++) acc += proj[r * FEATURE_DIM + i] * (double)z[i];
      out[r] = (float)acc;
    }
  } else {
    for (int i = 0; i < FEATURE_DIM; i++) out[i] = z[i];
  }
  s->count++;
}

/* One hop's features, trackers and history entry (features.ts computeHop). */
static void compute_hop(Slot *s) {
  const Tables *t = s->tables;
  const float *win = t->window;
  const int size = t->size;
  const int length = t->window_length;
  /* The ring in time order, into the shared scratch: the ring itself holds each sample once (half
     the memory a driver touches per hop of a doubled ring, which matters with hundreds of drivers
     interleaved), and the loops below read one contiguous frame. */
  float *frame = t->frame;
  {
    const float *ring = s->ring;
    const int oldest = s->write_pos;
    const int tail = length - oldest;
    int i = 0;
    for (; i + 3 < tail; i += 4) wasm_v128_store(frame + i, wasm_v128_load(ring + oldest + i));
    for (; i < tail; i++) frame[i] = ring[oldest + i];
    int j = 0;
    for (; j + 3 < oldest; j += 4) wasm_v128_store(frame + tail + j, wasm_v128_load(ring + j));
    for (; j < oldest; j++) frame[tail + j] = ring[j];
  }
  const float *buf = frame;
  const int start = 0;
  const int folded = length - size > 0 ? length - size : 0;
  const int direct = size < length ? size : length;
  double *re = t->re;
  double *im = t->im;
  const uint32_t *order = t->input_order;
  const int half = size >> 1;
  /* Runs of sample pairs as in features.ts: both folded, both direct, both past the window. */
  const int fold_pairs = folded >> 1;
  const int direct_pairs = direct >> 1;
  int n = 0;
  /* A pair (samples 2n, 2n + 1 → re[j], im[j]) per vector: the same products (exact in double), sum
     and float32 rounding as the scalar lines they replace. */
  for (; n < fold_pairs; n++) {
    const int i = start + 2 * n, w = 2 * n;
    const int j = order[n];
    const v128_t a = wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(buf + i)),
                                    wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(win + w)));
    const v128_t b = wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(buf + i + size)),
                                    wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(win + w + size)));
    const v128_t v = wasm_f64x2_promote_low_f32x4(wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(a, b)));
    re[j] = wasm_f64x2_extract_lane(v, 0);
    im[j] = wasm_f64x2_extract_lane(v, 1);
  }
  if (folded & 1) {
    const int j = order[n];
    re[j] = windowed_at(buf, win, start, 2 * n, folded, direct, size);
    im[j] = windowed_at(buf, win, start, 2 * n + 1, folded, direct, size);
    n++;
  }
  for (; n < direct_pairs; n++) {
    const int i = start + 2 * n, w = 2 * n;
    const int j = order[n];
    const v128_t v = wasm_f64x2_promote_low_f32x4(
        wasm_f32x4_mul(wasm_v128_load64_zero(buf + i), wasm_v128_load64_zero(win + w)));
    re[j] = wasm_f64x2_extract_lane(v, 0);
    im[j] = wasm_f64x2_extract_lane(v, 1);
  }
  for (; n < half; n++) {
    const int j = order[n];
    re[j] = windowed_at(buf, win, start, 2 * n, folded, direct, size);
    im[j] = windowed_at(buf, win, start, 2 * n + 1, folded, direct, size);
  }
  power_of_loaded(t);
  const float *power = t->power;
  const int last_bin = t->last_bin;
  const double scale = t->energy_scale;
  const float *lag_cos = t->lag_cos;
  /* Lanes: the even and odd accumulators of the TypeScript sums. */
  v128_t total2 = wasm_f64x2_splat(0);
  v128_t lagged2 = wasm_f64x2_splat(0);
  int k = 0;
  for (; k < last_bin; k += 2) {
    v128_t p = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(power + k));
    v128_t c = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(lag_cos + k));
    total2 = wasm_f64x2_add(total2, p);
    lagged2 = wasm_f64x2_add(lagged2, wasm_f64x2_mul(p, c));
  }
  double total0 = wasm_f64x2_extract_lane(total2, 0), total1 = wasm_f64x2_extract_lane(total2, 1);
  double lagged0 = wasm_f64x2_extract_lane(lagged2, 0), lagged1 = wasm_f64x2_extract_lane(lagged2, 1);
  if (k == last_bin) {
    total0 += power[k];
    lagged0 += (double)power[k] * lag_cos[k];
  }
  const double total = total0 + total1;
  const double lagged = lagged0 + lagged1;
  const double energy = ln(total * scale + POWER_FLOOR);
  const double floor = POWER_FLOOR / scale;
  double rho = (lagged + floor) / (total + floor);
  rho = rho > 1 ? 1 : (rho < -1 ? -1 : rho);
  const double zcr = acos_(rho) / PI;

  if (s->hops == 0) {
    s->level = energy;
    s->noise_floor = energy < t->noise_floor_prior ? energy : t->noise_floor_prior;
  } else {
    s->level += (energy > s->level ? 0.6 : 0.004) * (energy - s->level);
    if (energy < s->noise_floor)
      s->noise_floor += 0.5 * (energy - s->noise_floor);
    else
      s->noise_floor += 0.01;
  }
  if (s->hops < SETTLE_HOPS) settle_floor(s, energy);
  if (s->level < s->noise_floor) s->level = s->noise_floor;
  s->hops++;
  const double snr = energy - s->noise_floor;
  float *f = s->features;
  if (energy <= t->noise_floor_prior) s->floor_known = 1;
  const int is_speech = snr > 2.3 && s->floor_known;
  double rate = 0;
  if (is_speech) {
    s->speech_hops++;
    rate = 1.0 / (s->speech_hops + CHANNEL_PRIOR_HOPS);
    if (rate < CHANNEL_MIN_RATE) rate = CHANNEL_MIN_RATE;
  }
  const double band_floor = POWER_FLOOR / MEL_BANDS;
  const double band_scale = t->band_scale;
  float *channel_mean = s->channel_mean;
  const float *mel_weights = t->mel_weights;
  const int32_t *mel_offset = t->mel_offset;
  const int32_t *mel_start = t->mel_start;
  double bands[MEL_BANDS];
  for (int b = 0; b < MEL_BANDS; b++) {
    const int from = mel_offset[b];
    const int to = mel_offset[b + 1];
    const int shift = mel_start[b] - from;
    v128_t acc = wasm_f64x2_splat(0);
    int i = from;
    for (; i + 1 < to; i += 2) {
      v128_t w = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(mel_weights + i));
      v128_t p = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(power + shift + i));
      acc = wasm_f64x2_add(acc, wasm_f64x2_mul(w, p));
    }
    double s0 = wasm_f64x2_extract_lane(acc, 0), s1 = wasm_f64x2_extract_lane(acc, 1);
    if (i < to) s0 += (double)mel_weights[i] * power[shift + i];
    bands[b] = (s0 + s1) * band_scale + band_floor;
  }
  /* The band logs two at a time, then each band's shape and channel mean. */
  for (int b = 0; b < MEL_BANDS; b += 2) wasm_v128_store(bands + b, ln2(wasm_v128_load(bands + b)));
  for (int b = 0; b < MEL_BANDS; b++) {
    const double shape = bands[b] - energy;
    if (rate > 0) channel_mean[b] = (float)(channel_mean[b] + rate * (shape - channel_mean[b]));
    f[b] = (float)(shape - channel_mean[b]);
  }
  double rel = energy - s->level;
  f[MEL_BANDS] = (float)(rel > -12 ? rel : -12);
  f[MEL_BANDS + 1] = (float)(snr < 14 ? snr : 14);
  f[MEL_BANDS + 2] = (float)zcr;
  const int at = s->count % HISTORY;
  s->h_energy[at] = (float)energy;
  s->h_level[at] = (float)s->level;
  s->h_floor[at] = (float)s->noise_floor;
  store_hop(s);
}

/* ---------------------------------------------------------------- pitch --------------------------- */

static void pitch_decimate(Slot *s, double sum) {
  double y = s->p_b0 * sum + s->p_b1 * s->p_x1 + s->p_b2 * s->p_x2 - s->p_a1 * s->p_y1 - s->p_a2 * s->p_y2;
  s->p_x2 = s->p_x1;
  s->p_x1 = sum;
  s->p_y2 = s->p_y1;
  s->p_y1 = y;
  s->p_ring[s->p_written % P_RING] = (float)y;
  s->p_written++;
}

/*
 * Sum of integer-valued samples within one block (s16 values, at most 16 of them: every partial sum
 * is an integer below 2^24, exact in float32 in any order, as pitch.ts relies on too).
 */
static double integer_sum(const float *x, int from, int to) {
  v128_t acc = wasm_f32x4_splat(0);
  int k = from;
  for (; k + 3 < to; k += 4) acc = wasm_f32x4_add(acc, wasm_v128_load(x + k));
  float sum = (wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) +
              (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3));
  for (; k < to; k++) sum += x[k];
  return sum;
}

static double ordered_sum(const float *x, int from, int to, double sum) {
  for (int k = from; k < to; k++) sum += x[k];
  return sum;
}

/* pitch.ts push. */
static void pitch_push(Slot *s, const float *x, int from, int to) {
  const int block = s->p_block;
  const int integer = s->p_integer;
  int i = from;
  if (s->p_phase > 0) {
    int end = i + block - s->p_phase;
    if (end > to) end = to;
    s->p_sum = integer ? s->p_sum + integer_sum(x, i, end) : ordered_sum(x, i, end, s->p_sum);
    s->p_phase += end - i;
    i = end;
    if (s->p_phase < block) return;
    pitch_decimate(s, s->p_sum);
  }
  for (; i + block <= to; i += block) pitch_decimate(s, integer ? integer_sum(x, i, i + block) : ordered_sum(x, i, i + block, 0));
  s->p_phase = to - i;
  s->p_sum = integer ? integer_sum(x, i, to) : ordered_sum(x, i, to, 0);
}

/* pitch.ts f0AtDecimated, for the decimated sample index `end`. */
EXPORT(pitch_f0) double pitch_f0(Slot *s, int32_t end_sample) {
  /* Math.floor(endSample / block) for the (possibly negative) end sample. */
  int q = end_sample / s->p_block;
  if (end_sample % s->p_block != 0 && end_sample < 0) q--;
  const int end = q;
  const int first = end - P_SPAN;
  if (first - P_MAX_LAG < 0 || end > s->p_written || s->p_written - (first - P_MAX_LAG) > P_RING) return 0;
  float *x = s->p_span;
  const int length = P_SPAN + P_MAX_LAG;
  for (int i = 0, t = first - P_MAX_LAG; i < length; i++, t++) x[i] = s->p_ring[t % P_RING];
  double e0 = 0;
  for (int t = P_MAX_LAG; t < length; t++) e0 += (double)x[t] * x[t];
  if (e0 < 1e-9) return 0;
  float *scores = s->p_scores;
  double best = 0;
  int best_lag = 0;
  double el = 0;
  for (int t = P_MAX_LAG - P_MIN_LAG; t < length - P_MIN_LAG; t++) el += (double)x[t] * x[t];
  for (int lag = P_MIN_LAG; lag <= P_MAX_LAG; lag += 2) {
    const int pair = lag + 1 <= P_MAX_LAG;
    /* Lanes (c0, c1) and (d0, d1): the TypeScript path's four sums. */
    v128_t c = wasm_f64x2_splat(0);
    v128_t d = wasm_f64x2_splat(0);
    int t = P_MAX_LAG;
    double c0, c1, d0 = 0, d1 = 0;
    if (pair) {
      for (; t + 1 < length; t += 2) {
        v128_t x01 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(x + t));
        v128_t l01 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(x + t - lag));
        v128_t m01 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(x + t - lag - 1));
        c = wasm_f64x2_add(c, wasm_f64x2_mul(x01, l01));
        d = wasm_f64x2_add(d, wasm_f64x2_mul(x01, m01));
      }
      c0 = wasm_f64x2_extract_lane(c, 0);
      c1 = wasm_f64x2_extract_lane(c, 1);
      d0 = wasm_f64x2_extract_lane(d, 0);
      d1 = wasm_f64x2_extract_lane(d, 1);
      if (t < length) {
        c0 += (double)x[t] * x[t - lag];
        d0 += (double)x[t] * x[t - lag - 1];
      }
    } else {
      for (; t + 1 < length; t += 2) {
        v128_t x01 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(x + t));
        v128_t l01 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(x + t - lag));
        c = wasm_f64x2_add(c, wasm_f64x2_mul(x01, l01));
      }
      c0 = wasm_f64x2_extract_lane(c, 0);
      c1 = wasm_f64x2_extract_lane(c, 1);
      if (t < length) c0 += (double)x[t] * x[t - lag];
    }
    for (int k = 0; k < (pair ? 2 : 1); k++) {
      const int l = lag + k;
      if (l > P_MIN_LAG) {
        double enter = x[P_MAX_LAG - l];
        double leave = x[length - l];
        el += enter * enter - leave * leave;
      }
      double cross = k == 0 ? c0 + c1 : d0 + d1;
      double r = el > 1e-12 ? cross / __builtin_sqrt(e0 * el) : 0;
      scores[l] = (float)r;
      if (r > best) {
        best = r;
        best_lag = l;
      }
    }
  }
  for (int lag = P_MIN_LAG + 1; lag < best_lag; lag++) {
    double r = scores[lag];
    if (r >= 0.9 * best && r >= scores[lag - 1] && r >= scores[lag + 1]) {
      best_lag = lag;
      break;
    }
  }
  if (best <= 0.5) return 0;
  double lag = best_lag;
  if (best_lag > P_MIN_LAG && best_lag < P_MAX_LAG) {
    double a = scores[best_lag - 1], b = scores[best_lag], c = scores[best_lag + 1];
    double d = a - 2 * b + c;
    if (d < 0) {
      double shift = (0.5 * (a - c)) / d;
      lag += shift > 0.5 ? 0.5 : (shift < -0.5 ? -0.5 : shift);
    }
  }
  return s->p_rate / lag;
}

/* ---------------------------------------------------------------- streaming ----------------------- */

/*
 * Feeds x[from, to) (analysis-rate samples) to the pitch tracker and the feature ring, stopping at the
 * end of a hop. Returns the next index times 2, plus 1 when a hop was completed (its features are in
 * the history and its acoustics at slot_out).
 */
EXPORT(slot_push) int32_t slot_push(Slot *s, const float *x, int32_t from, int32_t to) {
  const Tables *t = s->tables;
  const int hop = t->hop;
  int end = from + (hop - s->since_hop);
  if (end > to) end = to;
  pitch_push(s, x, from, end);
  float *ring = s->ring;
  const int length = t->window_length;
  int pos = s->write_pos;
  int since = s->since_hop;
  int i = from;
  while (i < end) {
    int n = end - i;
    if (length - pos < n) n = length - pos;
    int j = 0;
    for (; j + 3 < n; j += 4) wasm_v128_store(ring + pos + j, wasm_v128_load(x + i + j));
    for (; j < n; j++) ring[pos + j] = x[i + j];
    i += n;
    since += n;
    pos += n;
    if (pos == length) pos = 0;
  }
  s->write_pos = pos;
  if (since == hop) {
    compute_hop(s);
    s->since_hop = 0;
    return 2 * end + 1;
  }
  s->since_hop = since;
  return 2 * end;
}

/*
 * slot_push until x[to] or until RUN_HOPS hops are complete, whichever comes first. Returns the next
 * index times 4 plus the hops completed. The driver analyses a frame after the hops it needs (its
 * model input, the pitch at its end): a few hops at a time keeps every frame's data well inside the
 * rings (64 hops of history, 256 ms of pitch input), so the frames are the same as hop by hop.
 */
#define RUN_HOPS 2
EXPORT(slot_run) int32_t slot_run(Slot *s, const float *x, int32_t from, int32_t to) {
  int hops = 0;
  while (from < to && hops < RUN_HOPS) {
    const int32_t r = slot_push(s, x, from, to);
    from = r >> 1;
    hops += r & 1;
  }
  return 4 * from + hops;
}

/* The s16 samples pcm[0, n) converted into x, then slot_run from 0. */
EXPORT(slot_feed_pcm) int32_t slot_feed_pcm(Slot *s, const int16_t *pcm, float *x, int32_t n) {
  pcm_to_float(pcm, x, n);
  return slot_run(s, x, 0, n);
}

/* ---------------------------------------------------------------- model --------------------------- */

/*
 * y = W·x + b, ReLU on hidden layers, in float32 lanes: the one place where this file does not
 * repeat the TypeScript arithmetic (model.ts sums each row in doubles). The weights are packed by
 * src/wasm/shared-data.ts in blocks of four output rows, [block][input][row], so one vector holds
 * the four rows' weights of one input and the accumulators need no horizontal sum; four blocks
 * (16 rows) run at once to share each broadcast input and keep four independent add chains. Rows
 * past fan_out (padding to a multiple of four) have zero weights and bias and are written too: the
 * activation buffers are padded for them. The result is within float32 rounding of the double sums
 * (tested: frames within 1e-4 of the TypeScript path's).
 */
static void layer(const float *x, float *y, const float *w, const float *b, int fan_in, int fan_out, int relu) {
  const int blocks = (fan_out + 3) >> 2;
  const v128_t zero = wasm_f32x4_splat(0);
  int blk = 0;
  for (; blk + 3 < blocks; blk += 4) {
    const float *w0 = w + 4 * blk * fan_in;
    const float *w1 = w0 + 4 * fan_in, *w2 = w1 + 4 * fan_in, *w3 = w2 + 4 * fan_in;
    v128_t a0 = wasm_v128_load(b + 4 * blk), a1 = wasm_v128_load(b + 4 * blk + 4);
    v128_t a2 = wasm_v128_load(b + 4 * blk + 8), a3 = wasm_v128_load(b + 4 * blk + 12);
    for (int i = 0; i < fan_in; i++) {
      v128_t xv = wasm_f32x4_splat(x[i]);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load(w0 + 4 * i), xv));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_v128_load(w1 + 4 * i), xv));
      a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wasm_v128_load(w2 + 4 * i), xv));
      a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wasm_v128_load(w3 + 4 * i), xv));
    }
    if (relu) {
      a0 = wasm_f32x4_pmax(zero, a0);
      a1 = wasm_f32x4_pmax(zero, a1);
      a2 = wasm_f32x4_pmax(zero, a2);
      a3 = wasm_f32x4_pmax(zero, a3);
    }
    wasm_v128_store(y + 4 * blk, a0);
    wasm_v128_store(y + 4 * blk + 4, a1);
    wasm_v128_store(y + 4 * blk + 8, a2);
    wasm_v128_store(y + 4 * blk + 12, a3);
  }
  for (; blk < blocks; blk++) {
    const float *w0 = w + 4 * blk * fan_in;
    /* Two chains (even and odd inputs) for the few blocks left over. */
    v128_t a0 = wasm_v128_load(b + 4 * blk), a1 = zero;
    int i = 0;
    for (; i + 1 < fan_in; i += 2) {
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load(w0 + 4 * i), wasm_f32x4_splat(x[i])));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_v128_load(w0 + 4 * i + 4), wasm_f32x4_splat(x[i + 1])));
    }
    if (i < fan_in) a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load(w0 + 4 * i), wasm_f32x4_splat(x[i])));
    a0 = wasm_f32x4_add(a0, a1);
    if (relu) a0 = wasm_f32x4_pmax(zero, a0);
    wasm_v128_store(y + 4 * blk, a0);
  }
}

/*
 * Assembles the model input of the frame whose first hop is `base` from the slot's history (hop
 * indices clamped to [0, newest]) and runs the layers; returns the logits (the softmax is the
 * caller's, as in model.ts).
 */
EXPORT(slot_model) float *slot_model(Slot *s, int32_t base, int32_t newest) {
  const Model *m = s->model;
  const int dim = m->dim;
  float *in = m->acts[0];
  const float *feats = s->history;
  int o = 0;
  for (int c = 0; c < m->contexts; c++) {
    const int from = m->ctx_from[c];
    const int to = m->ctx_to[c];
    const int n = to - from + 1;
    const double scale = 1.0 / n;
    for (int h = base + from; h <= base + to; h++) {
      int idx = h < 0 ? 0 : (h < newest ? h : newest);
      const float *src = feats + (idx % HISTORY) * dim;
      if (h == base + from)
        for (int i = 0; i < dim; i++) in[o + i] = src[i];
      else
        for (int i = 0; i < dim; i++) in[o + i] = in[o + i] + src[i];
    }
    if (n > 1)
      for (int i = 0; i < dim; i++) in[o + i] = (float)((double)in[o + i] * scale);
    o += dim;
  }
  for (int l = 0; l < m->layers; l++)
    layer(m->acts[l], m->acts[l + 1], m->weights[l], m->biases[l], m->sizes[l], m->sizes[l + 1], l < m->layers - 1);
  return m->acts[m->layers];
}

/*
 * e^x for x ≤ 0 (the softmax's shifted logits): x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its
 * Taylor series to r^13 (the first term left out is below 2^-57 of the result), times 2^k. Within
 * an ulp or two of Math.exp, which the TypeScript softmax uses. Below −700 it returns 0: the
 * softmax stores float32 (0 from there) and adds the term to a sum ≥ 1, so nothing changes.
 */
static double exp_neg(double x) {
  if (x < -700) return 0;
  const double k = __builtin_nearbyint(x * 1.44269504088896340736);
  const double r = (x - k * LN2_HI) - k * LN2_LO;
  double p = 1.0 / 6227020800.0; /* 1/13! */
  static const double inv[13] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
                                 1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,      1.0 / 120.0,
                                 1.0 / 24.0,        1.0 / 6.0,        0.5,              1.0,
                                 1.0};
  for (int i = 0; i < 13; i++) p = p * r + inv[i];
  union {
    double d;
    uint64_t u;
  } scale = {.u = (uint64_t)((int64_t)k + 1023) << 52};
  return p * scale.d;
}

EXPORT(test_exp) double test_exp(double x) { return exp_neg(x); }

/*
 * Everything the driver needs of frame j, in one call: its acoustics (the peak energy of its
 * `hops` hops from `base`, level and noise floor at its last hop, pitch at `end_sample` when the
 * frame stands 1.5 above the noise floor) and, when it has speech activity, the softmax of the
 * model reading hops up to `newest`; otherwise silence. The driver's analyse() and animator.ts
 * speechActivity, in the same double arithmetic on the same float32 values. Returns the Slot's
 * frame_acoustics (4 doubles), followed by frame_posteriors (float32).
 */
EXPORT(slot_frame) double *slot_frame(Slot *s, int32_t base, int32_t hops, int32_t newest, int32_t end_sample) {
  double energy = -__builtin_inf();
  for (int h = base; h < base + hops; h++) {
    const double e = s->h_energy[h % HISTORY];
    if (e > energy) energy = e;
  }
  const int last = (base + hops - 1) % HISTORY;
  const double noise_floor = s->h_floor[last];
  double *a = s->frame_acoustics;
  a[0] = energy;
  a[1] = s->h_level[last];
  a[2] = noise_floor;
  a[3] = energy - noise_floor > 1.5 ? pitch_f0(s, end_sample) : 0;
  const Model *m = s->model;
  const int classes = m->sizes[m->layers];
  float *post = s->frame_posteriors;
  /* speechActivity(acoustics) > 0: min(1, max(0, (snr − 0.25) / 0.6)) > 0. */
  const double activity = (energy - noise_floor - 0.25) / 0.6;
  if (activity > 0) {
    const float *logits = slot_model(s, base, newest);
    double max = -__builtin_inf();
    for (int i = 0; i < classes; i++)
      if (logits[i] > max) max = logits[i];
    double sum = 0;
    for (int i = 0; i < classes; i++) {
      const double e = exp_neg(logits[i] - max);
      post[i] = (float)e;
      sum += e;
    }
    for (int i = 0; i < classes; i++) post[i] = (float)(post[i] / sum);
  } else {
    post[0] = 1;
    for (int i = 1; i < classes; i++) post[i] = 0;
  }
  return a;
}
