/**
 * The trainer against the runtime it trains for: the same model input from the same features,
 * the per-hop projection and its gradient. The runtime's internals are read from the engine's
 * sources (tests may reach into another package's sources); the trainer through its own modules.
 */
import { describe, expect, it } from 'vitest';
import { FEATURE_DIM, FeatureExtractor } from '../../engine/src/features.js';
import { HopHistory } from '../../engine/src/hop-history.js';
import { slotDim } from '../../engine/src/model.js';
import { defaultModelWeights } from '../../engine/src/weights.js';
import { buzz } from '../../engine/test/helpers.js';
import { assembleLinear, extractHops, project, standardise } from '../train/examples.js';
import { MlpTrainer } from '../train/mlp-trainer.js';
import { principalProjection, symmetricEigen } from '../train/pca.js';

describe('training uses the runtime features', () => {
  it('assembles the same model input as the driver', () => {
    const { header } = defaultModelWeights();
    const pcm = buzz(16000, 1, 4);
    const samples = Float32Array.from(pcm, (v) => v / 32768);
    const extracted = extractHops({ samples, rate: 16000 }, header.channelPrior, 3);
    const { count } = extracted;
    standardise(extracted.hops, count, header.featureMean, header.featureStd);
    const hops = header.projection ? project(extracted.hops, count, header.projection) : extracted.hops;

    const history = new HopHistory(header.featureMean, header.featureStd, header.projection);
    const runtime = new Float32Array(header.layers[0]!);
    const training = new Float32Array(header.layers[0]!);
    let checked = 0;
    const extractor = new FeatureExtractor((f, a) => {
      history.push(f, a);
      const newest = history.count - 1;
      const base = newest - 2;
      if (base < 0) return;
      history.assemble(runtime, base, header.context, newest);
      assembleLinear(training, hops, base, header.context, newest, slotDim(header));
      expect(Array.from(runtime)).toEqual(Array.from(training));
      checked++;
    }, header.channelPrior);
    extractor.push(samples);
    expect(checked).toBeGreaterThan(40);
  });
});

describe('per-hop projection', () => {
  it('finds the principal axes of a symmetric matrix', () => {
    // diag(3, 1) rotated by 30°: eigenvalues 3 and 1, the first axis at 30°.
    const c = Math.cos(Math.PI / 6);
    const s = Math.sin(Math.PI / 6);
    const m = Float64Array.from([3 * c * c + s * s, 2 * c * s, 2 * c * s, 3 * s * s + c * c]);
    const { values, vectors } = symmetricEigen(m, 2);
    expect(values[0]).toBeCloseTo(3, 10);
    expect(values[1]).toBeCloseTo(1, 10);
    expect(Math.abs(vectors[0]![0]!)).toBeCloseTo(c, 10);
    expect(Math.abs(vectors[0]![1]!)).toBeCloseTo(s, 10);
  });

  it('keeps all the variance of data that lies in a subspace', () => {
    const dim = 4;
    const count = 200;
    const hops = new Float32Array(count * dim);
    for (let h = 0; h < count; h++) {
      const a = Math.sin(h * 0.37);
      const b = Math.cos(h * 1.3);
      hops.set([a, a + b, b, -a], h * dim);
    }
    const { projection, kept } = principalProjection([{ hops, count }], dim, 2);
    expect(kept).toBeCloseTo(1, 6);
    expect(projection.length).toBe(2 * dim);
  });

  it('trains the shared projection: its gradient matches finite differences', () => {
    const slots = 2;
    const inDim = 3;
    const rows = 2;
    const initial = [0.5, -0.2, 0.1, 0.3, 0.4, -0.6];
    const make = () =>
      new MlpTrainer({
        layers: [slots * rows, 4, 3],
        seed: 3,
        learningRate: 1,
        weightDecay: 0,
        batchSize: 1,
        projection: { slots, inDim, initial },
      });
    const input = Float32Array.from([0.9, -0.4, 0.2, -0.3, 0.8, 0.5]);
    const target = Float32Array.from([0.2, 0.7, 0.1]);
    const loss = (t: MlpTrainer) => {
      const out = t.forward(input);
      return -target.reduce((sum, p, i) => sum + p * Math.log(out[i]!), 0);
    };
    // One SGD-like step of Adam moves each parameter by ≈ lr·sign(gradient) on the first step;
    // compare that sign with the finite-difference slope of the loss in each projection entry.
    const trained = make();
    trained.forward(input);
    trained.backward(target);
    trained.update(1);
    const eps = 1e-3;
    for (let i = 0; i < initial.length; i++) {
      const up = make();
      up.projection![i] = initial[i]! + eps;
      const down = make();
      down.projection![i] = initial[i]! - eps;
      const slope = (loss(up) - loss(down)) / (2 * eps);
      if (Math.abs(slope) < 1e-4) continue;
      expect(Math.sign(trained.projection![i]! - initial[i]!)).toBe(-Math.sign(slope));
    }
  });

  it('projects each hop in the history exactly as the trainer does', () => {
    const { header } = defaultModelWeights();
    // A random projection to 5 rows on top of the bundled statistics, and a matching first layer.
    const rows = 5;
    const projection = Array.from({ length: rows * FEATURE_DIM }, (_, i) => Math.sin(i * 1.7) * 0.3);
    const history = new HopHistory(header.featureMean, header.featureStd, projection);
    const pcm = buzz(16000, 1, 4);
    const samples = Float32Array.from(pcm, (v) => v / 32768);
    const { hops, count } = extractHops({ samples, rate: 16000 }, header.channelPrior, 3);
    standardise(hops, count, header.featureMean, header.featureStd);
    const projected = project(hops, count, projection);
    const runtime = new Float32Array(header.context.length * rows);
    const training = new Float32Array(header.context.length * rows);
    let checked = 0;
    const extractor = new FeatureExtractor((f, a) => {
      history.push(f, a);
      const newest = history.count - 1;
      if (newest < 2) return;
      history.assemble(runtime, newest - 2, header.context, newest);
      assembleLinear(training, projected, newest - 2, header.context, newest, rows);
      expect(Array.from(runtime)).toEqual(Array.from(training));
      checked++;
    }, header.channelPrior);
    extractor.push(samples);
    expect(checked).toBeGreaterThan(40);
  });
});
