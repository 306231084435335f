import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARKIT_BLENDSHAPES,
  type AvatarCoverage,
  AvatarError,
  channelValue,
  createDriveFrame,
  DRIVE_CHANNELS,
  describeAvatarCoverage,
  meaningOfTargetName,
  VISEME_CHANNELS,
  VISEME_INDEX,
  VISEMES,
  vowelInputs,
} from '../src/index.js';

const OCULUS = VISEMES.map((v) => `viseme_${v}`);

function mesh(name: string, targetNames: string[], onPrimitive = false) {
  const targets = targetNames.map(() => ({ POSITION: 0 }));
  return onPrimitive
    ? { name, primitives: [{ attributes: { POSITION: 0 }, targets, extras: { targetNames } }] }
    : { name, primitives: [{ attributes: { POSITION: 0 }, targets }], extras: { targetNames } };
}

const rpm = {
  asset: { version: '2.0' },
  nodes: [{ name: 'Hips' }, { name: 'Neck' }, { name: 'Head' }, { name: 'LeftEye' }, { name: 'RightEye' }],
  meshes: [
    mesh('Wolf3D_Head', [...OCULUS, ...ARKIT_BLENDSHAPES, 'mouthOpen', 'mouthSmile']),
    mesh('Wolf3D_Teeth', [...OCULUS, 'jawOpen', 'mouthOpen']),
  ],
};

function vrm1(expressions: Record<string, unknown>, custom: Record<string, unknown> = {}) {
  return {
    asset: { version: '2.0' },
    nodes: [{ name: 'J_Bip_C_Head' }, { name: 'J_Bip_C_Neck' }, { name: 'Face', mesh: 0 }],
    meshes: [
      mesh('Face', [
        'Fcl_MTH_A',
        'Fcl_MTH_I',
        'Fcl_EYE_Close',
        'Fcl_EYE_Close_L',
        'Fcl_EYE_Close_R',
        'jawOpen',
      ]),
    ],
    extensions: {
      VRMC_vrm: {
        specVersion: '1.0',
        humanoid: { humanBones: { head: { node: 0 }, neck: { node: 1 } } },
        lookAt: { type: 'bone' },
        expressions: { preset: expressions, custom },
      },
    },
  };
}

const bind = (index: number) => ({ morphTargetBinds: [{ node: 2, index, weight: 1 }] });

const channels = (c: AvatarCoverage) => c.bound.map((b) => b.channel);

