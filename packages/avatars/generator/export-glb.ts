/**
 * Scene → binary glTF in Node: three's GLTFExporter (which reads its output through the browser's
 * FileReader, polyfilled here on top of Node's Blob), then a compaction pass that keeps a
 * 52-target avatar small: morph targets become sparse accessors, and (KHR_mesh_quantization)
 * morph positions are stored as normalised int16, normals and morph normals as normalised int8,
 * vertex colours as normalised uint8.
 */
import type * as THREE from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { embedTextures, type TextureSet, texturesOf } from './skin/textures.js';

/** The subset of the DOM FileReader that GLTFExporter uses. */
class BlobReader {
  result: ArrayBuffer | string | null = null;
  onloadend: (() => void) | null = null;

  readAsArrayBuffer(blob: Blob): void {
    void blob.arrayBuffer().then((buffer) => {
      this.result = buffer;
      this.onloadend?.();
    });
  }

  readAsDataURL(blob: Blob): void {
    void blob.arrayBuffer().then((buffer) => {
      this.result = `data:${blob.type || 'application/octet-stream'};base64,${Buffer.from(buffer).toString('base64')}`;
      this.onloadend?.();
    });
  }
}

/** Exports a scene as GLB bytes. Deterministic: the same scene gives the same bytes. */
export async function exportGlb(scene: THREE.Object3D): Promise<Uint8Array> {
  const g = globalThis as { FileReader?: unknown };
  const had = 'FileReader' in g;
  const previous = g.FileReader;
  if (!had) g.FileReader = BlobReader;
  try {
    const result = await new GLTFExporter().parseAsync(scene, { binary: true, onlyVisible: true });
    if (!(result instanceof ArrayBuffer)) throw new Error('GLTFExporter returned JSON for a binary export');
    const compact = sparsifyMorphTargets(new Uint8Array(result));
    const sets = bakedTextureSets(scene);
    if (sets.size === 0) return compact;
    const { json, bin } = embedTextures(readGlb(compact), sets);
    return writeGlb(json, bin);
  } finally {
    if (!had) delete g.FileReader;
    else g.FileReader = previous;
  }
}

/** The baked texture sets of the scene's materials, by material name, in scene order. */
function bakedTextureSets(scene: THREE.Object3D): Map<string, TextureSet> {
  const sets = new Map<string, TextureSet>();
  scene.traverse((object) => {
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh) return;
    for (const material of [mesh.material].flat()) {
      const set = texturesOf(material);
      if (!set) continue;
      if (sets.has(material.name) && sets.get(material.name) !== set)
        throw new Error(`two textured materials are both named ${material.name}`);
      sets.set(material.name, set);
    }
  });
  return sets;
}

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const FLOAT = 5126;
const BYTE = 5120;
const UNSIGNED_BYTE = 5121;
const SHORT = 5122;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;
const ARRAY_BUFFER = 34962;
const QUANTIZATION = 'KHR_mesh_quantization';

interface BufferView {
  buffer: number;
  byteOffset?: number;
  byteLength: number;
  byteStride?: number;
  target?: number;
}
interface Accessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  normalized?: boolean;
  count: number;
  type: string;
  min?: number[];
  max?: number[];
  sparse?: {
    count: number;
    indices: { bufferView: number; componentType: number; byteOffset?: number };
    values: { bufferView: number; byteOffset?: number };
  };
}
interface GltfJson {
  accessors: Accessor[];
  bufferViews: BufferView[];
  buffers: { byteLength: number }[];
  meshes?: { primitives: { attributes: Record<string, number>; targets?: Record<string, number>[] }[] }[];
  images?: { bufferView?: number }[];
  extensionsUsed?: string[];
  extensionsRequired?: string[];
}

/** Splits a GLB into its JSON and binary chunks. */
export function readGlb(bytes: Uint8Array): { json: GltfJson; bin: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new Error('not a GLB file');
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== CHUNK_JSON) throw new Error('GLB without a JSON chunk');
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as GltfJson;
  const binStart = 20 + jsonLength;
  let bin: Uint8Array = new Uint8Array(0);
  if (binStart + 8 <= bytes.byteLength && view.getUint32(binStart + 4, true) === CHUNK_BIN) {
    const binLength = view.getUint32(binStart, true);
    bin = bytes.subarray(binStart + 8, binStart + 8 + binLength);
  }
  return { json, bin };
}

