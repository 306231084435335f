/**
 * Scene → binary glTF in Node: three's GLTFExporter (which reads its output through the browser's
 * FileReader, polyfilled here on top of Node's Blob), then morph targets rewritten as sparse
 * accessors, which keeps a 52-target avatar small.
 */
import type * as THREE from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';

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
    return sparsifyMorphTargets(new Uint8Array(result));
  } finally {
    if (!had) delete g.FileReader;
    else g.FileReader = previous;
  }
}

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;

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
  meshes?: { primitives: { targets?: Record<string, number>[] }[] }[];
  images?: { bufferView?: number }[];
}

/** Splits a GLB into its JSON and binary chunks. */
export function readGlb(bytes: Uint8Array): { json: GltfJson; bin: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new Error('not a GLB file');
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== CHUNK_JSON) throw new Error('GLB without a JSON chunk');
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as GltfJson;
  const binStart = 20 + jsonLength;
  let bin = new Uint8Array(0);
  if (binStart + 8 <= bytes.byteLength && view.getUint32(binStart + 4, true) === CHUNK_BIN) {
    const binLength = view.getUint32(binStart, true);
    bin = bytes.subarray(binStart + 8, binStart + 8 + binLength);
  }
  return { json, bin };
}

function writeGlb(json: unknown, bin: Uint8Array): Uint8Array {
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

/**
 * Rewrites every dense VEC3 float morph-target accessor as a sparse one (only the vertices a
 * target moves are stored; a target that moves nothing stores nothing), drops the dense data and
 * repacks the binary chunk.
 */
export function sparsifyMorphTargets(glb: Uint8Array): Uint8Array {
  const { json, bin } = readGlb(glb);
  const targetAccessors = new Set<number>();
  for (const mesh of json.meshes ?? []) {
    for (const prim of mesh.primitives) {
      for (const target of prim.targets ?? []) for (const index of Object.values(target)) targetAccessors.add(index);
    }
  }
  const chunks: Uint8Array[] = [];
  const views: BufferView[] = [];
  let offset = 0;
  const push = (data: Uint8Array, target?: number): number => {
    const view: BufferView = { buffer: 0, byteOffset: offset, byteLength: data.byteLength };
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

  // Dense views that stay, in their original order.
  const remap = new Map<number, number>();
  const keep = (index: number): number => {
    let mapped = remap.get(index);
    if (mapped === undefined) {
      const old = json.bufferViews[index]!;
      mapped = push(sliceView(index).slice(), old.target);
      if (old.byteStride !== undefined) views[mapped]!.byteStride = old.byteStride;
      remap.set(index, mapped);
    }
    return mapped;
  };
  json.accessors.forEach((accessor, i) => {
    if (accessor.bufferView === undefined || targetAccessors.has(i)) return;
    accessor.bufferView = keep(accessor.bufferView);
  });
  for (const image of json.images ?? []) if (image.bufferView !== undefined) image.bufferView = keep(image.bufferView);

  for (const i of [...targetAccessors].sort((a, b) => a - b)) {
    const accessor = json.accessors[i]!;
    if (accessor.bufferView === undefined || accessor.componentType !== FLOAT || accessor.type !== 'VEC3') continue;
    const source = sliceView(accessor.bufferView);
    const floats = new Float32Array(
      source.buffer.slice(
        source.byteOffset + (accessor.byteOffset ?? 0),
        source.byteOffset + (accessor.byteOffset ?? 0) + accessor.count * 12,
      ),
    );
    const moved: number[] = [];
    for (let v = 0; v < accessor.count; v++) {
      if (floats[v * 3] !== 0 || floats[v * 3 + 1] !== 0 || floats[v * 3 + 2] !== 0) moved.push(v);
    }
    const min = [0, 0, 0];
    const max = [0, 0, 0];
    const values = new Float32Array(moved.length * 3);
    moved.forEach((v, k) => {
      for (let c = 0; c < 3; c++) {
        const x = floats[v * 3 + c]!;
        values[k * 3 + c] = x;
        if (x < min[c]!) min[c] = x;
        if (x > max[c]!) max[c] = x;
      }
    });
    delete accessor.bufferView;
    delete accessor.byteOffset;
    accessor.min = min.map((x) => Math.fround(x));
    accessor.max = max.map((x) => Math.fround(x));
    if (moved.length === 0) {
      delete accessor.sparse;
      continue;
    }
    const wide = accessor.count > 65535;
    const indices = wide ? new Uint32Array(moved) : new Uint16Array(moved);
    accessor.sparse = {
      count: moved.length,
      indices: {
        bufferView: push(new Uint8Array(indices.buffer)),
        componentType: wide ? UNSIGNED_INT : UNSIGNED_SHORT,
      },
      values: { bufferView: push(new Uint8Array(values.buffer)) },
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
  return writeGlb(json, packed);
}
