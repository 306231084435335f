/**
 * A cheap structural check of an avatar file before anything expensive touches it: the GLB
 * container (header, chunk lengths), the size and shape of the glTF JSON (no JSON bombs), every
 * size and index the JSON declares (buffers, buffer views, accessors, mesh references) against the
 * bytes actually present, URIs (a GLB avatar must be self-contained), the extensions it uses
 * (compressed buffer views and KTX2 texture headers included, see gltf-extensions.ts) and the VRM
 * extension.
 *
 * Linear in the file size and never allocates more than the file: what passes is safe to hand to
 * the Khronos validator (which then checks everything else) and to clients.
 */
import { fileProblem } from './file-problem.js';
import {
  type BufferKind,
  basisuImages,
  checkExtensionPolicy,
  MESHOPT,
  type MeshoptView,
  meshoptViewOf,
} from './gltf-extensions.js';
import { count, type GltfJson, index, isObject, list } from './gltf-json.js';
import { checkKtx2 } from './ktx2-header.js';
import { checkVrm } from './vrm-precheck.js';

export type { GltfJson } from './gltf-json.js';

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'

/** Bounds of the pre-check. */
export interface PrecheckLimits {
  /** Largest file accepted, and largest size any part of it may declare. */
  maxBytes: number;
  /** Largest JSON chunk (default 4 MiB). */
  maxJsonBytes?: number;
  /** Deepest nesting of JSON arrays/objects (default 64; real glTF needs < 12). */
  maxJsonDepth?: number;
  /** Most entries in any one JSON array or object (default 100 000). */
  maxJsonItems?: number;
  /**
   * Most bytes the file's `EXT_meshopt_compression` buffer views may decode to, all together
   * (default 4 × maxBytes): checked before anything decodes them.
   */
  maxDecodedBytes?: number;
}

/** What the pre-check learnt about a file that passed. */
export interface PrecheckResult {
  /** The parsed glTF JSON. */
  gltf: GltfJson;
  /** `vrm` when the file carries a VRM extension, else `glb`. */
  format: 'glb' | 'vrm';
  /** `0` for VRM 0.x (`VRM`), `1` for VRM 1.0 (`VRMC_vrm`). */
  vrmVersion?: 0 | 1;
  /** Morph-target names found on the meshes (`extras.targetNames`). */
  targetNames: string[];
  /** `extensionsUsed` of the file. */
  extensions: string[];
  /** The `EXT_meshopt_compression` buffer views, checked; empty when the file is not compressed. */
  meshopt: MeshoptView[];
}

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};
const SELF_CONTAINED =
  'A GLB/VRM avatar must carry all its data inside the file: re-export it as a self-contained binary glTF (in Blender: glTF Binary, .glb).';

