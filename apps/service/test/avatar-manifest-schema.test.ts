/**
 * The avatar manifest is typed once, in core (`AvatarManifest`); the service's JSON schema of it
 * (`AvatarManifest#`, src/http/avatar-manifest.ts) must name the same fields and require the same
 * ones. The key lists below are checked against the type by the compiler (`pnpm typecheck`: a
 * missing or an extra key fails), and against the schema here; then what a real service serves.
 */
import type { AvatarManifest } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestSchema } from '../src/http/avatar-manifest.js';
import type { RunningService } from '../src/service.js';
import { APP_ID, AVATAR_ID, makeAvatarsDir, startTestService } from './support/harness.js';

/** The declared keys of `T`, without its index signature. */
type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K];
};
/** The keys of `T` that are not optional. */
type RequiredKeys<T> = {
  [K in KnownKeys<T>]-?: Record<string, never> extends Pick<T, K> ? never : K;
}[KnownKeys<T>];

// Exactly the type's keys: the compiler refuses a record with one missing or one too many.
const REQUIRED_KEYS: Record<RequiredKeys<AvatarManifest>, true> = {
  id: true,
  name: true,
  rig: true,
  owner: true,
  format: true,
  model: true,
  assets: true,
};
const EVERY_KEY: Record<KnownKeys<AvatarManifest>, true> = {
  ...REQUIRED_KEYS,
  description: true,
  camera: true,
  headNode: true,
  eyeNodes: true,
  splats: true,
  vrmVersion: true,
  morphTargets: true,
  coverage: true,
  createdAt: true,
};

describe("the service's AvatarManifest schema", () => {
  it("names core's AvatarManifest fields, no more and no fewer", () => {
    expect(Object.keys(manifestSchema.properties).sort()).toEqual(Object.keys(EVERY_KEY).sort());
  });

  it('requires the fields the type does not make optional', () => {
    expect([...manifestSchema.required].sort()).toEqual(Object.keys(REQUIRED_KEYS).sort());
  });

  it("passes other fields of an author's manifest.json through", () => {
    expect(manifestSchema.additionalProperties).toBe(true);
  });
});

describe('a served manifest', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({ avatarsDir: await makeAvatarsDir() });
  });
  afterAll(async () => {
    await service?.close();
  });

  it("has every required field and only the type's fields (an avatar without manifest.json)", async () => {
    const response = await fetch(`${service.url}/v1/console/avatars/${AVATAR_ID}?appId=${APP_ID}`);
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as AvatarManifest;
    for (const key of Object.keys(REQUIRED_KEYS)) expect(manifest).toHaveProperty(key);
    expect(Object.keys(manifest).filter((key) => !Object.hasOwn(EVERY_KEY, key))).toEqual([]);
    expect(manifest.rig).toBe('arkit-52');
    expect(manifest.model.uri).toBe(manifest.assets[0]!.url);
  });
});