describe('describeAvatarCoverage', () => {
  it('reads a Ready Player Me / Avaturn GLB as ARKit + Oculus visemes, the mouth following ARKit', () => {
    const c = describeAvatarCoverage(rpm);
    expect(c.format).toBe('arkit+oculus-visemes');
    expect(c.mouth).toBe('arkit');
    expect(c.counts.arkit).toEqual({ bound: 52, total: 52 });
    // Visemes are not bound on top of ARKit: the frame's ARKit mouth carries them.
    expect(c.counts.visemes.bound).toBe(0);
    expect(c.fallbacks.filter((f) => f.via === 'arkit-mouth').map((f) => f.channel)).toEqual(VISEME_CHANNELS);
    const jaw = c.bound.find((b) => b.channel === 'jawOpen')!;
    expect(jaw.targets.map((t) => t.target)).toEqual([
      { kind: 'morph', mesh: 'Wolf3D_Head', target: 'jawOpen', index: 15 + 17 },
      { kind: 'morph', mesh: 'Wolf3D_Teeth', target: 'jawOpen', index: 15 },
    ]);
    expect(c.unmatched).toEqual([
      'Wolf3D_Head/mouthOpen',
      'Wolf3D_Head/mouthSmile',
      'Wolf3D_Teeth/mouthOpen',
    ]);
    expect(c.poses).toContainEqual({
      channel: 'rotation',
      target: { kind: 'bone', bone: 'head', node: 'Head' },
    });
    expect(c.poses).toContainEqual({
      channel: 'eyePose',
      target: { kind: 'bone', bone: 'leftEye', node: 'LeftEye' },
    });
    expect(c.fallbacks.find((f) => f.channel === 'jawPose')?.via).toBe('mouth-morphs');
    expect(c.missing).toEqual([]);
  });

  it('binds Oculus visemes directly when there is no ARKit jawOpen', () => {
    const c = describeAvatarCoverage({ meshes: [mesh('Head', OCULUS, true)] });
    expect(c.format).toBe('oculus-visemes');
    expect(c.mouth).toBe('visemes');
    expect(c.counts.visemes).toEqual({ bound: 15, total: 15 });
    expect(c.fallbacks.find((f) => f.channel === 'jawOpen')?.via).toBe('visemes');
    // No bones: the head turns the whole model; nothing moves the eyes or blinks.
    expect(c.poses).toContainEqual({ channel: 'rotation', target: { kind: 'root' } });
    expect(c.missing).toContain('eyeBlinkLeft');
    expect(c.missing).toContain('eyePose');
    expect(c.missing).toContain('browInnerUp');
  });

  it('reads plain ARKit glTF and its spellings', () => {
    const c = describeAvatarCoverage({
      nodes: [{ name: 'head' }, { name: 'jaw' }],
      meshes: [
        mesh('face', [
          'blendShape1.jawOpen',
          'EyeBlink_L',
          'eyeBlinkRight',
          'mouth_smile_left',
          'eyeLookUpLeft',
        ]),
      ],
    });
    expect(c.format).toBe('arkit');
    expect(c.mouth).toBe('arkit');
    expect(channels(c)).toEqual([
      'eyeBlinkLeft',
      'eyeLookUpLeft',
      'eyeBlinkRight',
      'jawOpen',
      'mouthSmileLeft',
      'jawPose',
      'rotation',
      'translation',
    ]);
    // Visemes fall back to the ARKit mouth; eyes turn through the bound eyeLook morph.
    expect(c.fallbacks.find((f) => f.channel === 'viseme_aa')?.via).toBe('arkit-mouth');
    expect(c.fallbacks.find((f) => f.channel === 'eyePose')?.via).toBe('eye-morphs');
    expect(c.fallbacks.find((f) => f.channel === 'neckPose')?.via).toBe('head');
  });

  it('drives a VRM 1.0 through its expressions, every viseme opening the vowels', () => {
    const c = describeAvatarCoverage(
      vrm1({
        aa: bind(0),
        ih: bind(1),
        ou: {},
        blink: bind(2),
        blinkLeft: bind(3),
        blinkRight: bind(4),
        happy: bind(0),
      }),
    );
    expect(c.format).toBe('vrm1');
    // jawOpen is a mesh morph no expression owns: bound directly, so the mouth follows ARKit.
    expect(c.mouth).toBe('arkit');
    const noJaw = vrm1({
      aa: bind(0),
      ih: bind(1),
      ou: {},
      blink: bind(2),
      blinkLeft: bind(3),
      blinkRight: bind(4),
    });
    noJaw.meshes[0]!.extras!.targetNames[5] = 'Fcl_ALL_Joy';
    const v = describeAvatarCoverage(noJaw);
    expect(v.mouth).toBe('vowels');
    expect(v.weights.map((w) => w.target)).toEqual([
      { kind: 'expression', name: 'aa' },
      { kind: 'expression', name: 'ih' },
      { kind: 'expression', name: 'blinkLeft' },
      { kind: 'expression', name: 'blinkRight' },
    ]);
    expect(v.weights[0]!.inputs).toEqual(vowelInputs('aa'));
    // The morphs the expressions own are not bound again; the empty `ou` binds nothing.
    expect(v.unmatched).toEqual(['Face/Fcl_ALL_Joy', 'expression:ou']);
    expect(channels(v)).toContain('viseme_kk');
    expect(v.fallbacks.find((f) => f.channel === 'viseme_PP')?.via).toBe('vowels');
    expect(v.fallbacks.find((f) => f.channel === 'jawOpen')?.via).toBe('vowels');
    expect(v.poses).toContainEqual({ channel: 'eyePose', target: { kind: 'lookAt', type: 'bone' } });
    expect(v.poses).toContainEqual({
      channel: 'neckPose',
      target: { kind: 'bone', bone: 'neck', node: 'J_Bip_C_Neck' },
    });
    expect(v.fallbacks.find((f) => f.channel === 'eyeLookInLeft')?.via).toBe('eyes');
  });

  it('reads VRM 1.0 perfect-sync custom expressions as ARKit', () => {
    const c = describeAvatarCoverage(vrm1({ aa: bind(0) }, { jawOpen: bind(5), mouthFunnel: bind(1) }));
    expect(c.mouth).toBe('arkit');
    // Sided blink morphs win over the two-eyed one; the vowel `aa` yields to the ARKit mouth.
    expect(c.weights.map((w) => w.target)).toEqual([
      { kind: 'morph', mesh: 'Face', target: 'Fcl_EYE_Close_L', index: 3 },
      { kind: 'morph', mesh: 'Face', target: 'Fcl_EYE_Close_R', index: 4 },
      { kind: 'expression', name: 'jawOpen' },
      { kind: 'expression', name: 'mouthFunnel' },
    ]);
  });

  it('reads VRM 0.x blend shape groups under their VRM 1.0 names', () => {
    const c = describeAvatarCoverage({
      nodes: [{ name: 'Head' }, { name: 'Body', mesh: 0 }],
      meshes: [mesh('Body', ['A', 'I', 'U', 'E', 'O', 'Blink'])],
      extensions: {
        VRM: {
          humanoid: { humanBones: [{ bone: 'head', node: 0 }] },
          firstPerson: { lookAtTypeName: 'BlendShape' },
          blendShapeMaster: {
            blendShapeGroups: [
              { name: 'A', presetName: 'a', binds: [{ mesh: 0, index: 0, weight: 100 }] },
              { name: 'E', presetName: 'e', binds: [{ mesh: 0, index: 3, weight: 100 }] },
              { name: 'Blink', presetName: 'blink', binds: [{ mesh: 0, index: 5, weight: 100 }] },
              { name: 'LookUp', presetName: 'lookup', binds: [] },
              { name: 'Joy', presetName: 'joy', binds: [{ mesh: 0, index: 0, weight: 100 }] },
            ],
          },
        },
      },
    });
    expect(c.format).toBe('vrm0');
    expect(c.mouth).toBe('vowels');
    // The unowned I/U/O morphs bind directly as vowels; A, E and Blink go through their groups.
    expect(c.weights.map((w) => w.target)).toEqual([
      { kind: 'morph', mesh: 'Body', target: 'I', index: 1 },
      { kind: 'morph', mesh: 'Body', target: 'U', index: 2 },
      { kind: 'morph', mesh: 'Body', target: 'O', index: 4 },
      { kind: 'expression', name: 'aa' },
      { kind: 'expression', name: 'ee' },
      { kind: 'expression', name: 'blink' },
    ]);
    expect(c.weights[5]!.inputs).toEqual([
      { channel: 'eyeBlinkLeft', weight: 0.5 },
      { channel: 'eyeBlinkRight', weight: 0.5 },
    ]);
    expect(c.unmatched).toEqual(['expression:lookUp', 'expression:happy']);
    expect(c.poses).toContainEqual({ channel: 'eyePose', target: { kind: 'lookAt', type: 'expression' } });
  });

  it('reports an unrigged model and a malformed VRM extension without throwing', () => {
    const plain = describeAvatarCoverage({ meshes: [{ primitives: [{ attributes: {} }] }] });
    expect(plain.format).toBe('unrigged');
    expect(plain.mouth).toBe('none');
    expect(plain.missing).toContain('viseme_aa');
    expect(plain.missing).toContain('jawOpen');
    expect(plain.missing).toContain('jawPose');
    const bad = describeAvatarCoverage({ extensions: { VRMC_vrm: 'nope' }, meshes: 3 });
    expect(bad.format).toBe('vrm1');
    expect(bad.warnings[0]).toMatch(/VRMC_vrm is not an object/);
    expect(() => describeAvatarCoverage(null)).toThrow(AvatarError);
    expect(() => describeAvatarCoverage('{}')).toThrow(/parsed glTF JSON/);
  });

  it('partitions every channel into bound, fallbacks and missing for any document', () => {
    const name = fc.oneof(
      fc.constantFrom(...OCULUS, ...ARKIT_BLENDSHAPES, 'A', 'Blink', 'Blink_L', 'Fcl_MTH_O', 'lookUp', ''),
      fc.string(),
    );
    const doc = fc.record({
      nodes: fc.array(fc.record({ name: fc.constantFrom('Head', 'Neck', 'Jaw', 'Eye_L', 'x') })),
      meshes: fc.array(fc.record({ name: fc.string(), extras: fc.record({ targetNames: fc.array(name) }) })),
      extensions: fc.option(
        fc.record({
          VRMC_vrm: fc.record({
            expressions: fc.record({ preset: fc.dictionary(fc.string(), fc.anything()) }),
          }),
        }),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(doc, (gltf) => {
        const c = describeAvatarCoverage(JSON.parse(JSON.stringify(gltf)));
        const all = [...channels(c), ...c.fallbacks.map((f) => f.channel), ...c.missing].sort();
        expect(all).toEqual([...DRIVE_CHANNELS].sort());
        expect(JSON.parse(JSON.stringify(c))).toEqual(c);
      }),
      { numRuns: 200 },
    );
  });
});

describe('target names and vowels', () => {
  it('resolves the common spellings', () => {
    expect(meaningOfTargetName('blendShape1.jawOpen')).toEqual({ role: 'arkit', channel: 'jawOpen' });
    expect(meaningOfTargetName('viseme_PP')).toEqual({ role: 'viseme', channel: 'viseme_PP' });
    expect(meaningOfTargetName('Fcl_MTH_A')).toEqual({ role: 'vowel', vowel: 'aa' });
    expect(meaningOfTargetName('Fcl_EYE_Close_R')).toEqual({ role: 'blink', side: 'right' });
    expect(meaningOfTargetName('browInnerUp_L')).toEqual({ role: 'arkit', channel: 'browInnerUp' });
    expect(meaningOfTargetName('lookLeft')).toEqual({ role: 'look', direction: 'left' });
    expect(meaningOfTargetName('happy')).toBeUndefined();
  });

  it('opens the vowel of each vowel viseme fully and keeps sil / PP closed', () => {
    const frame = createDriveFrame();
    const open = (vowel: 'aa' | 'ih' | 'ou' | 'ee' | 'oh') =>
      vowelInputs(vowel).reduce((sum, i) => sum + i.weight * channelValue(frame, i.channel), 0);
    frame.visemes[VISEME_INDEX.O] = 1;
    expect(open('oh')).toBe(1);
    expect(open('aa')).toBe(0);
    frame.visemes.fill(0);
    frame.visemes[VISEME_INDEX.PP] = 1;
    frame.visemes[VISEME_INDEX.sil] = 1;
    expect(['aa', 'ih', 'ou', 'ee', 'oh'].map((v) => open(v as 'aa'))).toEqual([0, 0, 0, 0, 0]);
  });
});
