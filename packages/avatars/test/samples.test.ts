/**
 * The committed sample avatars (samples/): valid glTF 2.0 by the Khronos validator, VRM
 * extensions that say what the spec asks, the coverage core reports for each, and bytes a rebuild
 * reproduces (so the committed files are what the generator makes).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeAvatarCoverage } from '@avatar-drive/core';
// @ts-expect-error gltf-validator ships no type declarations
import validator from 'gltf-validator';
import { describe, expect, it } from 'vitest';
import { readGlb } from '../generator/export-glb.js';
import { SAMPLES } from '../generator/samples/build.js';

const samples = fileURLToPath(new URL('../samples/', import.meta.url));
const read = (file: string) => new Uint8Array(readFileSync(join(samples, file)));
// biome-ignore lint/suspicious/noExplicitAny: glTF JSON is read loosely here
const json = (file: string): any => readGlb(read(file)).json;

interface ValidationReport {
  issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string }[] };
}

async function validate(file: string): Promise<ValidationReport['issues']> {
  return ((await validator.validateBytes(read(file), { maxIssues: 50 })) as ValidationReport).issues;
}

describe('samples', () => {
  it('are valid glTF 2.0: no validator errors; warnings only for the VRM 0.x extension name', async () => {
    for (const file of Object.keys(SAMPLES)) {
      const issues = await validate(file);
      expect(issues.numErrors, file).toBe(0);
      const warnings = issues.messages.filter(
        (m) => !['UNSUPPORTED_EXTENSION', 'NODE_EMPTY'].includes(m.code),
      );
      // VRM 0.x predates the glTF extension naming rule (PREFIX_name): its "VRM" is flagged.
      expect(
        warnings.map((m) => m.code),
        file,
      ).toEqual(file.endsWith('vrm0.vrm') ? ['INVALID_EXTENSION_NAME_FORMAT'] : []);
    }
  });

  it('VRM 1.0: required humanoid bones, VRM Public License meta, expressions, MToon, spring bones', () => {
    const doc = json('mika-vrm1.vrm');
    const vrm = doc.extensions.VRMC_vrm;
    expect(vrm.specVersion).toBe('1.0');
    expect(vrm.meta.licenseUrl).toBe('https://vrm.dev/licenses/1.0/');
    expect(vrm.meta.otherLicenseUrl).toBe('https://www.apache.org/licenses/LICENSE-2.0');
    expect(vrm.meta.allowRedistribution).toBe(true);
    const required = ['hips', 'spine', 'head', 'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg'];
    for (const bone of [
      ...required,
      'rightLowerLeg',
      'rightFoot',
      'leftUpperArm',
      'leftLowerArm',
      'leftHand',
    ])
      expect(vrm.humanoid.humanBones[bone]?.node, bone).toBeTypeOf('number');
    // Every humanoid bone node is distinct, and no node carries a rotation (VRM's rest pose rule).
    const nodes = Object.values(vrm.humanoid.humanBones).map((b) => (b as { node: number }).node);
    expect(new Set(nodes).size).toBe(nodes.length);
    for (const node of doc.nodes) expect(node.rotation ?? [0, 0, 0, 1]).toEqual([0, 0, 0, 1]);
    expect(Object.keys(vrm.expressions.preset)).toEqual(
      expect.arrayContaining(['aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft', 'blinkRight']),
    );
    expect(vrm.expressions.preset.aa.morphTargetBinds.length).toBeGreaterThan(0);
    expect(
      doc.materials.every((m: { extensions?: object }) => 'VRMC_materials_mtoon' in (m.extensions ?? {})),
    ).toBe(true);
    expect(doc.extensions.VRMC_springBone.springs[0].joints).toHaveLength(4);
  });

  it('VRM 0.x: blend shape groups by preset, bone list, look-at by bone, spring bone group', () => {
    const vrm = json('mika-vrm0.vrm').extensions.VRM;
    expect(vrm.blendShapeMaster.blendShapeGroups.map((g: { presetName: string }) => g.presetName)).toEqual([
      'a',
      'i',
      'u',
      'e',
      'o',
      'blink',
      'blink_l',
      'blink_r',
      'joy',
    ]);
    expect(vrm.blendShapeMaster.blendShapeGroups[0].binds[0].weight).toBe(75);
    expect(vrm.humanoid.humanBones.map((b: { bone: string }) => b.bone)).toContain('head');
    expect(vrm.firstPerson.lookAtTypeName).toBe('Bone');
    expect(vrm.secondaryAnimation.boneGroups).toHaveLength(1);
  });

  it('report the coverage a player binds: VRM expressions, or ARKit with visemes falling back', () => {
    const vrm1 = describeAvatarCoverage(json('mika-vrm1.vrm'));
    expect(vrm1).toMatchObject({ format: 'vrm1', mouth: 'vowels', unmatched: ['expression:happy'] });
    expect(vrm1.counts.visemes).toEqual({ bound: 13, total: 15 });
    const vrm0 = describeAvatarCoverage(json('mika-vrm0.vrm'));
    expect(vrm0).toMatchObject({ format: 'vrm0', mouth: 'vowels' });
    const rpm = describeAvatarCoverage(json('juno-rpm.glb'));
    expect(rpm).toMatchObject({ format: 'arkit+oculus-visemes', mouth: 'arkit', missing: [] });
    expect(rpm.counts.arkit).toEqual({ bound: 52, total: 52 });
  });

  it('are what the generator makes (rebuilt bytes equal the committed files)', async () => {
    for (const [file, build] of Object.entries(SAMPLES)) {
      const rebuilt = await build();
      expect(createHash('sha256').update(rebuilt).digest('hex'), `${file}: run pnpm build:samples`).toBe(
        createHash('sha256').update(read(file)).digest('hex'),
      );
    }
  });
});