/** Joins a glTF JSON document and its binary chunk into a GLB. */
export function writeGlb(json: unknown, bin: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = align4(text.byteLength);
  const binLength = align4(bin.byteLength);
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.byteLength, 20 + jsonLength);
  const binAt = 20 + jsonLength;
  view.setUint32(binAt, binLength, true);
  view.setUint32(binAt + 4, CHUNK_BIN, true);
  out.set(bin, binAt + 8);
  return out;
}

const align4 = (n: number): number => (n + 3) & ~3;

/** Reads an accessor's float elements (tightly packed or strided). */
function readFloats(json: GltfJson, bin: Uint8Array, accessor: Accessor, size: number): Float32Array {
  const view = json.bufferViews[accessor.bufferView!]!;
  const stride = view.byteStride ?? size * 4;
  const start = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  const data = new DataView(bin.buffer, bin.byteOffset + start);
  const out = new Float32Array(accessor.count * size);
  for (let i = 0; i < accessor.count; i++) {
    for (let c = 0; c < size; c++) out[i * size + c] = data.getFloat32(i * stride + c * 4, true);
  }
  return out;
}

/** Normalised signed integer of `bits` bits for a value in [-1, 1]. */
function snorm(x: number, bits: 8 | 16): number {
  const max = bits === 8 ? 127 : 32767;
  return Math.round(Math.max(-1, Math.min(1, x)) * max);
}

/**
 * Compacts an exporter GLB: every dense VEC3 float morph-target accessor becomes a sparse one of
 * normalised integers (only the vertices a target moves are stored; a target that moves nothing
 * stores nothing), base normals become int8 and colours uint8, and the binary chunk is repacked.
 */
