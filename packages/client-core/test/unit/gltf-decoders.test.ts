/**
 * Which decoders a model's JSON makes the loader register, and the typed refusals for what a
 * platform cannot decode — on three's real GLTFLoader (the meshopt decoder really loads; decoding
 * itself is tested end to end in client-web's Chromium tests).
 */
import { AvatarError } from '@avatar-drive/core';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';
import { describe, expect, it } from 'vitest';
import { registerGltfDecoders } from '../../src/three/gltf-decoders.js';

/** The decoders three's loader holds (its own fields; set by the setters under test). */
const held = (loader: GLTFLoader) =>
  loader as unknown as { meshoptDecoder: unknown; ktx2Loader: unknown; dracoLoader: unknown };

async function refusal(promise: Promise<unknown>): Promise<AvatarError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AvatarError);
  return error as AvatarError;
}

describe('registerGltfDecoders', () => {
  it('registers nothing for a plain model', async () => {
    const loader = new GLTFLoader();
    await registerGltfDecoders(loader, { asset: { version: '2.0' } }, 'av', undefined);
    expect(held(loader).meshoptDecoder).toBeNull();
    expect(held(loader).ktx2Loader).toBeNull();
  });

  it('registers three’s MeshoptDecoder, ready, for a meshopt model', async () => {
    const loader = new GLTFLoader();
    await registerGltfDecoders(
      loader,
      { extensionsUsed: ['EXT_meshopt_compression'], extensionsRequired: ['EXT_meshopt_compression'] },
      'av',
      undefined,
    );
    const decoder = held(loader).meshoptDecoder as { supported: boolean; decodeGltfBuffer: unknown };
    expect(decoder.supported).toBe(true);
    expect(typeof decoder.decodeGltfBuffer).toBe('function');
  });

  it('asks the platform for its KTX2Loader only when a model has KTX2 textures', async () => {
    let asked = 0;
    const ktx2 = { marker: 'ktx2' } as unknown as KTX2Loader;
    const source = async () => {
      asked++;
      return ktx2;
    };
    await registerGltfDecoders(new GLTFLoader(), { extensionsUsed: [] }, 'av', source);
    expect(asked).toBe(0);
    const loader = new GLTFLoader();
    await registerGltfDecoders(loader, { extensionsUsed: ['KHR_texture_basisu'] }, 'av', source);
    expect(asked).toBe(1);
    expect(held(loader).ktx2Loader).toBe(ktx2);
  });

  it('refuses, naming the extension, what cannot be decoded here', async () => {
    const draco = await refusal(
      registerGltfDecoders(
        new GLTFLoader(),
        { extensionsUsed: ['KHR_draco_mesh_compression'] },
        'av_1',
        undefined,
      ),
    );
    expect(draco.code).toBe('assetDownloadFailed');
    expect(draco.message).toMatch(/Avatar av_1's model .*KHR_draco_mesh_compression.*meshopt/);
    const ktx2 = await refusal(
      registerGltfDecoders(
        new GLTFLoader(),
        { extensionsUsed: ['KHR_texture_basisu'], extensionsRequired: ['KHR_texture_basisu'] },
        'av_2',
        undefined,
      ),
    );
    expect(ktx2.message).toMatch(/KTX2 \(KHR_texture_basisu\).*PNG\/JPEG/);
    // Optional KTX2 (a PNG fallback in the file): three uses the fallback.
    await registerGltfDecoders(new GLTFLoader(), { extensionsUsed: ['KHR_texture_basisu'] }, 'av', undefined);
  });

  it('without WebAssembly (React Native’s Hermes) a meshopt model is refused with what to do', async () => {
    // This package's lib has no DOM types: reach the global through a typed view.
    const global = globalThis as { WebAssembly?: unknown };
    const wasm = global.WebAssembly;
    delete global.WebAssembly;
    try {
      const error = await refusal(
        registerGltfDecoders(
          new GLTFLoader(),
          { extensionsUsed: ['EXT_meshopt_compression'], extensionsRequired: ['EXT_meshopt_compression'] },
          'av',
          undefined,
        ),
      );
      expect(error.message).toMatch(/EXT_meshopt_compression.*needs WebAssembly.*uncompressed avatar/);
    } finally {
      global.WebAssembly = wasm;
    }
  });
});
