/**
 * The avatar manifest as the routes serve it: core's {@link AvatarManifest} built from an
 * {@link AvatarView}, and its JSON schema (`AvatarManifest#`, tested against the type in
 * test/avatar-manifest-schema.test.ts).
 */
import type { AvatarManifest } from '@avatar-drive/core';
import type { AvatarView } from '../avatars/avatar-directory.js';

const assetSchema = {
  type: 'object',
  required: ['kind', 'name', 'url', 'contentType', 'sha256', 'size'],
  properties: {
    kind: { type: 'string' },
    name: { type: 'string' },
    url: { type: 'string' },
    contentType: { type: 'string' },
    sha256: { type: 'string' },
    size: { type: 'integer' },
  },
} as const;

/** JSON schema of {@link AvatarManifest}; routes refer to it as `AvatarManifest#`. */
export const manifestSchema = {
  $id: 'AvatarManifest',
  type: 'object',
  required: ['id', 'name', 'rig', 'owner', 'format', 'model', 'assets'],
  additionalProperties: true,
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    rig: { type: 'string', enum: ['arkit-52'] },
    owner: {
      type: 'string',
      enum: ['builtin', 'app'],
      description: '`builtin`: served to every app; `app`: uploaded by this app, seen by it only.',
    },
    format: {
      type: 'string',
      enum: ['glb', 'vrm', 'lam'],
      description:
        '`lam`: a LAM Gaussian-splat avatar (the asset is its zip: skin.glb, offset.ply, vertex_order.json, animation.glb).',
    },
    model: {
      type: 'object',
      required: ['uri', 'format', 'bytes', 'sha256'],
      additionalProperties: true,
      description: 'The @avatar-drive/avatars manifest shape of the model, its URI absolute.',
      properties: {
        uri: { type: 'string' },
        format: { type: 'string', enum: ['glb', 'vrm', 'lam'] },
        bytes: { type: 'integer' },
        sha256: { type: 'string' },
      },
    },
    assets: { type: 'array', items: assetSchema },
    // From the author's manifest.json, passed through as the file has them (a built-in's file is
    // not validated field by field, so these carry no type that serialization would enforce).
    description: { description: "The author's description." },
    camera: {
      description:
        "Framing chosen by the avatar's author: {position, target} (metres, glTF scene coordinates), fov (degrees).",
    },
    headNode: { description: "Node to rotate with the frame's head rotation." },
    eyeNodes: { description: "Nodes to rotate with the frame's eye pose: [left, right]." },
    splats: { type: 'integer', description: '`lam`: how many Gaussians the head has (one per mesh vertex).' },
    vrmVersion: { type: 'integer', description: 'VRM major version (0 or 1) of a `vrm`.' },
    morphTargets: {
      type: 'object',
      properties: { arkit: { type: 'integer' }, visemes: { type: 'integer' } },
    },
    coverage: {
      type: 'object',
      additionalProperties: true,
      description:
        'Which drive channels the avatar binds (format, mouth, counts, missing, fallbacks, warnings; the upload response has the full report).',
    },
    createdAt: { type: 'string', description: 'Uploads: when, ISO 8601.' },
  },
} as const;

/** The manifest of `avatar`, its URLs under `base` (the public origin). */
export function servedManifest(avatar: AvatarView, base: string): AvatarManifest {
  const url = `${base}/v1/console/avatars/${encodeURIComponent(avatar.id)}/assets/${avatar.model.sha256}/${avatar.model.name}`;
  const upload = avatar.upload;
  return {
    ...avatar.extra,
    id: avatar.id,
    name: avatar.name,
    rig: avatar.rig,
    owner: avatar.owner,
    format: avatar.format,
    ...(upload?.vrmVersion !== undefined && { vrmVersion: upload.vrmVersion }),
    ...(upload?.splats !== undefined && { splats: upload.splats }),
    ...(avatar.morphTargets && { morphTargets: avatar.morphTargets }),
    // summariseCoverage's object (kept as JSON in the avatar records).
    coverage: avatar.coverage as AvatarManifest['coverage'],
    ...(upload && { createdAt: upload.createdAt }),
    // The @avatar-drive/avatars manifest shape, with the model's URI made absolute.
    model: { uri: url, format: avatar.format, bytes: avatar.model.size, sha256: avatar.model.sha256 },
    assets: [
      {
        kind: 'model',
        name: avatar.model.name,
        url,
        contentType: avatar.model.contentType,
        sha256: avatar.model.sha256,
        size: avatar.model.size,
      },
    ],
  };
}