export function sparsifyMorphTargets(glb: Uint8Array): Uint8Array {
  const { json, bin } = readGlb(glb);
  const targetAccessors = new Map<number, 'POSITION' | 'NORMAL'>();
  const normalAccessors = new Set<number>();
  const colorAccessors = new Set<number>();
  for (const mesh of json.meshes ?? []) {
    for (const prim of mesh.primitives) {
      for (const target of prim.targets ?? []) {
        for (const [semantic, index] of Object.entries(target)) {
          if (semantic === 'POSITION' || semantic === 'NORMAL') targetAccessors.set(index, semantic);
        }
      }
      if (prim.attributes.NORMAL !== undefined) normalAccessors.add(prim.attributes.NORMAL);
      if (prim.attributes.COLOR_0 !== undefined) colorAccessors.add(prim.attributes.COLOR_0);
    }
  }
  const chunks: Uint8Array[] = [];
  const views: BufferView[] = [];
  let offset = 0;
  const push = (data: Uint8Array, target?: number, byteStride?: number): number => {
    const view: BufferView = { buffer: 0, byteOffset: offset, byteLength: data.byteLength };
    if (byteStride !== undefined) view.byteStride = byteStride;
    if (target !== undefined) view.target = target;
    views.push(view);
    chunks.push(data);
    const padded = align4(data.byteLength);
    if (padded > data.byteLength) chunks.push(new Uint8Array(padded - data.byteLength));
    offset += padded;
    return views.length - 1;
  };
  const sliceView = (index: number): Uint8Array => {
    const v = json.bufferViews[index]!;
    return bin.subarray(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength);
  };

  // Dense views that stay as they are, in their original order.
  const remap = new Map<number, number>();
  const keep = (index: number): number => {
    let mapped = remap.get(index);
    if (mapped === undefined) {
      const old = json.bufferViews[index]!;
      mapped = push(sliceView(index).slice(), old.target, old.byteStride);
      remap.set(index, mapped);
    }
    return mapped;
  };
  json.accessors.forEach((accessor, i) => {
    if (accessor.bufferView === undefined || targetAccessors.has(i)) return;
    const float3 = accessor.componentType === FLOAT && accessor.type === 'VEC3';
    if (float3 && normalAccessors.has(i)) {
      // Unit normals: int8 is plenty for smooth shading; elements padded to 4 bytes.
      const values = readFloats(json, bin, accessor, 3);
      const packed = new Int8Array(accessor.count * 4);
      for (let v = 0; v < accessor.count; v++)
        for (let c = 0; c < 3; c++) packed[v * 4 + c] = snorm(values[v * 3 + c]!, 8);
      accessor.bufferView = push(new Uint8Array(packed.buffer), ARRAY_BUFFER, 4);
      accessor.componentType = BYTE;
      accessor.normalized = true;
      delete accessor.byteOffset;
      delete accessor.min;
      delete accessor.max;
      return;
    }
    if (float3 && colorAccessors.has(i)) {
      const values = readFloats(json, bin, accessor, 3);
      const packed = new Uint8Array(accessor.count * 4);
      for (let v = 0; v < accessor.count; v++) {
        for (let c = 0; c < 3; c++)
          packed[v * 4 + c] = Math.round(Math.max(0, Math.min(1, values[v * 3 + c]!)) * 255);
      }
      accessor.bufferView = push(packed, ARRAY_BUFFER, 4);
      accessor.componentType = UNSIGNED_BYTE;
      accessor.normalized = true;
      delete accessor.byteOffset;
      delete accessor.min;
      delete accessor.max;
      return;
    }
    accessor.bufferView = keep(accessor.bufferView);
  });
  for (const image of json.images ?? [])
    if (image.bufferView !== undefined) image.bufferView = keep(image.bufferView);

  for (const [i, semantic] of [...targetAccessors].sort((a, b) => a[0] - b[0])) {
    const accessor = json.accessors[i]!;
    if (accessor.bufferView === undefined || accessor.componentType !== FLOAT || accessor.type !== 'VEC3')
      continue;
    const floats = readFloats(json, bin, accessor, 3);
    const bits = semantic === 'POSITION' ? 16 : 8;
    const scaleMax = bits === 16 ? 32767 : 127;
    const moved: number[] = [];
    const quantized: number[] = [];
    for (let v = 0; v < accessor.count; v++) {
      const q = [
        snorm(floats[v * 3]!, bits),
        snorm(floats[v * 3 + 1]!, bits),
        snorm(floats[v * 3 + 2]!, bits),
      ];
      if (q[0] === 0 && q[1] === 0 && q[2] === 0) continue;
      moved.push(v);
      quantized.push(...q);
    }
    // Bounds of what a reader decodes: stored values, plus the implicit zeros if any remain.
    const min = moved.length < accessor.count ? [0, 0, 0] : [scaleMax, scaleMax, scaleMax];
    const max = moved.length < accessor.count ? [0, 0, 0] : [-scaleMax, -scaleMax, -scaleMax];
    for (let k = 0; k < quantized.length; k++) {
      const c = k % 3;
      min[c] = Math.min(min[c]!, quantized[k]!);
      max[c] = Math.max(max[c]!, quantized[k]!);
    }
    delete accessor.bufferView;
    delete accessor.byteOffset;
    delete accessor.sparse;
    accessor.componentType = bits === 16 ? SHORT : BYTE;
    accessor.normalized = true;
    // Bounds of integer accessors are stored as the integers themselves.
    accessor.min = min;
    accessor.max = max;
    if (moved.length === 0) continue;
    const wide = accessor.count > 65535;
    const indices = wide ? new Uint32Array(moved) : new Uint16Array(moved);
    const values = bits === 16 ? new Int16Array(quantized) : new Int8Array(quantized);
    accessor.sparse = {
      count: moved.length,
      indices: {
        bufferView: push(new Uint8Array(indices.buffer)),
        componentType: wide ? UNSIGNED_INT : UNSIGNED_SHORT,
      },
      values: { bufferView: push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength)) },
    };
  }

  const packed = new Uint8Array(offset);
  let at = 0;
  for (const chunk of chunks) {
    packed.set(chunk, at);
    at += chunk.byteLength;
  }
  json.bufferViews = views;
  json.buffers = [{ byteLength: packed.byteLength }];
  json.extensionsUsed = [...new Set([...(json.extensionsUsed ?? []), QUANTIZATION])];
  json.extensionsRequired = [...new Set([...(json.extensionsRequired ?? []), QUANTIZATION])];
  return writeGlb(json, packed);
}
