/**
 * Baked textures in the GLB. three's GLTFExporter encodes images through a browser canvas, which
 * Node lacks, so the generator keeps each material's baked images in a side table and
 * {@link embedTextures} writes them into the exported GLB itself (JPEG images in the binary chunk,
 * textures and a sampler, and the material's texture slots).
 */
import jpeg from 'jpeg-js';
import type * as THREE from 'three';
import type { SkinMaps } from './bake.js';

/** A material's baked images, JPEG-encoded. */
export interface TextureSet {
  baseColor: Uint8Array;
  normal: Uint8Array;
  orm: Uint8Array;
}

/** JPEG quality per map: normals show blocking first, so they get the most bits. */
const QUALITY = { baseColor: 88, normal: 92, orm: 85 } as const;

const registry = new WeakMap<THREE.Material, TextureSet>();

/** Gives `material` a baked texture set to export with it (a clone of the material does not keep it). */
export function attachTextures(material: THREE.Material, set: TextureSet): void {
  registry.set(material, set);
}

export function texturesOf(material: THREE.Material): TextureSet | undefined {
  return registry.get(material);
}

/** Encodes baked skin maps as JPEG (deterministic: same pixels, same bytes). */
export function encodeSkinMaps(maps: SkinMaps): TextureSet {
  const encode = (rgb: Uint8Array, quality: number): Uint8Array => {
    const rgba = new Uint8Array(maps.size * maps.size * 4);
    for (let i = 0, o = 0; i < rgb.length; i += 3, o += 4) {
      rgba[o] = rgb[i]!;
      rgba[o + 1] = rgb[i + 1]!;
      rgba[o + 2] = rgb[i + 2]!;
      rgba[o + 3] = 255;
    }
    return new Uint8Array(jpeg.encode({ width: maps.size, height: maps.size, data: rgba }, quality).data);
  };
  return {
    baseColor: encode(maps.baseColor, QUALITY.baseColor),
    normal: encode(maps.normal, QUALITY.normal),
    orm: encode(maps.orm, QUALITY.orm),
  };
}

interface GltfDoc {
  bufferViews: { buffer: number; byteOffset?: number; byteLength: number }[];
  buffers: { byteLength: number }[];
  images?: { bufferView: number; mimeType: string }[];
  samplers?: { magFilter: number; minFilter: number; wrapS: number; wrapT: number }[];
  textures?: { sampler: number; source: number }[];
  materials?: {
    name?: string;
    pbrMetallicRoughness?: {
      baseColorTexture?: { index: number };
      metallicRoughnessTexture?: { index: number };
      roughnessFactor?: number;
      metallicFactor?: number;
    };
    normalTexture?: { index: number; scale?: number };
    occlusionTexture?: { index: number; strength?: number };
  }[];
}

const LINEAR = 9729;
const LINEAR_MIPMAP_LINEAR = 9987;
const REPEAT = 10497;
const CLAMP_TO_EDGE = 33071;

/**
 * Writes texture sets into a GLB for the materials named in `sets`: the images go at the end of
 * the binary chunk; u repeats (the head's texture wraps round the back), v clamps.
 */
export function embedTextures(
  doc: { json: unknown; bin: Uint8Array },
  sets: ReadonlyMap<string, TextureSet>,
): { json: unknown; bin: Uint8Array } {
  const json = doc.json as GltfDoc;
  const images = [...sets.values()].flatMap((s) => [s.baseColor, s.normal, s.orm]);
  if (images.length === 0) return doc;
  const align4 = (x: number): number => (x + 3) & ~3;
  let length = align4(doc.bin.byteLength);
  const starts: number[] = [];
  for (const image of images) {
    starts.push(length);
    length = align4(length + image.byteLength);
  }
  const bin = new Uint8Array(length);
  bin.set(doc.bin);
  for (const [k, image] of images.entries()) bin.set(image, starts[k]!);

  json.images ??= [];
  json.samplers ??= [];
  json.textures ??= [];
  const sampler =
    json.samplers.push({
      magFilter: LINEAR,
      minFilter: LINEAR_MIPMAP_LINEAR,
      wrapS: REPEAT,
      wrapT: CLAMP_TO_EDGE,
    }) - 1;
  const textureOf = (k: number): number => {
    const bufferView =
      json.bufferViews.push({ buffer: 0, byteOffset: starts[k]!, byteLength: images[k]!.byteLength }) - 1;
    const source = json.images!.push({ bufferView, mimeType: 'image/jpeg' }) - 1;
    return json.textures!.push({ sampler, source }) - 1;
  };
  let k = 0;
  for (const name of sets.keys()) {
    const baseColor = textureOf(k++);
    const normal = textureOf(k++);
    const orm = textureOf(k++);
    for (const material of json.materials ?? []) {
      if (material.name !== name) continue;
      material.pbrMetallicRoughness = {
        ...material.pbrMetallicRoughness,
        baseColorTexture: { index: baseColor },
        metallicRoughnessTexture: { index: orm },
        // The texture carries roughness; metal stays 0.
        roughnessFactor: 1,
        metallicFactor: 0,
      };
      material.normalTexture = { index: normal };
      material.occlusionTexture = { index: orm };
    }
  }
  json.buffers = [{ byteLength: bin.byteLength }];
  return { json, bin };
}
