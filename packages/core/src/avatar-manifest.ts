/**
 * The avatar manifest, typed once: what the service serves for an avatar
 * (`GET /v1/console/avatars/:id`, each item of the list, the upload's answer) and the part of it an
 * author writes as `<id>/manifest.json` in an avatars directory. The service's JSON schema of the
 * manifest is tested against {@link AvatarManifest}.
 */
import type { RIG_ID } from './rig.js';

/** A camera that frames the avatar's head and shoulders (metres, glTF scene coordinates). */
export interface AvatarCamera {
  position: [number, number, number];
  target: [number, number, number];
  /** Vertical field of view in degrees. */
  fov: number;
}

/** The kinds of avatar file: glTF binary, VRM, or a LAM Gaussian-splat avatar (zip). */
export type AvatarModelFormat = 'glb' | 'vrm' | 'lam';

/** The model file a manifest names. */
export interface AvatarModelRef {
  /** Relative to the manifest in an avatars directory; absolute as the service serves it. */
  uri: string;
  format: AvatarModelFormat;
  /** Size in bytes (for download progress). */
  bytes: number;
  /** Hex SHA-256 of the model bytes (cache key). */
  sha256: string;
}

/** One downloadable asset of a served manifest (content-addressed URL, immutable). */
export interface AvatarManifestAsset {
  /** `model`: the avatar file. */
  kind: string;
  name: string;
  url: string;
  contentType: string;
  sha256: string;
  size: number;
}

/**
 * An avatar's manifest as the service serves it.
 *
 * @example
 * ```ts
 * import type { AvatarManifest } from '@avatar-drive/core';
 *
 * const manifest: AvatarManifest = {
 *   id: 'mika',
 *   name: 'Mika',
 *   rig: 'arkit-52',
 *   owner: 'builtin',
 *   format: 'glb',
 *   model: { uri: 'https://avatars.example/mika.glb', format: 'glb', bytes: 1024, sha256: 'ab'.repeat(32) },
 *   assets: [],
 * };
 * console.log(manifest.rig);
 * ```
 */
export interface AvatarManifest {
  id: string;
  name: string;
  /** Always `arkit-52`: drive frames of that rig animate this avatar. */
  rig: typeof RIG_ID;
  /** `builtin`: served to every app; `app`: uploaded by this app, seen by it only. */
  owner: 'builtin' | 'app';
  format: AvatarModelFormat;
  /** The model, its URI absolute. */
  model: AvatarModelRef;
  assets: AvatarManifestAsset[];
  description?: string;
  /** Framing chosen by the avatar's author. */
  camera?: AvatarCamera;
  /** Node to rotate with the frame's head rotation (pivot at the top of the neck). */
  headNode?: string;
  /** Nodes to rotate with the frame's eye pose: left, right (pivots at the eye centres). */
  eyeNodes?: [string, string];
  /** `lam`: how many Gaussians the head has (one per mesh vertex). */
  splats?: number;
  /** VRM major version (0 or 1) of a `vrm`. */
  vrmVersion?: number;
  /** Morph targets that follow ARKit blendshapes and visemes. */
  morphTargets?: { arkit: number; visemes: number };
  /** Which drive channels the avatar binds (a summary of its `AvatarCoverage`). */
  coverage?: Record<string, unknown>;
  /** Uploads: when, ISO 8601. */
  createdAt?: string;
  /** Other fields of the avatar's manifest file, passed through. */
  [extra: string]: unknown;
}

/**
 * `<id>/manifest.json` in an avatars directory: the fields of {@link AvatarManifest} its author
 * writes (the service adds owner, format, assets and the rest), with the model a GLB beside it.
 */
export type AvatarManifestFile = Pick<AvatarManifest, 'id' | 'name' | 'rig' | 'headNode' | 'eyeNodes'> & {
  description: string;
  model: AvatarModelRef & { format: 'glb' };
  camera: AvatarCamera;
};
