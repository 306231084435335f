/** Loading a built GLB with three.js in Node (no browser image decoding), for the unit tests. */
import type * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { readGlb, writeGlb } from '../generator/export-glb.js';

/**
 * The GLB without its images: three's loader decodes images through browser APIs Node lacks (the
 * render test loads the textured models in Chromium). Geometry, morph targets and nodes are untouched.
 */
export function withoutImages(bytes: Uint8Array): Uint8Array {
  const { json, bin } = readGlb(bytes) as unknown as { json: Record<string, unknown>; bin: Uint8Array };
  const materials = (json.materials ?? []) as Record<string, Record<string, unknown> | undefined>[];
  for (const material of materials) {
    delete material.normalTexture;
    delete material.occlusionTexture;
    delete material.pbrMetallicRoughness?.baseColorTexture;
    delete material.pbrMetallicRoughness?.metallicRoughnessTexture;
  }
  delete json.images;
  delete json.textures;
  delete json.samplers;
  return writeGlb(json, bin);
}

export function parseWithThree(glb: Uint8Array): Promise<THREE.Group> {
  const bytes = withoutImages(glb);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) =>
    new GLTFLoader().parse(buffer, '', (gltf) => resolve(gltf.scene), reject),
  );
}
