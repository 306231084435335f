import { readFileSync } from 'node:fs';
import { isAvatarError, VISEMES } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { FEATURE_DIM } from '../src/features.js';
import {
  base64ToBytes,
  MlpRunner,
  type ModelWeights,
  parseModelWeights,
  serializeModelWeights,
  slotDim,
} from '../src/model.js';
import { defaultModelWeights } from '../src/weights.js';

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

  it('rejects a projection that does not fit the header', () => {
    const parsed = parseModelWeights(bundled);
    const rows = slotDim(parsed.header);
    const broken: ModelWeights[] = [
      { ...parsed, header: { ...parsed.header, projection: [1, 2, 3] } },
      { ...parsed, header: { ...parsed.header, projection: new Array(FEATURE_DIM * (rows + 1)).fill(0) } },
      { ...parsed, header: { ...parsed.header, projection: new Array(FEATURE_DIM * rows).fill(Number.NaN) } },
    ];
    for (const model of broken) {
      try {
        parseModelWeights(serializeModelWeights(model));
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
