import {
  ARKIT_BLENDSHAPES,
  ARKIT_INDEX,
  createDriveFrame,
  meaningOfTargetName,
  VISEME_INDEX,
  VISEMES,
} from '@avatar-drive/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { channelWeight, mapMorphTargets, resolveMorphTarget } from '../src/morph-names.js';

const arkit = (...names: (typeof ARKIT_BLENDSHAPES)[number][]) => ({
  kind: 'arkit',
  indices: names.map((n) => ARKIT_INDEX[n]),
});
const viseme = (name: (typeof VISEMES)[number]) => ({ kind: 'viseme', indices: [VISEME_INDEX[name]] });

describe('resolveMorphTarget', () => {
  it('maps every ARKit name to its own channel', () => {
    ARKIT_BLENDSHAPES.forEach((name, i) => {
      expect(resolveMorphTarget(name)).toEqual({ kind: 'arkit', indices: [i] });
    });
  });

  it('maps every Oculus viseme name to its own channel', () => {
    VISEMES.forEach((name, i) => {
      expect(resolveMorphTarget(`viseme_${name}`)).toEqual({ kind: 'viseme', indices: [i] });
    });
  });

  it.each([
    ['JawOpen', arkit('jawOpen')],
    ['jawopen', arkit('jawOpen')],
    ['JAW_OPEN', arkit('jawOpen')],
    ['blendShape1.jawOpen', arkit('jawOpen')],
    ['blendShape2.mouthFunnel', arkit('mouthFunnel')],
    ['Face.mouthClose', arkit('mouthClose')],
    ['BS_cheekPuff', arkit('cheekPuff')],
    ['ARKit_tongueOut', arkit('tongueOut')],
    ['eyeBlink_L', arkit('eyeBlinkLeft')],
    ['eyeBlink_R', arkit('eyeBlinkRight')],
    ['EyeBlinkLeft', arkit('eyeBlinkLeft')],
    ['mouth_smile_left', arkit('mouthSmileLeft')],
    ['mouthSmile_R', arkit('mouthSmileRight')],
    ['browInnerUp_L', arkit('browInnerUp')],
    ['mouthFunnel', arkit('mouthFunnel')],
    ['VISEME_AA', viseme('aa')],
    ['viseme_sil', viseme('sil')],
    ['viseme_PP', viseme('PP')],
    ['viseme_kk', viseme('kk')],
    ['blendShape1.viseme_O', viseme('O')],
    ['A', viseme('aa')],
    ['I', viseme('I')],
    ['U', viseme('U')],
    ['E', viseme('E')],
    ['O', viseme('O')],
    ['aa', viseme('aa')],
    ['ih', viseme('I')],
    ['ou', viseme('U')],
    ['ee', viseme('E')],
    ['oh', viseme('O')],
    ['Blink', arkit('eyeBlinkLeft', 'eyeBlinkRight')],
    ['Blink_L', arkit('eyeBlinkLeft')],
    ['blinkRight', arkit('eyeBlinkRight')],
    ['Face.M_F00_000_00_Fcl_MTH_A', viseme('aa')],
    ['Fcl_MTH_O', viseme('O')],
    ['Fcl_EYE_Close', arkit('eyeBlinkLeft', 'eyeBlinkRight')],
    ['Fcl_EYE_Close_R', arkit('eyeBlinkRight')],
    ['mouthSmile', arkit('mouthSmileLeft', 'mouthSmileRight')],
  ])('%s', (name, channel) => {
    expect(resolveMorphTarget(name)).toEqual(channel);
  });

  it.each([
    '',
    'viseme_XX',
    'Fcl_BRW_Angry',
    'hairWind',
    'jawOpenWide',
    'mouthOpen',
    'eyeBlinkUp',
    'Joy',
    'lookLeft',
  ])('does not map %j', (name) => {
    expect(resolveMorphTarget(name)).toBeNull();
  });

  it('survives any casing, separator and prefix of an ARKit name', () => {
    const variant = fc.tuple(
      fc.constantFrom(...ARKIT_BLENDSHAPES),
      fc.constantFrom('', 'blendShape1.', 'Head.', 'BS_', 'arkit_'),
      fc.constantFrom('lower', 'upper', 'snake', 'same'),
    );
    fc.assert(
      fc.property(variant, ([name, prefix, style]) => {
        const spelled =
          style === 'lower'
            ? name.toLowerCase()
            : style === 'upper'
              ? name.toUpperCase()
              : style === 'snake'
                ? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
                : name;
        expect(resolveMorphTarget(prefix + spelled)).toEqual({ kind: 'arkit', indices: [ARKIT_INDEX[name]] });
      }),
    );
  });
});

describe('mapMorphTargets', () => {
  it('binds a morphTargetDictionary and reports what is missing', () => {
    const mapping = mapMorphTargets({ jawOpen: 2, viseme_aa: 0, hairWind: 1, Blink: 3 });
    expect(mapping.bindings.map((b) => [b.target, b.targetIndex])).toEqual([
      ['viseme_aa', 0],
      ['jawOpen', 2],
      ['Blink', 3],
    ]);
    expect(mapping.unmatched).toEqual(['hairWind']);
    expect(mapping.missingArkit).toHaveLength(52 - 3);
    expect(mapping.missingArkit).not.toContain('eyeBlinkLeft');
    expect(mapping.missingVisemes).toHaveLength(14);
    expect(mapping.missingVisemes).not.toContain('aa');
  });

  it('binds a glTF targetNames list with nothing missing for a full ARKit rig', () => {
    const mapping = mapMorphTargets([...ARKIT_BLENDSHAPES]);
    expect(mapping.bindings).toHaveLength(52);
    expect(mapping.missingArkit).toEqual([]);
    expect(mapping.unmatched).toEqual([]);
  });
});

describe('channelWeight', () => {
  it('reads expression and viseme weights, averaging combined channels', () => {
    const frame = createDriveFrame();
    frame.expression[ARKIT_INDEX.eyeBlinkLeft] = 1;
    frame.expression[ARKIT_INDEX.eyeBlinkRight] = 0.5;
    frame.visemes[VISEME_INDEX.O] = 0.8;
    expect(channelWeight(resolveMorphTarget('Blink')!, frame)).toBeCloseTo(0.75);
    expect(channelWeight(resolveMorphTarget('eyeBlink_L')!, frame)).toBe(1);
    expect(channelWeight(resolveMorphTarget('viseme_O')!, frame)).toBeCloseTo(0.8);
    expect(channelWeight(resolveMorphTarget('jawOpen')!, frame)).toBe(0);
  });
});

describe('resolveMorphTarget follows core', () => {
  it('binds a name exactly when core gives it a channel meaning (one parser for every client)', () => {
    const names = fc.oneof(
      fc.constantFrom(
        ...ARKIT_BLENDSHAPES,
        'viseme_aa',
        'viseme_PP',
        'A',
        'ou',
        'Blink_L',
        'Fcl_MTH_I',
        'lookUp',
      ),
      fc.string({ maxLength: 16 }),
    );
    fc.assert(
      fc.property(names, (name) => {
        const meaning = meaningOfTargetName(name);
        const bound = resolveMorphTarget(name) !== null;
        if (meaning) expect(bound).toBe(meaning.role !== 'look');
      }),
      { numRuns: 300 },
    );
  });
});
