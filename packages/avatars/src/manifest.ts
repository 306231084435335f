/**
 * Avatar manifests: what the service serves next to each avatar model, and what clients read
 * before downloading it.
 */
import { AvatarError, type AvatarManifestFile, RIG_ID } from '@avatar-drive/core';

export type { AvatarCamera } from '@avatar-drive/core';

/** `<id>/manifest.json` of an avatar: core's {@link AvatarManifestFile} (the manifest is typed once, in core). */
export type AvatarManifest = AvatarManifestFile;

/** `index.json`: the avatars in a directory. */
export interface AvatarIndex {
  rig: typeof RIG_ID;
  avatars: { id: string; name: string; manifest: string }[];
}

/** Avatar ids: what `?id=` and directory names may hold. */
export const AVATAR_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const isVec3 = (v: unknown): v is [number, number, number] =>
  Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * Checks a parsed manifest and returns it typed.
 *
 * @throws AvatarError `invalidRequest` naming the first bad field and how to fix it.
 */
export function parseAvatarManifest(value: unknown, source = 'manifest.json'): AvatarManifest {
  const fail = (field: string, want: string): never => {
    throw new AvatarError(
      'invalidRequest',
      `Avatar manifest ${source}: ${field} must be ${want}. Fix the file and reload.`,
    );
  };
  if (typeof value !== 'object' || value === null) return fail('the document', 'a JSON object');
  const m = value as Record<string, unknown>;
  if (typeof m.id !== 'string' || !AVATAR_ID_PATTERN.test(m.id))
    fail('id', 'lowercase letters, digits, - or _');
  if (typeof m.name !== 'string' || m.name.length === 0) fail('name', 'a non-empty string');
  if (typeof m.description !== 'string') fail('description', 'a string');
  if (m.rig !== RIG_ID) fail('rig', `"${RIG_ID}"`);
  const model = m.model as Record<string, unknown> | undefined;
  if (typeof model !== 'object' || model === null) return fail('model', 'an object');
  if (typeof model.uri !== 'string' || model.uri.length === 0 || model.uri.includes('..')) {
    fail('model.uri', 'a relative path without ".."');
  }
  if (model.format !== 'glb') fail('model.format', '"glb"');
  if (typeof model.bytes !== 'number' || !Number.isInteger(model.bytes) || model.bytes <= 0) {
    fail('model.bytes', 'a positive integer');
  }
  if (typeof model.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(model.sha256))
    fail('model.sha256', '64 hex digits');
  const camera = m.camera as Record<string, unknown> | undefined;
  if (typeof camera !== 'object' || camera === null) return fail('camera', 'an object');
  if (!isVec3(camera.position)) fail('camera.position', 'three numbers');
  if (!isVec3(camera.target)) fail('camera.target', 'three numbers');
  if (typeof camera.fov !== 'number' || !(camera.fov > 1 && camera.fov < 179))
    fail('camera.fov', 'degrees in (1, 179)');
  if (m.headNode !== undefined && typeof m.headNode !== 'string') fail('headNode', 'a node name');
  if (
    m.eyeNodes !== undefined &&
    !(Array.isArray(m.eyeNodes) && m.eyeNodes.length === 2 && m.eyeNodes.every((n) => typeof n === 'string'))
  ) {
    fail('eyeNodes', 'two node names');
  }
  return m as unknown as AvatarManifest;
}
