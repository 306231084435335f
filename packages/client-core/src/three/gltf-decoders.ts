/**
 * The decoders a compressed glTF needs, registered on three's GLTFLoader only when the model's
 * JSON says it uses them, so pages showing plain models never download them:
 * `EXT_meshopt_compression` (three's MeshoptDecoder, WebAssembly, in-process) and
 * `KHR_texture_basisu` (a KTX2Loader the platform supplies: it knows the renderer and where the
 * Basis transcoder is served). `KHR_draco_mesh_compression` is not read (the service refuses it:
 * re-export with meshopt), nor is any other extension a file requires and three cannot load.
 */
import { AvatarError } from '@avatar-drive/core';
import type { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';

/** Supplies a KTX2Loader (transcoder path set, `detectSupport(renderer)` called) on first need. */
export type Ktx2LoaderSource = () => Promise<KTX2Loader>;

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Registers on `loader` what the document `json` (the GLB's JSON chunk) uses. Throws AvatarError
 * `assetDownloadFailed`, naming the extension, when it requires one this platform cannot decode.
 */
export async function registerGltfDecoders(
  loader: GLTFLoader,
  json: Record<string, unknown> | undefined,
  avatarId: string,
  ktx2: Ktx2LoaderSource | undefined,
): Promise<void> {
  const used = names(json?.extensionsUsed);
  const required = names(json?.extensionsRequired);
  const refuse = (detail: string) =>
    new AvatarError('assetDownloadFailed', `Avatar ${avatarId}'s model cannot be shown here: ${detail}`, {
      phase: 'load',
    });
  if (used.includes('KHR_draco_mesh_compression')) {
    throw refuse(
      'it uses KHR_draco_mesh_compression, which Avatar Drive does not read. Re-export it with meshopt compression (gltf-transform meshopt in.glb out.glb).',
    );
  }
  if (used.includes('EXT_meshopt_compression')) {
    // React Native's Hermes has no WebAssembly (the lib here declares no DOM, hence globalThis).
    if (!('WebAssembly' in globalThis)) {
      if (required.includes('EXT_meshopt_compression')) {
        throw refuse(
          'it is meshopt-compressed (EXT_meshopt_compression), which needs WebAssembly, and this JavaScript engine has none. Use an uncompressed avatar on this platform.',
        );
      }
    } else {
      const { MeshoptDecoder } = await import('three/examples/jsm/libs/meshopt_decoder.module.js');
      await MeshoptDecoder.ready;
      loader.setMeshoptDecoder(MeshoptDecoder);
    }
  }
  if (used.includes('KHR_texture_basisu')) {
    if (ktx2) loader.setKTX2Loader(await ktx2());
    else if (required.includes('KHR_texture_basisu')) {
      throw refuse(
        'its textures are KTX2 (KHR_texture_basisu), which this platform does not transcode. Re-export it with PNG/JPEG textures.',
      );
    }
  }
}
