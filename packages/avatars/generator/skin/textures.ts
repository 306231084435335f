/**
 * Baked textures in the GLB. three's GLTFExporter encodes images through a browser canvas, which
 * Node lacks, so the generator keeps each material's baked images in a side table and
 * {@link embedTextures} writes them into the exported GLB itself (JPEG images in the binary chunk,
 * textures and a sampler, and the material's texture slots).
 */
import jpeg from 'jpeg-js';
import type * as THREE from 'three';
import type { SkinMaps } from './bake.js';

/** A material's baked images, encoded (JPEG unless `mimeType` says otherwise). */
export interface TextureSet {
  baseColor: Uint8Array;
  normal?: Uint8Array;
  orm?: Uint8Array;
  /** Of every image in the set; default image/jpeg (PNG where the alpha channel matters). */
  mimeType?: 'image/jpeg' | 'image/png';
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
  // Sets may share images (the face's and the ears' skin): each image is stored once.
  const seen = new Set<Uint8Array>();
  const entries = [...sets.values()].flatMap((s) =>
    [s.baseColor, s.normal, s.orm]
      .filter((image): image is Uint8Array => image !== undefined && !seen.has(image) && !!seen.add(image))
      .map((image) => ({ image, mimeType: s.mimeType ?? 'image/jpeg' })),
  );
  const images = entries.map((e) => e.image);
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
  const textures = new Map<Uint8Array, number>();
  const textureOf = (image: Uint8Array): number => {
    const known = textures.get(image);
    if (known !== undefined) return known;
    const k = images.indexOf(image);
    const bufferView =
      json.bufferViews.push({ buffer: 0, byteOffset: starts[k]!, byteLength: image.byteLength }) - 1;
    const source = json.images!.push({ bufferView, mimeType: entries[k]!.mimeType }) - 1;
    const texture = json.textures!.push({ sampler, source }) - 1;
    textures.set(image, texture);
    return texture;
  };
  for (const [name, set] of sets) {
    const baseColor = textureOf(set.baseColor);
    const normal = set.normal ? textureOf(set.normal) : undefined;
    const orm = set.orm ? textureOf(set.orm) : undefined;
    for (const material of json.materials ?? []) {
      if (material.name !== name) continue;
      material.pbrMetallicRoughness = {
        ...material.pbrMetallicRoughness,
        baseColorTexture: { index: baseColor },
      };
      if (orm !== undefined) {
        // The texture carries roughness; metal stays 0.
        material.pbrMetallicRoughness.metallicRoughnessTexture = { index: orm };
        material.pbrMetallicRoughness.roughnessFactor = 1;
        material.pbrMetallicRoughness.metallicFactor = 0;
        material.occlusionTexture = { index: orm };
      }
      if (normal !== undefined) material.normalTexture = { index: normal };
    }
  }
  json.buffers = [{ byteLength: bin.byteLength }];
  return { json, bin };
}
