import { AvatarSDK } from '@avatar-drive/client-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarManager, type LoadProgress } from '../../src/avatar-manager.js';

const CONSOLE = 'http://127.0.0.1:9301';
const model: Uint8Array<ArrayBuffer> = new Uint8Array(5000).map((_, i) => i % 251);
let hash = '';
let calls: string[] = [];

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fake console: manifests for `mika`, 404 otherwise; the asset streams in 1000-byte chunks. */
function fakeFetch(assetBytes: Uint8Array = model) {
  return async (input: string | URL | Request): Promise<Response> => {
    const url = String(input);
    calls.push(url);
    await new Promise((r) => setTimeout(r, 1));
    if (url.startsWith(`${CONSOLE}/v1/console/avatars/mika?`)) {
      return Response.json({
        id: 'mika',
        name: 'Mika',
        rig: 'arkit-52',
        assets: [
          {
            kind: 'model',
            name: 'avatar.glb',
            url: `${CONSOLE}/assets/${hash}/avatar.glb`,
            sha256: hash,
            size: model.length,
          },
        ],
      });
    }
    if (url.startsWith(`${CONSOLE}/assets/`)) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < assetBytes.length; at += 1000)
            controller.enqueue(assetBytes.slice(at, at + 1000));
          controller.close();
        },
      });
      return new Response(body);
    }
    return Response.json(
      { errors: [{ status: '404', code: 'avatarNotFound', detail: 'No such avatar.' }] },
      { status: 404 },
    );
  };
}

beforeEach(async () => {
  hash = await sha256(model);
  calls = [];
  AvatarSDK.reset();
  AvatarSDK.initialize('app-1', {
    endpoints: { consoleUrl: CONSOLE },
    backupRegion: null,
    drivingServiceMode: 'sdk',
    audioFormat: { channelCount: 1, sampleRate: 16000 },
    logLevel: 'silent',
  });
  await AvatarManager.clearAll();
});
afterEach(() => {
  vi.unstubAllGlobals();
  AvatarSDK.reset();
});

describe('AvatarManager (no Cache Storage: memory fallback)', () => {
  it('streams with byte progress, shares concurrent loads, then serves from the cache', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    const progress: LoadProgress[] = [];
    const joined: number[] = [];
    const [a, b] = await Promise.all([
      AvatarManager.load('mika', (p) => progress.push(p)),
      AvatarManager.load('mika', (p) => joined.push(p.loadedBytes)),
    ]);
    expect(a).toBe(b);
    expect(calls.filter((c) => c.includes('/assets/'))).toHaveLength(1);
    expect(calls.find((c) => c.includes('/assets/'))).toContain('appId=app-1');
    expect(progress.map((p) => p.loadedBytes)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    expect(progress.at(-1)).toMatchObject({ totalBytes: 5000, progress: 1, avatarId: 'mika' });
    expect(joined.at(-1)).toBe(5000);
    expect(new Uint8Array(a.model)).toEqual(model);
    expect(a.downloadedBytes).toBe(5000);

    const again = await AvatarManager.load('mika');
    expect(again).not.toBe(a);
    expect(again.downloadedBytes).toBe(0);
    expect(calls.filter((c) => c.includes('/assets/'))).toHaveLength(1);

    await AvatarManager.clear('mika');
    expect((await AvatarManager.load('mika')).downloadedBytes).toBe(5000);
  });

  it('maps failures to typed errors', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    await expect(AvatarManager.load('nobody')).rejects.toMatchObject({
      code: 'avatarNotFound',
      httpStatus: 404,
    });
    vi.stubGlobal('fetch', fakeFetch(new Uint8Array(5000)));
    await expect(AvatarManager.load('mika')).rejects.toMatchObject({ code: 'assetDownloadFailed' });
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(AvatarManager.load('mika')).rejects.toMatchObject({
      code: 'assetDownloadFailed',
      retryable: true,
    });
    AvatarSDK.reset();
    expect(() => AvatarManager.load('mika')).toThrow(expect.objectContaining({ code: 'notInitialized' }));
  });
});
