/**
 * A ring of recent feature hops, standardised (and projected, when the model has a projection) for
 * the model, with the acoustics animation needs; and the assembly of the model's input from context
 * slots.
 */
import { FEATURE_DIM, type HopAcoustics } from './features.js';
import type { ContextSlot } from './model.js';

/** Enough for the oldest context slot plus the longest lookahead. */
const CAPACITY = 64;
/** Standardised features are clipped: absent bands (8 kHz input) must not dominate. */
const CLIP = 6;

/**
 * Standardises one hop of features in place: (x − mean) / std, clipped to ±{@link CLIP}. The
 * trainer calls it too, so training and runtime round identically.
 */
export function standardiseHop(
  values: Float32Array,
  offset: number,
  mean: ArrayLike<number>,
  invStd: Float32Array,
): void {
  for (let i = 0; i < FEATURE_DIM; i++) {
    const z = (values[offset + i]! - mean[i]!) * invStd[i]!;
    values[offset + i] = z > CLIP ? CLIP : Math.max(z, -CLIP);
  }
}

/** 1 / std as the float32 table {@link standardiseHop} reads. */
export function inverseStd(std: ArrayLike<number>): Float32Array {
  const inv = new Float32Array(FEATURE_DIM);
  for (let i = 0; i < FEATURE_DIM; i++) inv[i] = 1 / Math.max(1e-6, std[i] ?? 1);
  return inv;
}

/**
 * Projects one standardised hop: `out[outOffset + r] = Σ_i projection[r·FEATURE_DIM + i] · z[zOffset + i]`
 * for each of the projection's rows, each sum taken in input order. Shared by the runtime and the
 * trainer, so both round identically.
 */
export function projectHop(
  z: Float32Array,
  zOffset: number,
  projection: Float64Array,
  out: Float32Array,
  outOffset: number,
): void {
  const dim = FEATURE_DIM;
  const rows = projection.length / dim;
  let r = 0;
  // Four rows per pass share each load of z and run four independent sums.
  for (; r + 3 < rows; r += 4) {
    const p0 = r * dim;
    const p1 = p0 + dim;
    const p2 = p1 + dim;
    const p3 = p2 + dim;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < dim; i++) {
      const x = z[zOffset + i]!;
      s0 += projection[p0 + i]! * x;
      s1 += projection[p1 + i]! * x;
      s2 += projection[p2 + i]! * x;
      s3 += projection[p3 + i]! * x;
    }
    out[outOffset + r] = s0;
    out[outOffset + r + 1] = s1;
    out[outOffset + r + 2] = s2;
    out[outOffset + r + 3] = s3;
  }
  for (; r < rows; r++) {
    let s = 0;
    for (let i = 0; i < dim; i++) s += projection[r * dim + i]! * z[zOffset + i]!;
    out[outOffset + r] = s;
  }
}

/**
 * The float64 copy of each model's projection, shared by every history of that model (like the MLP's
 * widened weights: hundreds of drivers in one service should not each hold a copy).
 */
const widenedProjections = new WeakMap<ArrayLike<number>, Float64Array>();

function widenedProjection(projection: ArrayLike<number>): Float64Array {
  let widened = widenedProjections.get(projection);
  if (widened === undefined) {
    widened = Float64Array.from(projection);
    widenedProjections.set(projection, widened);
  }
  return widened;
}

export class HopHistory {
  /** Hops pushed so far; hop indices run 0..count-1. */
  count = 0;
  /** Values stored per hop: the projection's rows, or FEATURE_DIM without one. */
  readonly dim: number;
  private readonly features: Float32Array;
  readonly energy = new Float32Array(CAPACITY);
  readonly level = new Float32Array(CAPACITY);
  readonly noiseFloor = new Float32Array(CAPACITY);
  private readonly invStd: Float32Array;
  private readonly projection: Float64Array | null;
  private readonly standardised = new Float32Array(FEATURE_DIM);

  /** `projection`: the model header's, row-major rows × FEATURE_DIM (see ModelHeader.projection). */
  constructor(
    private readonly mean: ArrayLike<number>,
    std: ArrayLike<number>,
    projection?: ArrayLike<number>,
  ) {
    this.invStd = inverseStd(std);
    this.projection = projection ? widenedProjection(projection) : null;
    this.dim = projection ? projection.length / FEATURE_DIM : FEATURE_DIM;
    this.features = new Float32Array(CAPACITY * this.dim);
  }

  reset(): void {
    this.count = 0;
  }

  push(features: Float32Array, acoustics: HopAcoustics): void {
    const slot = this.count % CAPACITY;
    const base = slot * this.dim;
    if (this.projection) {
      const z = this.standardised;
      z.set(features);
      standardiseHop(z, 0, this.mean, this.invStd);
      projectHop(z, 0, this.projection, this.features, base);
    } else {
      this.features.set(features, base);
      standardiseHop(this.features, base, this.mean, this.invStd);
    }
    this.energy[slot] = acoustics.energy;
    this.level[slot] = acoustics.level;
    this.noiseFloor[slot] = acoustics.noiseFloor;
    this.count++;
  }

  /** Ring slot of hop `index` (caller keeps it within the stored range). */
  slot(index: number): number {
    return index % CAPACITY;
  }

  /**
   * Fills `out` with the context of the frame whose first hop is `base`: each slot is the mean of
   * its hops, hop indices clamped to [0, newest] (the utterance start repeats its first hop;
   * nothing beyond the allowed lookahead is read, whatever has arrived).
   */
  assemble(out: Float32Array, base: number, context: readonly ContextSlot[], newest: number): void {
    const feats = this.features;
    const dim = this.dim;
    let o = 0;
    for (let c = 0; c < context.length; c++) {
      const from = context[c]![0];
      const to = context[c]![1];
      const n = to - from + 1;
      const scale = 1 / n;
      // The first hop is copied (0 + x is x), the others added in order.
      for (let h = base + from; h <= base + to; h++) {
        const idx = h < 0 ? 0 : Math.min(h, newest);
        const src = (idx % CAPACITY) * dim;
        if (h === base + from) for (let i = 0; i < dim; i++) out[o + i] = feats[src + i]!;
        else for (let i = 0; i < dim; i++) out[o + i] = out[o + i]! + feats[src + i]!;
      }
      if (n > 1) for (let i = 0; i < dim; i++) out[o + i] = out[o + i]! * scale;
      o += dim;
    }
  }
}
