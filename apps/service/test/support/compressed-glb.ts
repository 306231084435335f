/**
 * Compressed avatars for tests, made at test time from the project's own CC0 built-in samples:
 * meshopt (glTF-Transform's `meshopt()` with meshoptimizer's encoder: quantized, reordered,
 * EXT_meshopt_compression + KHR_mesh_quantization, as `gltf-transform meshopt` writes them), and
 * KTX2 textures (`KHR_texture_basisu`) written byte by byte.
 */
import { Logger, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { meshopt } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

/** `glb` compressed with meshopt, the way glTF-Transform's CLI does it. */
export async function meshoptGlb(glb: Uint8Array): Promise<Buffer> {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
  // glTF-Transform reports what it prunes and packs; the tests only want the file.
  const quiet = new Logger(Logger.Verbosity.ERROR);
  const io = new NodeIO()
    .setLogger(quiet)
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'meshopt.encoder': MeshoptEncoder, 'meshopt.decoder': MeshoptDecoder });
  const document = await io.readBinary(glb);
  document.setLogger(quiet);
  await document.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  return Buffer.from(await io.writeBinary(document));
}

const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A structurally valid UASTC KTX2 (uncompressed: no supercompression) of `width` × `height` with
 * `levels` mip levels; each 4×4 block is `block` (16 bytes, default all zero).
 */
export function makeKtx2(
  width: number,
  height: number,
  options: { levels?: number; block?: Uint8Array } = {},
): Buffer {
  const levels = options.levels ?? 1;
  const levelSizes = Array.from({ length: levels }, (_, i) => {
    const w = Math.max(1, width >> i);
    const h = Math.max(1, height >> i);
    return Math.ceil(w / 4) * Math.ceil(h / 4) * 16;
  });
  const dfdLength = 44;
  const dfdOffset = 80 + 24 * levels;
  let dataAt = Math.ceil((dfdOffset + dfdLength) / 16) * 16;
  const total = dataAt + levelSizes.reduce((a, b) => a + b, 0);
  const out = Buffer.alloc(total);
  Buffer.from(KTX2_IDENTIFIER).copy(out, 0);
  out.writeUInt32LE(0, 12); // vkFormat: VK_FORMAT_UNDEFINED (Basis Universal)
  out.writeUInt32LE(1, 16); // typeSize
  out.writeUInt32LE(width, 20);
  out.writeUInt32LE(height, 24);
  out.writeUInt32LE(0, 28); // depth
  out.writeUInt32LE(0, 32); // layers
  out.writeUInt32LE(1, 36); // faces
  out.writeUInt32LE(levels, 40);
  out.writeUInt32LE(0, 44); // no supercompression
  out.writeUInt32LE(dfdOffset, 48);
  out.writeUInt32LE(dfdLength, 52);
  // Data format descriptor: total size, then one basic block for UASTC with one RGBA sample.
  out.writeUInt32LE(dfdLength, dfdOffset);
  out.writeUInt32LE(0, dfdOffset + 4); // vendor 0 (Khronos), descriptor type 0
  out.writeUInt16LE(2, dfdOffset + 8); // version
  out.writeUInt16LE(40, dfdOffset + 10); // block size: 24 + 16 per sample
  out[dfdOffset + 12] = 166; // KHR_DF_MODEL_UASTC
  out[dfdOffset + 13] = 1; // BT.709 primaries
  out[dfdOffset + 14] = 2; // sRGB transfer
  out[dfdOffset + 16] = 3; // 4×4 blocks (dimension − 1)
  out[dfdOffset + 17] = 3;
  out[dfdOffset + 20] = 16; // bytes per block
  out.writeUInt16LE(0, dfdOffset + 28); // sample: bit offset 0
  out[dfdOffset + 30] = 127; // 128 bits
  out[dfdOffset + 31] = 3; // RGBA
  out.writeUInt32LE(0xffffffff, dfdOffset + 40);
  // Levels: the index lists level 0 first; the data is laid out smallest first, as toktx does.
  const offsets: number[] = [];
  for (let i = levels - 1; i >= 0; i--) {
    offsets[i] = dataAt;
    if (options.block) for (let b = 0; b < levelSizes[i]!; b += 16) out.set(options.block, dataAt + b);
    dataAt += levelSizes[i]!;
  }
  for (let i = 0; i < levels; i++) {
    const at = 80 + 24 * i;
    out.writeUInt32LE(offsets[i]!, at);
    out.writeUInt32LE(levelSizes[i]!, at + 8);
    out.writeUInt32LE(levelSizes[i]!, at + 16);
  }
  return out;
}

/**
 * The one-mesh GLB `glb` (from makeGlb) with a material whose base colour is the KTX2 image
 * `ktx2`, through `KHR_texture_basisu` (required, no PNG fallback), and texture coordinates.
 */
export function withKtx2Texture(glb: Buffer, ktx2: Buffer, split: SplitGlb, pack: PackGlb): Buffer {
  const { json, bin } = split(glb);
  const uvAt = Math.ceil(bin.length / 4) * 4;
  const uv = Buffer.from(new Float32Array([0, 0, 1, 0, 0, 1]).buffer);
  const imageAt = uvAt + uv.length;
  const data = Buffer.concat([bin, Buffer.alloc(uvAt - bin.length), uv, ktx2]);
  json.buffers[0].byteLength = data.length;
  const uvView = json.bufferViews.push({ buffer: 0, byteOffset: uvAt, byteLength: uv.length }) - 1;
  const imageView = json.bufferViews.push({ buffer: 0, byteOffset: imageAt, byteLength: ktx2.length }) - 1;
  const uvAccessor =
    json.accessors.push({ bufferView: uvView, componentType: 5126, count: 3, type: 'VEC2' }) - 1;
  json.meshes[0].primitives[0].attributes.TEXCOORD_0 = uvAccessor;
  json.meshes[0].primitives[0].material = 0;
  json.materials = [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }];
  json.textures = [{ extensions: { KHR_texture_basisu: { source: 0 } } }];
  json.images = [{ bufferView: imageView, mimeType: 'image/ktx2' }];
  json.extensionsUsed = [...(json.extensionsUsed ?? []), 'KHR_texture_basisu'];
  json.extensionsRequired = [...(json.extensionsRequired ?? []), 'KHR_texture_basisu'];
  return pack(json, data);
}

// biome-ignore lint/suspicious/noExplicitAny: tests reach into arbitrary glTF JSON
type SplitGlb = (glb: Buffer) => { json: Record<string, any>; bin: Buffer };
type PackGlb = (json: Record<string, unknown>, bin: Buffer) => Buffer;