/** Checks `bytes`; throws an AvatarError (avatarInvalid / avatarTooLarge) naming the first problem. */
export function precheckGlb(bytes: Uint8Array, limits: PrecheckLimits): PrecheckResult {
  const maxJsonBytes = limits.maxJsonBytes ?? 4 * 1024 * 1024;
  if (bytes.byteLength > limits.maxBytes) {
    throw fileProblem(
      'tooLarge',
      `The file is ${bytes.byteLength} bytes; this service accepts avatars up to ${limits.maxBytes} bytes. Reduce textures or polygons and upload again.`,
    );
  }
  if (bytes.byteLength < 20) {
    throw fileProblem(
      'notGlb',
      'The file is too short to be a GLB. Upload a binary glTF 2.0 (.glb) or VRM file.',
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) {
    throw fileProblem(
      'notGlb',
      'The file is not a GLB (it does not start with "glTF"). Upload a binary glTF 2.0 (.glb) or VRM file; convert .gltf/.fbx first.',
    );
  }
  const version = view.getUint32(4, true);
  if (version !== 2) {
    throw fileProblem(
      'notGlb',
      `The GLB container is version ${version}; only glTF 2.0 is supported. Re-export as glTF 2.0.`,
    );
  }
  const declared = view.getUint32(8, true);
  if (declared > limits.maxBytes) {
    throw fileProblem(
      'tooLarge',
      `The GLB header declares ${declared} bytes, over this service's limit of ${limits.maxBytes}. Upload a smaller avatar.`,
    );
  }
  if (declared !== bytes.byteLength) {
    throw fileProblem(
      'truncated',
      `The GLB header declares ${declared} bytes but the file has ${bytes.byteLength}: it is truncated or has trailing data. Upload the complete file.`,
    );
  }
  const chunks = readChunks(view, declared);
  const json = chunks[0];
  if (!json || json.type !== CHUNK_JSON) {
    throw fileProblem(
      'notGlb',
      'The first GLB chunk is not the JSON chunk. Re-export the avatar as binary glTF 2.0.',
    );
  }
  if (json.length > maxJsonBytes) {
    throw fileProblem(
      'tooLarge',
      `The glTF JSON chunk is ${json.length} bytes; at most ${maxJsonBytes} are accepted. Remove unused nodes, animations or extras.`,
    );
  }
  const bin = chunks[1]?.type === CHUNK_BIN ? chunks[1] : undefined;
  const jsonBytes = bytes.subarray(json.offset, json.offset + json.length);
  checkJsonShape(jsonBytes, limits.maxJsonDepth ?? 64);
  let gltf: unknown;
  try {
    gltf = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(jsonBytes));
  } catch (error) {
    throw fileProblem(
      'jsonInvalid',
      `The glTF JSON does not parse (${(error as Error).message}). Re-export the avatar.`,
    );
  }
  if (!isObject(gltf))
    throw fileProblem('jsonInvalid', 'The glTF JSON is not an object. Re-export the avatar.');
  checkItemCounts(gltf, limits.maxJsonItems ?? 100_000);
  const assetVersion = isObject(gltf.asset) ? gltf.asset.version : undefined;
  if (typeof assetVersion !== 'string' || !/^2\.\d+$/.test(assetVersion)) {
    throw fileProblem(
      'notGlb',
      `asset.version is ${JSON.stringify(assetVersion) ?? 'missing'}; glTF 2.0 is required. Re-export as glTF 2.0.`,
    );
  }
  const extensions = checkExtensionPolicy(gltf);
  const binBytes = bin ? bytes.subarray(bin.offset, bin.offset + bin.length) : new Uint8Array(0);
  const data = checkData(gltf, binBytes, limits.maxBytes, {
    meshopt: extensions.includes(MESHOPT),
    maxDecodedBytes: limits.maxDecodedBytes ?? limits.maxBytes * 4,
  });
  const vrmVersion = checkVrm(gltf);
  return {
    gltf,
    format: vrmVersion === undefined ? 'glb' : 'vrm',
    ...(vrmVersion !== undefined && { vrmVersion }),
    targetNames: targetNamesOf(gltf),
    extensions,
    ...data,
  };
}

interface Chunk {
  type: number;
  offset: number;
  length: number;
}

function readChunks(view: DataView, total: number): Chunk[] {
  const chunks: Chunk[] = [];
  let offset = 12;
  while (offset < total) {
    if (offset + 8 > total) {
      throw fileProblem(
        'truncated',
        `A GLB chunk header at byte ${offset} is cut off. Upload the complete file.`,
      );
    }
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    if (length > total - offset - 8) {
      throw fileProblem(
        'truncated',
        `GLB chunk ${chunks.length} declares ${length} bytes but only ${total - offset - 8} follow: the file is truncated. Upload the complete file.`,
      );
    }
    chunks.push({ type, offset: offset + 8, length });
    offset += 8 + length;
    // A real GLB has two chunks; thousands of empty ones are an attack on whoever reads them.
    if (chunks.length > 64)
      throw fileProblem('notGlb', 'The GLB has more than 64 chunks. Re-export the avatar.');
  }
  return chunks;
}

/** Refuses nesting deeper than `maxDepth` before JSON.parse (and the validator) recurse into it. */
function checkJsonShape(json: Uint8Array, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) {
        throw fileProblem(
          'jsonTooComplex',
          `The glTF JSON nests deeper than ${maxDepth} levels. No real avatar does; re-export it from your modelling tool.`,
        );
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** Refuses arrays or objects with more than `maxItems` entries anywhere in the JSON. */
function checkItemCounts(root: unknown, maxItems: number): void {
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    const items = Array.isArray(value) ? value : Object.values(value);
    visited += items.length;
    if (items.length > maxItems || visited > maxItems * 20) {
      throw fileProblem(
        'jsonTooComplex',
        `The glTF JSON holds more than ${maxItems} entries in one list (or too many in all). Simplify the avatar (merge meshes, drop unused data).`,
      );
    }
    for (const item of items) if (typeof item === 'object' && item !== null) stack.push(item);
  }
}

/**
 * Buffers, images, buffer views, accessors and mesh references: declared sizes and indices. With
 * meshopt, buffers past 0 may be fallback buffers (no data: every view of them is decoded from a
 * stream in the BIN chunk), and the views' decoded sizes are bounded by `maxDecodedBytes` in all.
 */
