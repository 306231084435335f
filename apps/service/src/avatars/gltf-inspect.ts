/**
 * Checks that a file is a glTF 2.0 binary (.glb) avatar the rig can drive: a valid GLB container,
 * asset.version 2.x, and morph targets named after ARKit blendshapes or Oculus visemes.
 */
import { ARKIT_BLENDSHAPES, VISEMES } from '@avatar-drive/core';

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'

const ARKIT_NAMES = new Set<string>(ARKIT_BLENDSHAPES);
const OCULUS_VISEME_NAMES = new Set<string>(VISEMES.map((v) => `viseme_${v}`));

/** What inspection found in a valid avatar. */
export interface GltfAvatarInfo {
  generator?: string;
  /** ARKit blendshape names present among the morph targets. */
  arkitTargets: string[];
  /** Oculus viseme names (`viseme_aa`, …) present among the morph targets. */
  visemeTargets: string[];
}

/** Thrown when a file is not a drivable glTF 2.0 avatar; the message says what is wrong. */
export class InvalidAvatarError extends Error {
  override readonly name = 'InvalidAvatarError';
}

/** Inspects GLB bytes; throws InvalidAvatarError when they are not a drivable glTF 2.0 avatar. */
export function inspectGlb(bytes: Uint8Array): GltfAvatarInfo {
  if (bytes.byteLength < 20) throw new InvalidAvatarError('file is too short to be a GLB (glTF binary)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new InvalidAvatarError('not a GLB file (bad magic)');
  const version = view.getUint32(4, true);
  if (version !== 2)
    throw new InvalidAvatarError(`GLB container version ${version}; only glTF 2.0 is supported`);
  const length = view.getUint32(8, true);
  if (length !== bytes.byteLength) {
    throw new InvalidAvatarError(
      `GLB header says ${length} bytes but the file has ${bytes.byteLength} (truncated?)`,
    );
  }
  const chunkLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== CHUNK_JSON || 20 + chunkLength > bytes.byteLength) {
    throw new InvalidAvatarError('the first GLB chunk is not a complete JSON chunk');
  }
  let gltf: GltfJson;
  try {
    gltf = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + chunkLength))) as GltfJson;
  } catch (error) {
    throw new InvalidAvatarError(`the glTF JSON chunk does not parse: ${(error as Error).message}`);
  }
  const assetVersion = gltf.asset?.version;
  if (typeof assetVersion !== 'string' || !assetVersion.startsWith('2.')) {
    throw new InvalidAvatarError(`asset.version is ${JSON.stringify(assetVersion)}; glTF 2.0 is required`);
  }
  const names = new Set<string>();
  for (const mesh of gltf.meshes ?? []) {
    for (const name of readTargetNames(mesh.extras)) names.add(name);
    for (const primitive of mesh.primitives ?? []) {
      for (const name of readTargetNames(primitive.extras)) names.add(name);
    }
  }
  const arkitTargets = [...names].filter((n) => ARKIT_NAMES.has(n));
  const visemeTargets = [...names].filter((n) => OCULUS_VISEME_NAMES.has(n));
  if (arkitTargets.length === 0 && visemeTargets.length === 0) {
    throw new InvalidAvatarError(
      'no morph targets named after ARKit blendshapes (jawOpen, …) or Oculus visemes (viseme_aa, …) ' +
        '(names are read from mesh.extras.targetNames)',
    );
  }
  return {
    ...(typeof gltf.asset?.generator === 'string' && { generator: gltf.asset.generator }),
    arkitTargets,
    visemeTargets,
  };
}

interface GltfJson {
  asset?: { version?: unknown; generator?: unknown };
  meshes?: { extras?: unknown; primitives?: { extras?: unknown }[] }[];
}

function readTargetNames(extras: unknown): string[] {
  const names = (extras as { targetNames?: unknown } | undefined)?.targetNames;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}
