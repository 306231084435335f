/**
 * Why an avatar file (a `.glb` or `.vrm` uploaded to the service, or found in its avatars
 * directory) was refused. The service answers `avatarInvalid` or `avatarTooLarge`
 * ({@link AvatarError}) with one of these in `details.problem`, so programs can branch on it while
 * people read the message.
 */
export const AVATAR_FILE_PROBLEMS = [
  /** The upload or a size it declares is over the service's limit. */
  'tooLarge',
  /** Not a binary glTF 2.0 container (bad magic or version). */
  'notGlb',
  /** The GLB header or a chunk claims more bytes than the file has, or the chunks do not add up. */
  'truncated',
  /** The glTF JSON does not parse or is not an object. */
  'jsonInvalid',
  /** The glTF JSON nests too deep or holds too many items (a JSON bomb). */
  'jsonTooComplex',
  /** A buffer or image points outside the file (`data:`, `http:`, a path). GLBs must be self-contained. */
  'externalUri',
  /** A buffer view, accessor or index points past the data it refers to. */
  'outOfRange',
  /** The VRM extension (`VRM` 0.x or `VRMC_vrm` 1.0) is malformed. */
  'vrmMalformed',
  /** The Khronos glTF validator reported errors (listed in the message). */
  'validationFailed',
  /** Validation took longer than the service allows. */
  'validationTimeout',
  /** No morph targets or expressions the rig can drive. */
  'notDrivable',
  /** A LAM avatar zip whose archive structure is broken (no central directory, bad offsets, CRC, encryption, an unknown compression method). */
  'zipMalformed',
  /** A zip that inflates past its declared sizes or the service's limits (a zip bomb), or holds too many entries. */
  'zipBomb',
  /** A zip entry name that is absolute, climbs out (`..`), or holds backslashes or control characters. */
  'unsafeName',
  /** A LAM zip without one of its required files (`skin.glb`, `offset.ply`, `vertex_order.json`, `animation.glb`), or with two of one. */
  'lamIncomplete',
  /** `offset.ply` is not a binary little-endian Gaussian PLY with the properties a splat needs. */
  'plyMalformed',
  /** `vertex_order.json` is not a permutation of the mesh's vertex indices. */
  'vertexOrderMismatch',
  /** The Gaussians in `offset.ply` are not one per vertex of `skin.glb`'s mesh. */
  'countMismatch',
  /**
   * The file requires a glTF extension the service and clients cannot read (named in the message),
   * such as `KHR_draco_mesh_compression`: re-export without it (meshopt compression is supported).
   */
  'unsupportedExtension',
  /** Compressed data that does not decode: an `EXT_meshopt_compression` stream or a KTX2 texture whose header or levels are malformed. */
  'compressionMalformed',
] as const;

export type AvatarFileProblem = (typeof AVATAR_FILE_PROBLEMS)[number];

/** True when `value` is one of {@link AVATAR_FILE_PROBLEMS}. */
export function isAvatarFileProblem(value: unknown): value is AvatarFileProblem {
  return typeof value === 'string' && (AVATAR_FILE_PROBLEMS as readonly string[]).includes(value);
}
