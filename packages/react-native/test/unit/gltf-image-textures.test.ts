/**
 * The DOM-free texture plugin on three.js' real GLTFLoader in Node (no `Image`, no
 * `createImageBitmap`, as on React Native), with the built-in noa: every texture is decoded into a
 * DataTexture the way three would set it up; an oversized image rejects the parse with a typed error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvatarError } from '@avatar-drive/core';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { jsImageTextures } from '../../src/gltf-image-textures.js';
import { readGlb, writeGlb } from '../support/glb-images.js';

const NOA = join(import.meta.dirname, '../../../avatars/dist/noa/avatar.glb');

function textures(root: THREE.Object3D): Map<string, THREE.Texture> {
  const out = new Map<string, THREE.Texture>();
  root.traverse((object) => {
    const material = (object as THREE.Mesh).material as THREE.Material | undefined;
    if (!material || Array.isArray(material)) return;
    for (const [slot, value] of Object.entries(material)) {
      if (value instanceof THREE.Texture) out.set(`${material.name}.${slot}`, value);
    }
  });
  return out;
}

describe.skipIf(!existsSync(NOA))('jsImageTextures on GLTFLoader (needs packages/avatars built)', () => {
  it('gives the built-in noa its textures without the DOM: DataTextures, flipY false, mipmapped, sRGB colour maps', async () => {
    expect(typeof (globalThis as { createImageBitmap?: unknown }).createImageBitmap).toBe('undefined');
    const bytes = readFileSync(NOA);
    const loader = new GLTFLoader();
    loader.register(jsImageTextures({ label: 'Avatar noa' }));
    const gltf = await loader.parseAsync(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
      '',
    );
    const found = textures(gltf.scene);
    expect(found.size).toBeGreaterThanOrEqual(4);
    const slots = new Set([...found.keys()].map((k) => k.split('.')[1]));
    expect(slots.has('map')).toBe(true);
    for (const [key, texture] of found) {
      expect(texture, key).toBeInstanceOf(THREE.DataTexture);
      const image = texture.image as { width: number; height: number; data: Uint8Array };
      expect(image.data.length, key).toBe(image.width * image.height * 4);
      expect(texture.flipY, key).toBe(false);
      expect(texture.minFilter, key).toBe(THREE.LinearMipmapLinearFilter);
      expect(texture.generateMipmaps, key).toBe(true);
      expect(texture.wrapS, key).toBe(THREE.RepeatWrapping);
      expect(texture.wrapT, key).toBe(THREE.ClampToEdgeWrapping);
      const slot = key.split('.')[1]!;
      if (slot === 'map' || slot === 'emissiveMap' || slot === 'sheenColorMap' || slot === 'specularColorMap')
        expect(texture.colorSpace, key).toBe(THREE.SRGBColorSpace);
      if (slot === 'normalMap' || slot === 'roughnessMap' || slot === 'metalnessMap')
        expect(texture.colorSpace, key).not.toBe(THREE.SRGBColorSpace);
    }
  }, 60_000);

  it('rejects the parse with assetDownloadFailed / tooLarge when an image declares 8192 × 8192', async () => {
    const glb = readGlb(new Uint8Array(readFileSync(NOA)));
    const png = glb.json.images!.findIndex((i) => i.mimeType === 'image/png');
    const view = glb.json.bufferViews[glb.json.images![png]!.bufferView!]!;
    const bin = glb.bin.slice();
    const ihdr = new DataView(bin.buffer, (view.byteOffset ?? 0) + 16, 8);
    ihdr.setUint32(0, 8192);
    ihdr.setUint32(4, 8192);
    const hostile = writeGlb({ json: glb.json, bin });
    const loader = new GLTFLoader();
    loader.register(jsImageTextures({ label: 'Avatar hostile' }));
    const error = await loader.parseAsync(hostile.buffer as ArrayBuffer, '').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AvatarError);
    expect((error as AvatarError).code).toBe('assetDownloadFailed');
    expect((error as AvatarError).details).toMatchObject({ problem: 'tooLarge', width: 8192, height: 8192 });
    expect((error as AvatarError).message).toMatch(new RegExp(`Avatar hostile's image ${png}.*8192 × 8192`));
  }, 60_000);

  it('refuses a model whose images add up past maxTotalPixels', async () => {
    const bytes = readFileSync(NOA);
    const loader = new GLTFLoader();
    loader.register(jsImageTextures({ label: 'Avatar noa', maxTotalPixels: 1024 * 1024 }));
    const error = await loader
      .parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), '')
      .then(
        () => undefined,
        (e: unknown) => e as AvatarError,
      );
    expect(error?.details).toMatchObject({ problem: 'tooLarge', maxTotalPixels: 1024 * 1024 });
  }, 60_000);
});
