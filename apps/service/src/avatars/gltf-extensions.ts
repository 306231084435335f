/**
 * Which glTF extensions an avatar may use, and the structure of the compressed ones checked before
 * anything decodes them: `EXT_meshopt_compression` buffer views (modes, strides, counts, the
 * decoded size bounded up front) and `KHR_texture_basisu` texture sources. `KHR_draco_mesh_compression`
 * is refused with a typed error that says how to re-export: Draco cannot compress morph targets
 * (it reorders vertices), so an avatar's face gains nothing from it, while every client would have
 * to fetch and run a 200 KB decoder; meshopt compresses the targets too and decodes in-process.
 */
import { fileProblem } from './file-problem.js';
import { count, type GltfJson, index, isObject, list } from './gltf-json.js';

export const MESHOPT = 'EXT_meshopt_compression';
export const BASISU = 'KHR_texture_basisu';

/**
 * Extensions a file may require: those three's GLTFLoader (every client's loader) implements, with
 * Draco left out on purpose (see above). A required extension outside this list would load wrong
 * or not at all, so the file is refused naming it.
 */
const LOADABLE = new Set([
  'EXT_meshopt_compression',
  'KHR_mesh_quantization',
  'KHR_texture_basisu',
  'KHR_texture_transform',
  'KHR_materials_unlit',
  'KHR_materials_emissive_strength',
  'KHR_materials_clearcoat',
  'KHR_materials_sheen',
  'KHR_materials_specular',
  'KHR_materials_ior',
  'KHR_materials_transmission',
  'KHR_materials_volume',
  'KHR_materials_iridescence',
  'KHR_materials_anisotropy',
  'KHR_materials_dispersion',
  'KHR_materials_diffuse_roughness',
  'KHR_lights_punctual',
  'EXT_materials_bump',
  'EXT_texture_webp',
  'EXT_texture_avif',
  'EXT_mesh_gpu_instancing',
  // VRM (read by three-vrm on the clients, checked by vrm-precheck here).
  'VRM',
  'VRMC_vrm',
  'VRMC_materials_mtoon',
  'VRMC_springBone',
  'VRMC_node_constraint',
  'VRMC_materials_hdr_emissiveMultiplier',
]);

const RE_EXPORT_MESHOPT =
  'Re-export it with meshopt compression instead (glTF-Transform: `gltf-transform meshopt in.glb out.glb`; gltfpack: `gltfpack -cc`), or uncompressed.';

/** The extension names of `extensionsUsed` / `extensionsRequired` (checked to be strings). */
function names(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.length <= 128)) {
    throw fileProblem('jsonInvalid', `${where} is not a list of extension names. Re-export the avatar.`);
  }
  return value as string[];
}

/**
 * Refuses Draco anywhere (three's loader cannot read a file that uses it without a Draco decoder,
 * even when it is optional) and any required extension no client can load. Returns the used ones.
 */
export function checkExtensionPolicy(gltf: GltfJson): string[] {
  const used = names(gltf.extensionsUsed, 'extensionsUsed');
  const required = names(gltf.extensionsRequired, 'extensionsRequired');
  if (used.includes('KHR_draco_mesh_compression') || required.includes('KHR_draco_mesh_compression')) {
    throw fileProblem(
      'unsupportedExtension',
      `The file uses KHR_draco_mesh_compression, which this service does not accept (Draco leaves morph targets uncompressed and needs a separate decoder in every client). ${RE_EXPORT_MESHOPT}`,
    );
  }
  for (const name of required) {
    if (!LOADABLE.has(name)) {
      throw fileProblem(
        'unsupportedExtension',
        `The file requires the glTF extension ${JSON.stringify(name)}, which avatar clients cannot load. Re-export the avatar without it${name.includes('meshopt') ? ` (${MESHOPT} is supported)` : ''}.`,
      );
    }
  }
  return used;
}

/** What a buffer holds: the GLB's BIN chunk, or nothing (a meshopt fallback: filled by decoding). */
export type BufferKind = 'bin' | 'fallback';

const MODES = new Set(['ATTRIBUTES', 'TRIANGLES', 'INDICES']);
const FILTERS = new Set(['NONE', 'OCTAHEDRAL', 'QUATERNION', 'EXPONENTIAL']);

/** One compressed buffer view, as the decoder needs it. */
export interface MeshoptView {
  /** Index of the buffer view it fills. */
  view: number;
  /** Where the compressed stream is in the BIN chunk. */
  byteOffset: number;
  byteLength: number;
  count: number;
  byteStride: number;
  mode: string;
  filter: string;
}