function checkData(
  gltf: GltfJson,
  bin: Uint8Array,
  maxBytes: number,
  compression: { meshopt: boolean; maxDecodedBytes: number },
): { meshopt: MeshoptView[] } {
  const binLength = bin.byteLength;
  const buffers = list(gltf.buffers, 'buffers');
  const kinds = buffers.map((buffer, i): BufferKind => {
    if (buffer.uri !== undefined) {
      throw fileProblem(
        'externalUri',
        `buffers[${i}] points to ${describeUri(buffer.uri)}. ${SELF_CONTAINED}`,
      );
    }
    const byteLength = count(buffer.byteLength, `buffers[${i}].byteLength`);
    // With meshopt, a buffer past 0 is a placeholder the decoder fills (tagged `fallback` or not).
    const fallback = i > 0 && compression.meshopt;
    const limit = fallback ? compression.maxDecodedBytes : maxBytes;
    if (byteLength > limit) {
      throw fileProblem(
        'tooLarge',
        `buffers[${i}] declares ${byteLength} bytes, over this service's limit of ${limit}.`,
      );
    }
    if (fallback) return 'fallback';
    if (i > 0) {
      throw fileProblem(
        'externalUri',
        `buffers[${i}] has no data in this file (only buffer 0 can live in a GLB). ${SELF_CONTAINED}`,
      );
    }
    if (byteLength > binLength) {
      throw fileProblem(
        'outOfRange',
        `buffers[0] declares ${byteLength} bytes but the GLB's BIN chunk has ${binLength}: the file is truncated or corrupt. Re-export it.`,
      );
    }
    return 'bin';
  });
  const meshopt: MeshoptView[] = [];
  let decodedBytes = 0;
  const views = list(gltf.bufferViews, 'bufferViews').map((view, i) => {
    const where = `bufferViews[${i}]`;
    const buffer = index(view.buffer, buffers.length, `${where}.buffer`);
    const offset = view.byteOffset === undefined ? 0 : count(view.byteOffset, `${where}.byteOffset`);
    const length = count(view.byteLength, `${where}.byteLength`);
    const bufferLength = buffers[buffer]!.byteLength as number;
    if (offset + length > bufferLength) {
      throw fileProblem(
        'outOfRange',
        `${where} covers bytes ${offset}–${offset + length} of a ${bufferLength}-byte buffer. The file is corrupt; re-export it.`,
      );
    }
    const stride = view.byteStride === undefined ? undefined : count(view.byteStride, `${where}.byteStride`);
    const compressed = compression.meshopt ? meshoptViewOf(view, i, length, kinds, binLength) : undefined;
    if (compressed) {
      decodedBytes += length;
      if (decodedBytes > compression.maxDecodedBytes) {
        throw fileProblem(
          'tooLarge',
          `The file's ${MESHOPT} buffer views decode to more than ${compression.maxDecodedBytes} bytes, this service's limit. Simplify the avatar (fewer vertices or morph targets) and upload again.`,
        );
      }
      meshopt.push(compressed);
    } else if (kinds[buffer] === 'fallback') {
      throw fileProblem(
        'compressionMalformed',
        `${where} reads buffers[${buffer}], which holds no data, and is not ${MESHOPT}-compressed. The file is corrupt; re-export it.`,
      );
    }
    return { buffer, offset, length, stride, compressed: compressed !== undefined };
  });
  const images = list(gltf.images, 'images');
  const ktx2 = basisuImages(gltf, images.length);
  images.forEach((image, i) => {
    if (image.uri !== undefined) {
      throw fileProblem('externalUri', `images[${i}] points to ${describeUri(image.uri)}. ${SELF_CONTAINED}`);
    }
    const isKtx2 = image.mimeType === 'image/ktx2';
    if (ktx2.has(i) && !isKtx2) {
      throw fileProblem(
        'compressionMalformed',
        `images[${i}] is the source of a KHR_texture_basisu texture but its mimeType is ${JSON.stringify(image.mimeType) ?? 'missing'}, not "image/ktx2". Re-export the avatar.`,
      );
    }
    if (image.bufferView === undefined) return;
    const viewIndex = index(image.bufferView, views.length, `images[${i}].bufferView`);
    const view = views[viewIndex]!;
    if (kinds[view.buffer] !== 'bin' || view.compressed) {
      throw fileProblem(
        'compressionMalformed',
        `images[${i}] is stored in a meshopt-compressed buffer view; images must be stored as they are. Re-export the avatar.`,
      );
    }
    if (isKtx2) checkKtx2(bin.subarray(view.offset, view.offset + view.length), `images[${i}]`);
  });
  const accessors = list(gltf.accessors, 'accessors');
  accessors.forEach((accessor, i) => {
    const where = `accessors[${i}]`;
    const elements = count(accessor.count, `${where}.count`);
    const componentBytes = COMPONENT_BYTES[accessor.componentType as number];
    const components = TYPE_COMPONENTS[accessor.type as string];
    if (!componentBytes || !components) {
      throw fileProblem(
        'outOfRange',
        `${where} has an unknown componentType or type. The file is corrupt; re-export it.`,
      );
    }
    const elementBytes = componentBytes * components;
    if (accessor.bufferView !== undefined) {
      const viewIndex = index(accessor.bufferView, views.length, `${where}.bufferView`);
      const view = views[viewIndex]!;
      const offset =
        accessor.byteOffset === undefined ? 0 : count(accessor.byteOffset, `${where}.byteOffset`);
      const stride = view.stride ?? elementBytes;
      const needed = elements === 0 ? 0 : offset + stride * (elements - 1) + elementBytes;
      if (needed > view.length) {
        throw fileProblem(
          'outOfRange',
          `${where} reads ${elements} elements (${needed} bytes) from bufferViews[${viewIndex}], which has ${view.length}. The file is corrupt; re-export it.`,
        );
      }
    } else if (elements * elementBytes > maxBytes) {
      // No buffer view: a reader allocates zeros for it; the size must still be sane.
      throw fileProblem(
        'tooLarge',
        `${where} declares ${elements * elementBytes} bytes of data, over this service's limit of ${maxBytes}.`,
      );
    }
    if (isObject(accessor.sparse)) {
      const sparse = accessor.sparse;
      const sparseCount = count(sparse.count, `${where}.sparse.count`);
      if (sparseCount > elements) {
        throw fileProblem(
          'outOfRange',
          `${where}.sparse.count ${sparseCount} is more than the accessor's ${elements} elements. Re-export it.`,
        );
      }
      for (const [part, bytesEach] of [
        ['indices', COMPONENT_BYTES[(sparse.indices as GltfJson | undefined)?.componentType as number] ?? 4],
        ['values', elementBytes],
      ] as const) {
        const ref = sparse[part];
        if (!isObject(ref))
          throw fileProblem('outOfRange', `${where}.sparse.${part} is missing. Re-export it.`);
        const viewIndex = index(ref.bufferView, views.length, `${where}.sparse.${part}.bufferView`);
        const offset =
          ref.byteOffset === undefined ? 0 : count(ref.byteOffset, `${where}.sparse.${part}.byteOffset`);
        if (offset + sparseCount * bytesEach > views[viewIndex]!.length) {
          throw fileProblem(
            'outOfRange',
            `${where}.sparse.${part} reads past the end of bufferViews[${viewIndex}]. The file is corrupt; re-export it.`,
          );
        }
      }
    }
  });
  list(gltf.meshes, 'meshes').forEach((mesh, m) => {
    list(mesh.primitives, `meshes[${m}].primitives`).forEach((primitive, p) => {
      const where = `meshes[${m}].primitives[${p}]`;
      const refs: [string, unknown][] = [];
      if (isObject(primitive.attributes))
        for (const [k, v] of Object.entries(primitive.attributes)) refs.push([`attributes.${k}`, v]);
      if (primitive.indices !== undefined) refs.push(['indices', primitive.indices]);
      list(primitive.targets, `${where}.targets`).forEach((target, t) => {
        for (const [k, v] of Object.entries(target)) refs.push([`targets[${t}].${k}`, v]);
      });
      for (const [name, ref] of refs) index(ref, accessors.length, `${where}.${name}`);
    });
  });
  return { meshopt };
}

function targetNamesOf(gltf: GltfJson): string[] {
  const names = new Set<string>();
  const add = (extras: unknown) => {
    const found = isObject(extras) ? extras.targetNames : undefined;
    if (Array.isArray(found)) for (const n of found) if (typeof n === 'string') names.add(n);
  };
  for (const mesh of list(gltf.meshes, 'meshes')) {
    add(mesh.extras);
    for (const primitive of list(mesh.primitives, 'primitives')) add(primitive.extras);
  }
  return [...names];
}

/** Names a URI for a message without echoing an arbitrary (possibly huge) string. */
function describeUri(uri: unknown): string {
  if (typeof uri !== 'string') return 'a non-string URI';
  if (uri.startsWith('data:')) return 'inline data (a data: URI)';
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) return `an external URL (${uri.slice(0, uri.indexOf(':'))}:)`;
  if (uri.includes('..') || uri.startsWith('/') || uri.includes('\\')) return 'a path outside the file';
  return `an external file "${uri.slice(0, 60)}"`;
}
