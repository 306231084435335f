import { readFileSync } from 'node:fs';
import { isAvatarError, VISEMES } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { FEATURE_DIM, FeatureExtractor } from '../src/features.js';
import { HopHistory } from '../src/hop-history.js';
import { base64ToBytes, MlpRunner, parseModelWeights, serializeModelWeights } from '../src/model.js';
import { defaultModelWeights } from '../src/weights.js';
import { assembleLinear, extractHops, standardise } from '../train/examples.js';
import { buzz } from './helpers.js';

const bundled = new Uint8Array(readFileSync(new URL('../weights/lipsync.bin', import.meta.url)));

describe('weights', () => {
  it('bundles exactly weights/lipsync.bin', () => {
    const parsed = parseModelWeights(bundled);
    const embedded = defaultModelWeights();
    expect(embedded.header).toEqual(parsed.header);
    expect(embedded.weights.map((w) => Array.from(w))).toEqual(parsed.weights.map((w) => Array.from(w)));
    expect(parsed.header.classes).toEqual([...VISEMES]);
    expect(parsed.header.featureDim).toBe(FEATURE_DIM);
  });

  it('round-trips through serialize/parse byte for byte', () => {
    const parsed = parseModelWeights(bundled);
    expect(Array.from(serializeModelWeights(parsed))).toEqual(Array.from(bundled));
  });

  it('rejects damaged files with invalidRequest', () => {
    for (const bytes of [
      new Uint8Array(3),
      bundled.slice(0, bundled.length - 4),
      Uint8Array.from([1, 2, 3, 4, 0, 0, 0, 0]),
    ]) {
      try {
        parseModelWeights(bytes);
        expect.unreachable();
      } catch (error) {
        expect(isAvatarError(error) && error.code).toBe('invalidRequest');
      }
    }
  });

  it('decodes base64 like Node does', () => {
    const bytes = Uint8Array.from({ length: 257 }, (_, i) => (i * 37) & 255);
    for (const n of [0, 1, 2, 3, 100, 257]) {
      const slice = bytes.subarray(0, n);
      expect(Array.from(base64ToBytes(Buffer.from(slice).toString('base64')))).toEqual(Array.from(slice));
    }
  });

  it('outputs a probability distribution', () => {
    const mlp = new MlpRunner(defaultModelWeights());
    mlp.input.fill(0.3);
    const out = mlp.run();
    expect(out.length).toBe(15);
    expect(out.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });
});

describe('training uses the runtime features', () => {
  it('assembles the same model input as the driver', () => {
    const { header } = defaultModelWeights();
    const pcm = buzz(16000, 1, 4);
    const samples = Float32Array.from(pcm, (v) => v / 32768);
    const { hops, count } = extractHops({ samples, rate: 16000 }, header.channelPrior, 3);
    standardise(hops, count, header.featureMean, header.featureStd);

    const history = new HopHistory(header.featureMean, header.featureStd);
    const runtime = new Float32Array(header.layers[0]!);
    const training = new Float32Array(header.layers[0]!);
    let checked = 0;
    const extractor = new FeatureExtractor((f, a) => {
      history.push(f, a);
      const newest = history.count - 1;
      const base = newest - 2;
      if (base < 0) return;
      history.assemble(runtime, base, header.context, newest);
      assembleLinear(training, hops, base, header.context, newest);
      expect(Array.from(runtime)).toEqual(Array.from(training));
      checked++;
    }, header.channelPrior);
    extractor.push(samples);
    expect(checked).toBeGreaterThan(40);
  });
});