/**
 * Checks the `EXT_meshopt_compression` object of buffer view `i` against the rules of the
 * extension (modes, filters and the strides they allow; decoded size = count × stride = the view's
 * length) and the BIN chunk (the compressed stream lies inside it). `undefined` when the view is
 * not compressed.
 */
export function meshoptViewOf(
  view: GltfJson,
  i: number,
  viewLength: number,
  kinds: readonly BufferKind[],
  binLength: number,
): MeshoptView | undefined {
  const ext = isObject(view.extensions) ? view.extensions[MESHOPT] : undefined;
  if (ext === undefined) return undefined;
  const where = `bufferViews[${i}].extensions.${MESHOPT}`;
  const bad = (detail: string) =>
    fileProblem('compressionMalformed', `${where} ${detail}. The file is corrupt; re-export it.`);
  if (!isObject(ext)) throw bad('is not an object');
  const buffer = index(ext.buffer, kinds.length, `${where}.buffer`);
  if (kinds[buffer] !== 'bin') throw bad(`reads its stream from buffers[${buffer}], which holds no data`);
  const byteOffset = ext.byteOffset === undefined ? 0 : count(ext.byteOffset, `${where}.byteOffset`);
  const byteLength = count(ext.byteLength, `${where}.byteLength`);
  if (byteOffset + byteLength > binLength) {
    throw fileProblem(
      'outOfRange',
      `${where} covers bytes ${byteOffset}–${byteOffset + byteLength} of a ${binLength}-byte BIN chunk. The file is corrupt; re-export it.`,
    );
  }
  const elements = count(ext.count, `${where}.count`);
  const byteStride = count(ext.byteStride, `${where}.byteStride`);
  const mode = ext.mode;
  const filter = ext.filter ?? 'NONE';
  if (typeof mode !== 'string' || !MODES.has(mode)) throw bad(`has mode ${JSON.stringify(mode)}`);
  if (typeof filter !== 'string' || !FILTERS.has(filter)) throw bad(`has filter ${JSON.stringify(filter)}`);
  if (elements * byteStride !== viewLength) {
    throw bad(`decodes to ${elements} × ${byteStride} bytes, but the buffer view holds ${viewLength}`);
  }
  if (view.byteStride !== undefined && view.byteStride !== byteStride) {
    throw bad(`has byteStride ${byteStride} but its buffer view says ${String(view.byteStride)}`);
  }
  if (mode === 'ATTRIBUTES') {
    if (byteStride === 0 || byteStride % 4 !== 0 || byteStride > 256)
      throw bad(`has an ATTRIBUTES stride of ${byteStride} (a multiple of 4 up to 256 is needed)`);
    if (filter === 'OCTAHEDRAL' && byteStride !== 4 && byteStride !== 8)
      throw bad('uses the OCTAHEDRAL filter with a stride other than 4 or 8');
    if (filter === 'QUATERNION' && byteStride !== 8)
      throw bad('uses the QUATERNION filter with a stride other than 8');
  } else {
    if (byteStride !== 2 && byteStride !== 4)
      throw bad(`has a ${mode} stride of ${byteStride} (2 or 4 is needed)`);
    if (filter !== 'NONE') throw bad(`filters ${mode} data`);
    if (mode === 'TRIANGLES' && elements % 3 !== 0)
      throw bad(`holds ${elements} TRIANGLES indices, not a multiple of 3`);
  }
  return { view: i, byteOffset, byteLength, count: elements, byteStride, mode, filter };
}

/**
 * `KHR_texture_basisu` on textures: its `source` names an image that is KTX2. Returns the indices
 * of images that must be KTX2 (the caller checks their headers).
 */
export function basisuImages(gltf: GltfJson, imageCount: number): Set<number> {
  const ktx2 = new Set<number>();
  list(gltf.textures, 'textures').forEach((texture, t) => {
    const ext = isObject(texture.extensions) ? texture.extensions[BASISU] : undefined;
    if (ext === undefined) return;
    if (!isObject(ext)) {
      throw fileProblem(
        'jsonInvalid',
        `textures[${t}].extensions.${BASISU} is not an object. Re-export the avatar.`,
      );
    }
    ktx2.add(index(ext.source, imageCount, `textures[${t}].extensions.${BASISU}.source`));
  });
  return ktx2;
}
