/**
 * Compressed avatars against the real service process over HTTP: the Ready Player Me–style
 * built-in sample compressed with meshopt (EXT_meshopt_compression + KHR_mesh_quantization, made
 * here by glTF-Transform) is accepted with the same manifest and coverage as the uncompressed
 * file, a KTX2 (KHR_texture_basisu) texture is accepted, and every hostile variant — streams that
 * do not decode or decode to nonsense, sizes past the decode budget, bad modes and strides, KTX2
 * headers that lie, Draco and unknown required extensions — is refused with a typed error.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../src/credentials/api-keys.js';
import { expectFileRefusal as expectRefusal, postAvatar } from './support/avatar-upload.js';
import { makeKtx2, meshoptGlb, withKtx2Texture } from './support/compressed-glb.js';
import { makeGlb } from './support/glb.js';
import { editGlb, packGlb, splitGlb } from './support/glb-edit.js';
import { API_KEY, APP_ID, type Json, makeAvatarsDir } from './support/harness.js';
import { type ServiceProcess, startServiceProcess } from './support/service-process.js';

const SAMPLE = fileURLToPath(new URL('../../../packages/avatars/samples/juno-rpm.glb', import.meta.url));
const MAX_BYTES = 4 * 1024 * 1024;
/** The decode budget the service derives: 4 × the file limit. */
const MAX_DECODED = 4 * MAX_BYTES;

let service: ServiceProcess;
let dataDir: string;
let plain: Buffer;
let packed: Buffer;

