/**
 * Hand-written MLP training: ReLU hidden layers, softmax output, soft-label cross-entropy,
 * mini-batch Adam with decoupled weight decay. Single-threaded, Float32Arrays, no allocation in
 * the inner loops: fast enough for the few-ten-thousand-parameter models the runtime can afford.
 */
import { mulberry32 } from '@avatar-drive/core';
import { softmaxInPlace } from '@avatar-drive/engine/lab';

export interface TrainerOptions {
  /** Layer sizes, input first (after the projection, when there is one). */
  layers: number[];
  /**
   * Optional linear projection shared by every slot of the input (ModelHeader.projection): the
   * input is `slots × inDim` values, each slot mapped to `initial.length / inDim` values by the same
   * matrix before the first layer. Trained with the rest, starting from `initial` (row-major).
   */
  projection?: { slots: number; inDim: number; initial: ArrayLike<number> };
  seed: number;
  learningRate: number;
  weightDecay: number;
  batchSize: number;
}

/** A deterministic PRNG for initialisation and shuffling (core's mulberry32). */
export const makeRandom: (seed: number) => () => number = mulberry32;

export class MlpTrainer {
  readonly layers: number[];
  readonly weights: Float32Array[] = [];
  readonly biases: Float32Array[] = [];
  private readonly gradW: Float32Array[] = [];
  private readonly gradB: Float32Array[] = [];
  private readonly mW: Float32Array[] = [];
  private readonly vW: Float32Array[] = [];
  private readonly mB: Float32Array[] = [];
  private readonly vB: Float32Array[] = [];
  /** Activations per layer for the current sample. */
  private readonly acts: Float32Array[];
  private readonly deltas: Float32Array[];
  private step = 0;
  learningRate: number;
  /** The shared projection (rows × inDim, row-major), when configured. */
  readonly projection: Float32Array | null = null;
  private readonly gradP: Float32Array | null = null;
  private readonly mP: Float32Array | null = null;
  private readonly vP: Float32Array | null = null;
  /** The raw (unprojected) input of the current sample. */
  private readonly rawInput: Float32Array | null = null;

  constructor(private readonly options: TrainerOptions) {
    this.layers = options.layers;
    this.learningRate = options.learningRate;
    const random = makeRandom(options.seed);
    const gaussian = () =>
      Math.sqrt(-2 * Math.log(Math.max(random(), 1e-12))) * Math.cos(2 * Math.PI * random());
    for (let l = 1; l < this.layers.length; l++) {
      const fanIn = this.layers[l - 1]!;
      const fanOut = this.layers[l]!;
      const w = new Float32Array(fanIn * fanOut);
      const scale = Math.sqrt(2 / fanIn) * (l === this.layers.length - 1 ? 0.5 : 1);
      for (let i = 0; i < w.length; i++) w[i] = scale * gaussian();
      this.weights.push(w);
      this.biases.push(new Float32Array(fanOut));
      for (const list of [this.gradW, this.mW, this.vW]) list.push(new Float32Array(fanIn * fanOut));
      for (const list of [this.gradB, this.mB, this.vB]) list.push(new Float32Array(fanOut));
    }
    this.acts = this.layers.map((n) => new Float32Array(n));
    this.deltas = this.layers.map((n) => new Float32Array(n));
    const projection = options.projection;
    if (projection) {
      const rows = projection.initial.length / projection.inDim;
      if (rows * projection.slots !== this.layers[0])
        throw new Error('projection rows × slots must equal the first layer size');
      this.projection = Float32Array.from(projection.initial);
      this.gradP = new Float32Array(this.projection.length);
      this.mP = new Float32Array(this.projection.length);
      this.vP = new Float32Array(this.projection.length);
      this.rawInput = new Float32Array(projection.slots * projection.inDim);
    }
  }

  /** Values per slot after the projection. */
  private get projectedDim(): number {
    return this.layers[0]! / this.options.projection!.slots;
  }

