/**
 * A ring of recent feature hops, standardised for the model, with the acoustics animation needs;
 * and the assembly of the model's input from context slots.
 */
import { FEATURE_DIM, type HopAcoustics } from './features.js';
import type { ContextSlot } from './model.js';

/** Enough for the oldest context slot plus the longest lookahead. */
const CAPACITY = 64;
/** Standardised features are clipped: absent bands (8 kHz input) must not dominate. */
const CLIP = 6;

export class HopHistory {
  /** Hops pushed so far; hop indices run 0..count-1. */
  count = 0;
  private readonly features = new Float32Array(CAPACITY * FEATURE_DIM);
  readonly energy = new Float32Array(CAPACITY);
  readonly level = new Float32Array(CAPACITY);
  readonly noiseFloor = new Float32Array(CAPACITY);
  private readonly invStd: Float32Array;

  constructor(
    private readonly mean: ArrayLike<number>,
    std: ArrayLike<number>,
  ) {
    this.invStd = new Float32Array(FEATURE_DIM);
    for (let i = 0; i < FEATURE_DIM; i++) this.invStd[i] = 1 / Math.max(1e-6, std[i] ?? 1);
  }

  reset(): void {
    this.count = 0;
  }

  push(features: Float32Array, acoustics: HopAcoustics): void {
    const slot = this.count % CAPACITY;
    const dim = FEATURE_DIM;
    const base = slot * dim;
    const mean = this.mean;
    const inv = this.invStd;
    for (let i = 0; i < dim; i++) {
      const z = (features[i]! - mean[i]!) * inv[i]!;
      this.features[base + i] = z > CLIP ? CLIP : Math.max(z, -CLIP);
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
    const dim = FEATURE_DIM;
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
