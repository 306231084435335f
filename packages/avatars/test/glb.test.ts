/**
 * The built avatars as a client receives them: valid glTF 2.0 (Khronos validator), all 52 ARKit
 * targets on every deforming mesh, manifests that match their files, small and deterministic.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { ARKIT_BLENDSHAPES } from '@avatar-drive/core';
// @ts-expect-error gltf-validator ships no type declarations
import validator from 'gltf-validator';
import jpeg from 'jpeg-js';
import type * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { buildAvatarScene } from '../generator/assemble.js';
import { exportGlb, readGlb } from '../generator/export-glb.js';
import { AVATAR_STYLES } from '../generator/style.js';
import { type AvatarIndex, BUILT_IN_AVATAR_IDS, parseAvatarManifest } from '../src/index.js';
import { parseWithThree } from './gltf-node.js';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const MAX_BYTES = 3 * 1024 * 1024;

const index = JSON.parse(readFileSync(join(dist, 'index.json'), 'utf8')) as AvatarIndex;

/** The parts of the glTF JSON the texture test reads. */
interface GltfDoc {
  nodes: { name?: string; mesh?: number }[];
  meshes: { primitives: { attributes: Record<string, number>; material: number }[] }[];
  materials: {
    pbrMetallicRoughness: {
      baseColorTexture?: { index: number };
      metallicRoughnessTexture?: { index: number };
    };
    normalTexture?: { index: number };
    occlusionTexture?: { index: number };
  }[];
  textures: { source: number }[];
  images: { bufferView: number; mimeType: string }[];
  bufferViews: { byteOffset?: number; byteLength: number }[];
}

interface ValidationReport {
  issues: {
    numErrors: number;
    numWarnings: number;
    messages: { code: string; message: string; pointer?: string }[];
  };
}

describe('index.json', () => {
  it('lists every built-in avatar with the rig', () => {
    expect(index.rig).toBe('arkit-52');
    expect(index.avatars.map((a) => a.id)).toEqual([...BUILT_IN_AVATAR_IDS]);
    expect(new Set(index.avatars.map((a) => a.name)).size).toBe(index.avatars.length);
  });
});

