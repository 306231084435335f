import { ARKIT_INDEX, createDriveFrame, VISEME_INDEX } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { channelWeight, mapMorphTargets, resolveMorphTarget } from '../../src/morph-binding.js';

describe('morph binding', () => {
  it('resolves ARKit, Oculus viseme and VRM names in common spellings', () => {
    expect(resolveMorphTarget('jawOpen')).toEqual({ kind: 'arkit', indices: [ARKIT_INDEX.jawOpen] });
    expect(resolveMorphTarget('JawOpen')).toEqual({ kind: 'arkit', indices: [ARKIT_INDEX.jawOpen] });
    expect(resolveMorphTarget('blendShape1.mouthFunnel')).toEqual({
      kind: 'arkit',
      indices: [ARKIT_INDEX.mouthFunnel],
    });
    expect(resolveMorphTarget('eyeBlink_L')).toEqual({ kind: 'arkit', indices: [ARKIT_INDEX.eyeBlinkLeft] });
    expect(resolveMorphTarget('viseme_aa')).toEqual({ kind: 'viseme', indices: [VISEME_INDEX.aa] });
    expect(resolveMorphTarget('viseme_PP')).toEqual({ kind: 'viseme', indices: [VISEME_INDEX.PP] });
    expect(resolveMorphTarget('Blink')).toEqual({
      kind: 'arkit',
      indices: [ARKIT_INDEX.eyeBlinkLeft, ARKIT_INDEX.eyeBlinkRight],
    });
    expect(resolveMorphTarget('O')).toEqual({ kind: 'viseme', indices: [VISEME_INDEX.O] });
    expect(resolveMorphTarget('Key 1')).toBeNull();
    expect(resolveMorphTarget('viseme_zz')).toBeNull();
  });

  it('maps a dictionary, lists the missing ARKit channels, and weighs channels', () => {
    const mapping = mapMorphTargets({ jawOpen: 0, Blink: 1, 'Key 1': 2, viseme_O: 3 });
    expect(mapping.bindings.map((b) => b.targetIndex)).toEqual([0, 1, 3]);
    expect(mapping.hasVisemes).toBe(true);
    expect(mapping.missingArkit).toHaveLength(49);
    expect(mapping.missingArkit).not.toContain('jawOpen');
    const frame = createDriveFrame();
    frame.expression[ARKIT_INDEX.eyeBlinkLeft] = 1;
    frame.expression[ARKIT_INDEX.eyeBlinkRight] = 0.5;
    frame.visemes[VISEME_INDEX.O] = 1.4;
    expect(channelWeight(mapping.bindings[1]!.channel, frame)).toBeCloseTo(0.75, 6);
    expect(channelWeight(mapping.bindings[2]!.channel, frame)).toBe(1);
  });
});