  /** Forward pass of one input (copied into the first activation); returns the softmax output. */
  forward(input: Float32Array): Float32Array {
    if (this.projection) {
      this.rawInput!.set(input);
      const { slots, inDim } = this.options.projection!;
      const rows = this.projectedDim;
      const p = this.projection;
      const x0 = this.acts[0]!;
      for (let s = 0; s < slots; s++) {
        for (let r = 0; r < rows; r++) {
          let sum = 0;
          for (let i = 0; i < inDim; i++) sum += p[r * inDim + i]! * input[s * inDim + i]!;
          x0[s * rows + r] = sum;
        }
      }
    } else {
      this.acts[0]!.set(input);
    }
    const last = this.weights.length - 1;
    for (let l = 0; l <= last; l++) {
      const x = this.acts[l]!;
      const y = this.acts[l + 1]!;
      const w = this.weights[l]!;
      const b = this.biases[l]!;
      const fanIn = x.length;
      for (let o = 0, row = 0; o < y.length; o++, row += fanIn) {
        let s = b[o]!;
        for (let i = 0; i < fanIn; i++) s += w[row + i]! * x[i]!;
        y[o] = l < last && s < 0 ? 0 : s;
      }
    }
    const out = this.acts[last + 1]!;
    softmaxInPlace(out);
    return out;
  }

  /**
   * Accumulates the gradient of soft-label cross-entropy for one sample (after {@link forward});
   * returns the sample's loss.
   */
  backward(target: Float32Array): number {
    const last = this.weights.length - 1;
    const out = this.acts[last + 1]!;
    const dOut = this.deltas[last + 1]!;
    let loss = 0;
    for (let i = 0; i < out.length; i++) {
      dOut[i] = out[i]! - target[i]!;
      if (target[i]! > 0) loss -= target[i]! * Math.log(Math.max(out[i]!, 1e-9));
    }
    for (let l = last; l >= 0; l--) {
      const x = this.acts[l]!;
      const dy = this.deltas[l + 1]!;
      const w = this.weights[l]!;
      const gw = this.gradW[l]!;
      const gb = this.gradB[l]!;
      const fanIn = x.length;
      const dx = this.deltas[l]!;
      // The input's gradient is needed below the first layer only to train the projection.
      const needDx = l > 0 || this.projection !== null;
      if (needDx) dx.fill(0);
      for (let o = 0, row = 0; o < dy.length; o++, row += fanIn) {
        const d = dy[o]!;
        if (d === 0) continue;
        gb[o] = gb[o]! + d;
        for (let i = 0; i < fanIn; i++) gw[row + i] = gw[row + i]! + d * x[i]!;
        if (needDx) for (let i = 0; i < fanIn; i++) dx[i] = dx[i]! + d * w[row + i]!;
      }
      if (l > 0) {
        // ReLU derivative.
        for (let i = 0; i < fanIn; i++) if (x[i]! <= 0) dx[i] = 0;
      }
    }
    if (this.projection) {
      // The projection is linear and shared: its gradient sums over the slots.
      const { slots, inDim } = this.options.projection!;
      const rows = this.projectedDim;
      const dz = this.deltas[0]!;
      const raw = this.rawInput!;
      const g = this.gradP!;
      for (let s = 0; s < slots; s++) {
        for (let r = 0; r < rows; r++) {
          const d = dz[s * rows + r]!;
          if (d === 0) continue;
          for (let i = 0; i < inDim; i++) g[r * inDim + i] = g[r * inDim + i]! + d * raw[s * inDim + i]!;
        }
      }
    }
    return loss;
  }

  /** Applies one Adam step with the accumulated gradient of `count` samples, then clears it. */
  update(count: number): void {
    this.step++;
    const lr = this.learningRate;
    const b1 = 0.9;
    const b2 = 0.999;
    const c1 = 1 / (1 - b1 ** this.step);
    const c2 = 1 / (1 - b2 ** this.step);
    const inv = 1 / count;
    const decay = this.options.weightDecay;
    const apply = (p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, decayed: boolean) => {
      for (let i = 0; i < p.length; i++) {
        const gi = g[i]! * inv;
        const mi = b1 * m[i]! + (1 - b1) * gi;
        const vi = b2 * v[i]! + (1 - b2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        let next = p[i]! - (lr * (mi * c1)) / (Math.sqrt(vi * c2) + 1e-8);
        if (decayed) next -= lr * decay * p[i]!;
        p[i] = next;
        g[i] = 0;
      }
    };
    if (this.projection) apply(this.projection, this.gradP!, this.mP!, this.vP!, false);
    for (let l = 0; l < this.weights.length; l++) {
      apply(this.weights[l]!, this.gradW[l]!, this.mW[l]!, this.vW[l]!, true);
      apply(this.biases[l]!, this.gradB[l]!, this.mB[l]!, this.vB[l]!, false);
    }
  }
}