// The procedural built-ins (Noa, made from the CC0 mesh, has its own test: noa.test.ts).
describe.each(index.avatars.filter((a) => AVATAR_STYLES.some((s) => s.id === a.id)))('$id', (entry) => {
  const manifest = parseAvatarManifest(
    JSON.parse(readFileSync(join(dist, entry.manifest), 'utf8')),
    entry.manifest,
  );
  const bytes = new Uint8Array(readFileSync(join(dist, entry.id, manifest.model.uri)));

  it('has a manifest that matches its model', () => {
    expect(manifest.id).toBe(entry.id);
    expect(manifest.name).toBe(entry.name);
    expect(manifest.rig).toBe('arkit-52');
    expect(manifest.description.length).toBeGreaterThan(20);
    expect(manifest.model.bytes).toBe(bytes.byteLength);
    expect(manifest.model.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    // The camera looks at the face from the front.
    expect(manifest.camera.position[2]).toBeGreaterThan(manifest.camera.target[2]);
  });

  it(`is a binary glTF 2.0 smaller than ${MAX_BYTES} bytes`, () => {
    expect(bytes.byteLength).toBeLessThan(MAX_BYTES);
    const { json } = readGlb(bytes) as unknown as { json: { asset: { version: string } } };
    expect(json.asset.version).toBe('2.0');
  });

  it('passes the Khronos glTF validator without errors or warnings', async () => {
    const report = (await validator.validateBytes(bytes, { maxIssues: 20 })) as ValidationReport;
    expect(report.issues.messages).toEqual([]);
    expect(report.issues.numErrors).toBe(0);
    expect(report.issues.numWarnings).toBe(0);
  });

  it('loads in three.js with all 52 ARKit targets, in rig order, on every deforming mesh', async () => {
    const scene = await parseWithThree(bytes);
    const morphMeshes: THREE.Mesh[] = [];
    scene.traverse((o) => {
      const mesh = o as THREE.Mesh;
      if (mesh.isMesh && mesh.morphTargetDictionary) morphMeshes.push(mesh);
    });
    const names = morphMeshes.map((m) => m.name);
    for (const part of ['Face', 'EyelidsLeft', 'EyelidsRight', 'Brows', 'TeethLower', 'Tongue', 'EyeLeft']) {
      expect(names).toContain(part);
    }
    for (const mesh of morphMeshes) {
      const order = Object.entries(mesh.morphTargetDictionary!)
        .sort((a, b) => a[1] - b[1])
        .map(([n]) => n);
      expect(order, mesh.name).toEqual([...ARKIT_BLENDSHAPES]);
    }
    expect(scene.getObjectByName(manifest.headNode ?? 'Head')).toBeDefined();
    for (const eye of manifest.eyeNodes ?? []) expect(scene.getObjectByName(eye)).toBeDefined();
  });

  it('wears a baked skin texture set on the face: base colour, tangent-space normals, ORM, ≤ 1024²', () => {
    const { json, bin } = readGlb(bytes) as unknown as { json: GltfDoc; bin: Uint8Array };
    const faceNode = json.nodes.find((n) => n.name === 'Face')!;
    const primitive = json.meshes[faceNode.mesh!]!.primitives[0]!;
    expect(Object.keys(primitive.attributes)).toEqual(expect.arrayContaining(['TEXCOORD_0', 'TANGENT']));
    const material = json.materials[primitive.material]!;
    const slots = {
      baseColor: material.pbrMetallicRoughness.baseColorTexture?.index,
      orm: material.pbrMetallicRoughness.metallicRoughnessTexture?.index,
      normal: material.normalTexture?.index,
      occlusion: material.occlusionTexture?.index,
    };
    expect(slots.orm).toBe(slots.occlusion);
    const decoded: Record<string, { width: number; height: number; data: Uint8Array }> = {};
    for (const [slot, index] of Object.entries(slots)) {
      expect(index, slot).toBeTypeOf('number');
      const image = json.images[json.textures[index!]!.source]!;
      expect(image.mimeType).toBe('image/jpeg');
      const view = json.bufferViews[image.bufferView]!;
      const data = bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
      decoded[slot] = jpeg.decode(data, { useTArray: true });
      expect(decoded[slot]!.width).toBeLessThanOrEqual(1024);
      expect(decoded[slot]!.height).toBe(decoded[slot]!.width);
    }
    // The maps carry content, not flat colour: the normal map bends normals (pores, lip lines),
    // roughness varies (T-zone vs cheeks), the base colour has the lips' red against the skin.
    const spread = (d: Uint8Array, channel: number): number => {
      let lo = 255;
      let hi = 0;
      for (let i = channel; i < d.length; i += 4) {
        lo = Math.min(lo, d[i]!);
        hi = Math.max(hi, d[i]!);
      }
      return hi - lo;
    };
    expect(spread(decoded.normal!.data, 0)).toBeGreaterThan(40);
    expect(spread(decoded.orm!.data, 1)).toBeGreaterThan(40);
    expect(spread(decoded.baseColor!.data, 1)).toBeGreaterThan(40);
  });

  it('dresses ears and neck in the face skin (same base colour and ORM images, no normal map)', () => {
    const { json } = readGlb(bytes) as unknown as { json: GltfDoc };
    const materialOf = (name: string) => {
      const node = json.nodes.find((n) => n.name === name)!;
      const primitive = json.meshes[node.mesh!]!.primitives[0]!;
      expect(Object.keys(primitive.attributes), name).toContain('TEXCOORD_0');
      return json.materials[primitive.material]!;
    };
    const face = materialOf('Face');
    const source = (index: number | undefined) => json.textures[index!]!.source;
    for (const part of ['Ears', 'Neck']) {
      const material = materialOf(part);
      expect(source(material.pbrMetallicRoughness.baseColorTexture?.index), part).toBe(
        source(face.pbrMetallicRoughness.baseColorTexture?.index),
      );
      expect(source(material.occlusionTexture?.index), part).toBe(source(face.occlusionTexture?.index));
      expect(material.normalTexture, part).toBeUndefined();
    }
  });

  it('moves the jaw, lips, lids, brows and tongue where the rig says', async () => {
    const scene = await parseWithThree(bytes);
    const maxShift = (meshName: string, target: string): { x: number; y: number; z: number } => {
      const mesh = scene.getObjectByName(meshName) as THREE.Mesh;
      const attr = mesh.geometry.morphAttributes.position![mesh.morphTargetDictionary![target]!]!;
      const out = { x: 0, y: 0, z: 0 };
      for (let i = 0; i < attr.count; i++) {
        if (Math.abs(attr.getX(i)) > Math.abs(out.x)) out.x = attr.getX(i);
        if (Math.abs(attr.getY(i)) > Math.abs(out.y)) out.y = attr.getY(i);
        if (Math.abs(attr.getZ(i)) > Math.abs(out.z)) out.z = attr.getZ(i);
      }
      return out;
    };
    // Metres: the jaw drops centimetres, lids close, the tongue comes forward.
    expect(maxShift('Face', 'jawOpen').y).toBeLessThan(-0.02);
    expect(maxShift('TeethLower', 'jawOpen').y).toBeLessThan(-0.015);
    expect(maxShift('Tongue', 'tongueOut').z).toBeGreaterThan(0.015);
    expect(maxShift('EyelidsLeft', 'eyeBlinkLeft').y).toBeLessThan(-0.005);
    expect(maxShift('EyelidsLeft', 'eyeBlinkRight').y).toBe(0);
    expect(maxShift('Brows', 'browInnerUp').y).toBeGreaterThan(0.003);
    expect(Math.abs(maxShift('Face', 'mouthSmileLeft').y)).toBeGreaterThan(0.005);
    expect(Math.abs(maxShift('Face', 'mouthPucker').z)).toBeGreaterThan(0.008);
  });
});

/** RGBA pixels of an 8-bit RGBA, non-interlaced PNG (the strand texture), for the alpha check. */
function decodePng(png: Uint8Array): { width: number; height: number; data: Uint8Array } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at < png.byteLength; ) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      expect([body[8], body[9], body[12]]).toEqual([8, 6, 0]); // 8-bit RGBA, not interlaced
    } else if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const data = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= 4 ? data[y * stride + x - 4]! : 0;
      const b = y > 0 ? data[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? data[(y - 1) * stride + x - 4]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
      data[y * stride + x] = (value + predictor) & 255;
    }
  }
  return { width, height, data };
}

