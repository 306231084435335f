import { AvatarError } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { parseAvatarManifest } from '../src/manifest.js';

const valid = () => ({
  id: 'mika',
  name: 'Mika',
  description: 'x',
  rig: 'arkit-52',
  model: { uri: 'avatar.glb', format: 'glb', bytes: 1000, sha256: 'a'.repeat(64) },
  camera: { position: [0, 1.6, 0.6], target: [0, 1.55, 0], fov: 30 },
  headNode: 'Head',
  eyeNodes: ['EyeLeft', 'EyeRight'],
});

describe('parseAvatarManifest', () => {
  it('accepts a complete manifest', () => {
    expect(parseAvatarManifest(valid())).toEqual(valid());
  });

  it.each([
    ['id', (m: Record<string, unknown>) => Object.assign(m, { id: '../etc' })],
    ['rig', (m: Record<string, unknown>) => Object.assign(m, { rig: 'flame' })],
    [
      'model.uri',
      (m: Record<string, unknown>) => Object.assign(m, { model: { ...valid().model, uri: '../x.glb' } }),
    ],
    [
      'model.bytes',
      (m: Record<string, unknown>) => Object.assign(m, { model: { ...valid().model, bytes: -1 } }),
    ],
    [
      'model.sha256',
      (m: Record<string, unknown>) => Object.assign(m, { model: { ...valid().model, sha256: 'zz' } }),
    ],
    [
      'camera.fov',
      (m: Record<string, unknown>) => Object.assign(m, { camera: { ...valid().camera, fov: 0 } }),
    ],
    [
      'camera.position',
      (m: Record<string, unknown>) => Object.assign(m, { camera: { ...valid().camera, position: [0, 1] } }),
    ],
    ['eyeNodes', (m: Record<string, unknown>) => Object.assign(m, { eyeNodes: ['EyeLeft'] })],
  ])('rejects a bad %s with an invalidRequest AvatarError naming it', (field, spoil) => {
    const bad = spoil(valid() as Record<string, unknown>);
    try {
      parseAvatarManifest(bad, 'x/manifest.json');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AvatarError);
      expect((error as AvatarError).code).toBe('invalidRequest');
      expect((error as AvatarError).message).toContain(field);
      expect((error as AvatarError).message).toContain('x/manifest.json');
    }
  });

  it('rejects a non-object', () => {
    expect(() => parseAvatarManifest('nope')).toThrow(AvatarError);
  });
});