beforeAll(async () => {
  plain = await readFile(SAMPLE);
  packed = await meshoptGlb(plain);
  dataDir = await mkdtemp(join(tmpdir(), 'avd-compressed-'));
  service = await startServiceProcess({
    avatarsDir: await makeAvatarsDir(),
    args: ['--data-dir', dataDir, '--avatar-max-bytes', String(MAX_BYTES), '--avatars-per-app', '20'],
    env: { AVATAR_DRIVE_APPS: JSON.stringify([{ appId: APP_ID, apiKeyHashes: [hashApiKey(API_KEY)] }]) },
  });
}, 120_000);
afterAll(async () => {
  await service?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function upload(bytes: Uint8Array): Promise<{ status: number; body: Json }> {
  return postAvatar(service.url, bytes, 'model/gltf-binary');
}

// biome-ignore lint/suspicious/noExplicitAny: tests reach into arbitrary glTF JSON
type Gltf = Record<string, any>;
const MESHOPT = 'EXT_meshopt_compression';
/** Indices of the compressed views of `json` with mode `mode`. */
const compressedViews = (json: Gltf, mode: string): number[] =>
  json.bufferViews.flatMap((v: Gltf, i: number) => (v.extensions?.[MESHOPT]?.mode === mode ? [i] : []));

describe('EXT_meshopt_compression', () => {
  it('the compressed sample is what glTF-Transform writes: required meshopt + quantization, no data in buffer 1', () => {
    const { json } = splitGlb(packed);
    expect(packed.length).toBeLessThan(plain.length * 0.7);
    expect(json.extensionsRequired).toEqual(expect.arrayContaining([MESHOPT, 'KHR_mesh_quantization']));
    expect(json.buffers[1].uri).toBeUndefined();
    expect(json.buffers[1].extensions[MESHOPT]).toEqual({ fallback: true });
    expect(compressedViews(json, 'ATTRIBUTES').length).toBeGreaterThan(50);
    expect(compressedViews(json, 'TRIANGLES').length).toBeGreaterThan(0);
  });

  it('is accepted with the manifest and coverage of the uncompressed file, and served as uploaded', async () => {
    const original = await upload(plain);
    expect(original.status, JSON.stringify(original.body)).toBe(201);
    const compressed = await upload(packed);
    expect(compressed.status, JSON.stringify(compressed.body)).toBe(201);
    const avatar = compressed.body.avatar;
    expect(avatar).toMatchObject({
      format: 'glb',
      rig: original.body.avatar.rig,
      model: { bytes: packed.length },
    });
    // The same targets, the same drive plan: compression changed the bytes, not the rig.
    expect(compressed.body.coverage).toEqual(original.body.coverage);
    expect(compressed.body.coverage.counts.arkit.bound).toBeGreaterThanOrEqual(50);
    // The validator ran on the decoded data: the same verdict as on the original.
    expect(compressed.body.validation.warnings).toBe(0);
    const asset = avatar.assets[0];
    const served = await fetch(`${asset.url}?appId=${APP_ID}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(packed)).toBe(true);
  });

  it('a stream that does not decode is refused as compressionMalformed', async () => {
    const { json, bin } = splitGlb(packed);
    const target = json.bufferViews[compressedViews(json, 'ATTRIBUTES')[0]!].extensions[MESHOPT];
    const broken = Buffer.from(bin);
    broken.fill(0x55, target.byteOffset ?? 0, (target.byteOffset ?? 0) + target.byteLength);
    expectRefusal(
      await upload(packGlb(json, broken)),
      422,
      'compressionMalformed',
      /bufferViews\[\d+\] does not decode.*Re-export/,
    );
  });

  it('a stream that decodes to the wrong data is caught by the validator on the decoded file', async () => {
    // Two attribute views of one size swap their streams: both decode, neither matches its accessor.
    const swapped = editGlb(packed, (json) => {
      const views = compressedViews(json, 'ATTRIBUTES').map((i) => json.bufferViews[i]);
      const byShape = new Map<string, Gltf>();
      for (const view of views) {
        const ext = view.extensions[MESHOPT];
        const key = `${ext.count}×${ext.byteStride}:${ext.filter ?? 'NONE'}`;
        const twin = byShape.get(key);
        if (twin && twin.extensions[MESHOPT].byteOffset !== ext.byteOffset) {
          const a = twin.extensions[MESHOPT];
          [a.byteOffset, ext.byteOffset, a.byteLength, ext.byteLength] = [
            ext.byteOffset,
            a.byteOffset,
            ext.byteLength,
            a.byteLength,
          ];
          return;
        }
        byShape.set(key, view);
      }
      throw new Error('no two compressed views of one shape');
    });
    expectRefusal(await upload(swapped), 422, 'validationFailed', /glTF validator found \d+ error/);
  });

  it('decoded sizes are bounded before anything decodes: a fallback buffer or views past the budget', async () => {
    expectRefusal(
      await upload(
        editGlb(packed, (json) => {
          json.buffers[1].byteLength = MAX_DECODED + 1;
        }),
      ),
      413,
      'tooLarge',
      new RegExp(`buffers\\[1\\] declares ${MAX_DECODED + 1} bytes`),
    );
    // Many views that each fit the buffer but together decode past the budget.
    const many = editGlb(packed, (json) => {
      const source = json.bufferViews[compressedViews(json, 'ATTRIBUTES')[0]!];
      const ext = source.extensions[MESHOPT];
      const count = Math.floor(MAX_DECODED / 2 / ext.byteStride);
      json.buffers[1].byteLength = count * ext.byteStride;
      for (let i = 0; i < 3; i++) {
        json.bufferViews.push({
          buffer: 1,
          byteLength: count * ext.byteStride,
          extensions: { [MESHOPT]: { ...ext, count } },
        });
      }
    });
    expectRefusal(await upload(many), 413, 'tooLarge', /decode to more than 16777216 bytes/);
  });

  it('modes, filters and strides the extension does not allow, and streams outside the file', async () => {
    const edit = (change: (ext: Gltf, view: Gltf) => void, mode = 'TRIANGLES') =>
      editGlb(packed, (json) => {
        const view = json.bufferViews[compressedViews(json, mode)[0]!];
        change(view.extensions[MESHOPT], view);
      });
    expectRefusal(
      await upload(
        edit((ext, view) => {
          ext.byteStride = 3;
          ext.count = view.byteLength / 3;
        }),
      ),
      422,
      'compressionMalformed',
      /TRIANGLES stride of 3/,
    );
    expectRefusal(
      await upload(
        edit((ext) => {
          ext.mode = 'ZSTD';
        }),
      ),
      422,
      'compressionMalformed',
      /mode "ZSTD"/,
    );
    expectRefusal(
      await upload(
        edit((ext) => {
          ext.filter = 'OCTAHEDRAL';
          ext.byteStride = 12;
        }, 'ATTRIBUTES'),
      ),
      422,
      'compressionMalformed',
      /decodes to|OCTAHEDRAL/,
    );
    expectRefusal(
      await upload(
        edit((ext) => {
          ext.count += 3;
        }),
      ),
      422,
      'compressionMalformed',
      /decodes to \d+ × \d+ bytes, but the buffer view holds/,
    );
    expectRefusal(
      await upload(
        edit((ext) => {
          ext.byteOffset = 2 ** 31;
        }),
      ),
      422,
      'outOfRange',
      /covers bytes 2147483648–\d+ of a \d+-byte BIN chunk/,
    );
    expectRefusal(
      await upload(
        edit((ext) => {
          ext.buffer = 1;
        }),
      ),
      422,
      'compressionMalformed',
      /reads its stream from buffers\[1\], which holds no data/,
    );
    // A view of the fallback buffer that is not compressed would read nothing.
    expectRefusal(
      await upload(
        edit((_, view) => {
          delete view.extensions;
        }),
      ),
      422,
      'compressionMalformed',
      /reads buffers\[1\], which holds no data, and is not EXT_meshopt_compression-compressed/,
    );
  });
});

describe('extensions no client loads', () => {
  it('Draco is refused with a typed error that says to re-export with meshopt', async () => {
    const draco = editGlb(makeGlb(['jawOpen']), (json) => {
      json.extensionsUsed = ['KHR_draco_mesh_compression'];
      json.extensionsRequired = ['KHR_draco_mesh_compression'];
    });
    expectRefusal(
      await upload(draco),
      422,
      'unsupportedExtension',
      /KHR_draco_mesh_compression.*Re-export it with meshopt compression instead \(glTF-Transform: `gltf-transform meshopt in\.glb out\.glb`/,
    );
  });

  it('an unknown required extension is refused by name; an unknown optional one is fine', async () => {
    const required = editGlb(makeGlb(['jawOpen']), (json) => {
      json.extensionsUsed = ['ACME_secret_sauce'];
      json.extensionsRequired = ['ACME_secret_sauce'];
    });
    expectRefusal(
      await upload(required),
      422,
      'unsupportedExtension',
      /requires the glTF extension "ACME_secret_sauce"/,
    );
    const optional = editGlb(makeGlb(['jawOpen']), (json) => {
      json.extensionsUsed = ['ACME_secret_sauce'];
    });
    expect((await upload(optional)).status).toBe(201);
  });
});

describe('KHR_texture_basisu (KTX2)', () => {
  const glbWith = (ktx2: Buffer) => withKtx2Texture(makeGlb(['jawOpen']), ktx2, splitGlb, packGlb);

  it('a UASTC texture with its mip chain is accepted', async () => {
    const r = await upload(glbWith(makeKtx2(64, 32, { levels: 7 })));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  it('KTX2 headers that lie are refused before any client transcodes them', async () => {
    const good = makeKtx2(64, 32, { levels: 7 });
    const variant = (change: (k: Buffer) => void) => {
      const k = Buffer.from(good);
      change(k);
      return glbWith(k);
    };
    expectRefusal(
      await upload(variant((k) => k.write('PNG', 1, 'latin1'))),
      422,
      'compressionMalformed',
      /images\[0\] is not a valid KTX2 texture: it does not start with the KTX 20 identifier/,
    );
    expectRefusal(
      await upload(variant((k) => k.writeUInt32LE(16384, 20))),
      413,
      'tooLarge',
      /images\[0\] is 16384×32 pixels/,
    );
    expectRefusal(
      await upload(variant((k) => k.writeUInt32LE(12, 40))),
      422,
      'compressionMalformed',
      /declares 12 mip levels; a 64×32 image has at most 7/,
    );
    // Level 0's data said to lie past the end of the image.
    expectRefusal(
      await upload(variant((k) => k.writeUInt32LE(0x7fffffff, 80))),
      422,
      'compressionMalformed',
      /mip level 0 covers bytes 2147483647–/,
    );
    // A level claiming more UASTC blocks than its size holds (the transcoder would allocate them).
    expectRefusal(
      await upload(variant((k) => k.writeUInt32LE(k.readUInt32LE(88) * 64, 88))),
      422,
      'compressionMalformed',
      /mip level 0 (covers bytes|holds \d+ bytes of UASTC blocks)/,
    );
    expectRefusal(
      await upload(variant((k) => k.writeUInt32LE(37, 12))),
      422,
      'compressionMalformed',
      /vkFormat is 37; KHR_texture_basisu needs a Basis Universal payload/,
    );
    // The texture names an image that is not KTX2.
    const mislabelled = editGlb(glbWith(good), (json) => {
      json.images[0].mimeType = 'image/png';
    });
    expectRefusal(await upload(mislabelled), 422, 'compressionMalformed', /not "image\/ktx2"/);
    expect(service.child.exitCode).toBeNull();
  });
});