describe.each(['mika', 'juno'])('%s', (id) => {
  const manifest = parseAvatarManifest(JSON.parse(readFileSync(join(dist, id, 'manifest.json'), 'utf8')));
  const bytes = new Uint8Array(readFileSync(join(dist, id, manifest.model.uri)));

  it('wears hair cards: a single-sided, alpha-masked strand texture (PNG) that cuts strands and frayed tips', () => {
    const { json, bin } = readGlb(bytes) as unknown as {
      json: GltfDoc & {
        materials: { alphaMode?: string; alphaCutoff?: number; doubleSided?: boolean }[];
      };
      bin: Uint8Array;
    };
    const node = json.nodes.find((n) => n.name === 'HairCards')!;
    expect(node).toBeDefined();
    const primitive = json.meshes[node.mesh!]!.primitives[0]!;
    expect(Object.keys(primitive.attributes)).toEqual(expect.arrayContaining(['TEXCOORD_0', 'COLOR_0']));
    const material = json.materials[primitive.material]!;
    expect(material.alphaMode).toBe('MASK');
    expect(material.alphaCutoff).toBe(0.5);
    expect(material.doubleSided).toBeUndefined();
    const image = json.images[json.textures[material.pbrMetallicRoughness.baseColorTexture!.index]!.source]!;
    expect(image.mimeType).toBe('image/png');
    const viewOf = json.bufferViews[image.bufferView]!;
    const { width, height, data } = decodePng(
      bin.subarray(viewOf.byteOffset ?? 0, (viewOf.byteOffset ?? 0) + viewOf.byteLength),
    );
    // Rows from the root (top) to the tips: solid near the root, mostly cut away at the tips,
    // with strands (many alpha changes along a row) in between.
    const coverage = (row: number): { solid: number; edges: number } => {
      let solid = 0;
      let edges = 0;
      for (let x = 0; x < width; x++) {
        const inside = data[(row * width + x) * 4 + 3]! >= 128;
        if (inside) solid++;
        if (x > 0 && inside !== data[(row * width + x - 1) * 4 + 3]! >= 128) edges++;
      }
      return { solid: solid / width, edges };
    };
    const root = coverage(Math.floor(height * 0.05));
    const middle = coverage(Math.floor(height * 0.8));
    const tip = coverage(height - 1);
    expect(root.solid).toBeGreaterThan(0.5);
    expect(middle.edges).toBeGreaterThan(6);
    expect(tip.solid).toBeLessThan(0.25);
  });
});

describe('build', () => {
  it('is deterministic: rebuilding an avatar gives the same bytes', async () => {
    const style = AVATAR_STYLES[0]!;
    const rebuilt = await exportGlb(buildAvatarScene(style));
    const shipped = readFileSync(join(dist, style.id, 'avatar.glb'));
    expect(createHash('sha256').update(rebuilt).digest('hex')).toBe(
      createHash('sha256').update(shipped).digest('hex'),
    );
  });
});
