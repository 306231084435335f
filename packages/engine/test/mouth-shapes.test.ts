import { ARKIT_INDEX, VISEMES } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { CLOSURE_PRESS, MOUTH_CHANNELS, mixMouth } from '../src/mouth-shapes.js';

const JAW = ARKIT_INDEX.jawOpen;
const CLOSE = ARKIT_INDEX.mouthClose;

/** The mouth coefficients of one viseme at weight `w` (the rest silence). */
function mixOne(viseme: string, w: number, bilabial: number, loudness: number): Float32Array {
  const visemes = new Float32Array(VISEMES.length);
  visemes[VISEMES.indexOf(viseme as (typeof VISEMES)[number])] = w;
  const expression = new Float32Array(52);
  mixMouth(visemes, bilabial, loudness, expression);
  return expression;
}

describe('mouth shapes (ARKit convention)', () => {
  it('never sets mouthClose above jawOpen, for any viseme, weight, closure and loudness', () => {
    for (const viseme of VISEMES)
      for (const w of [0, 0.3, 1])
        for (const bilabial of [0, 0.15, 0.6, 1])
          for (const loudness of [0, 0.5, 1]) {
            const e = mixOne(viseme, w, bilabial, loudness);
            expect(
              e[CLOSE],
              `${viseme} w ${w} bilabial ${bilabial} loudness ${loudness}`,
            ).toBeLessThanOrEqual(e[JAW]!);
          }
  });

  it('closes p/b/m with the jaw shut and the lips pressed and rolled, not with mouthClose', () => {
    const e = mixOne('PP', 1, 1, 0.5);
    expect(e[JAW]).toBeLessThan(0.01);
    expect(e[CLOSE]).toBeLessThan(0.01);
    expect(e[ARKIT_INDEX.mouthPressLeft]).toBeCloseTo(CLOSURE_PRESS, 5);
    expect(e[ARKIT_INDEX.mouthPressRight]).toBeCloseTo(CLOSURE_PRESS, 5);
    expect(e[ARKIT_INDEX.mouthRollLower]).toBeGreaterThan(0.3);
    expect(e[ARKIT_INDEX.mouthRollUpper]).toBeGreaterThan(0.2);
  });

  it('a bilabial inside an open vowel shuts most of the jaw and closes the rest with mouthClose', () => {
    const visemes = new Float32Array(VISEMES.length);
    visemes[VISEMES.indexOf('aa')] = 1;
    const e = new Float32Array(52);
    mixMouth(visemes, 1, 1, e);
    expect(e[JAW]).toBeGreaterThan(0.05);
    expect(e[JAW]).toBeLessThan(0.15);
    // mouthClose equals what is left of the opening: the lips meet over it.
    expect(e[CLOSE]).toBeCloseTo(e[JAW]!, 6);
    expect(e[ARKIT_INDEX.mouthPressLeft]).toBeCloseTo(CLOSURE_PRESS, 5);
  });

  it('leaves rest at rest and opens "aa" without closing the lips', () => {
    const rest = mixOne('sil', 1, 0, 0.5);
    for (const c of MOUTH_CHANNELS) expect(rest[c]).toBe(0);
    const aa = mixOne('aa', 1, 0, 1);
    expect(aa[JAW]).toBeGreaterThan(0.6);
    expect(aa[CLOSE]).toBe(0);
    expect(aa[ARKIT_INDEX.mouthPressLeft]).toBe(0);
  });

  it('owns the lips’ own closing channels', () => {
    for (const name of ['mouthPressLeft', 'mouthPressRight', 'mouthRollLower', 'mouthRollUpper'] as const)
      expect(MOUTH_CHANNELS).toContain(ARKIT_INDEX[name]);
  });
});
