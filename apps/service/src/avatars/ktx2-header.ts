/**
 * The header of a KTX2 texture (`KHR_texture_basisu`) checked without transcoding it: the
 * identifier, a 2D Basis Universal texture (ETC1S or UASTC) of sane dimensions, and every range
 * the header declares (data format descriptor, key/value data, supercompression global data,
 * mip levels) inside the image's bytes — what a client's transcoder would otherwise trust.
 */
import { fileProblem } from './file-problem.js';

const IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];
const HEADER_BYTES = 80;
const LEVEL_BYTES = 24;
/** Widest/tallest texture accepted: what WebGL 2 guarantees on phones, and plenty for a face. */
export const KTX2_MAX_DIMENSION = 8192;

/** Data format descriptor colour models of Basis Universal payloads. */
const MODEL_ETC1S = 163;
const MODEL_UASTC = 166;
/** Supercompression schemes: none, BasisLZ (ETC1S), Zstandard (UASTC), zlib. */
const SCHEME_NONE = 0;
const SCHEME_BASISLZ = 1;
const SCHEME_ZSTD = 2;

/** What the header says. */
export interface Ktx2Header {
  width: number;
  height: number;
  levels: number;
  /** `etc1s` (BasisLZ) or `uastc`. */
  codec: 'etc1s' | 'uastc';
}

/** Checks the KTX2 image `bytes` (named `where` in messages); throws compressionMalformed / tooLarge. */
export function checkKtx2(bytes: Uint8Array, where: string): Ktx2Header {
  const bad = (detail: string) =>
    fileProblem(
      'compressionMalformed',
      `${where} is not a valid KTX2 texture: ${detail}. Re-encode it (toktx --encode uastc, or basisu -ktx2) and export again.`,
    );
  if (bytes.byteLength < HEADER_BYTES + LEVEL_BYTES || IDENTIFIER.some((b, i) => bytes[i] !== b)) {
    throw bad('it does not start with the KTX 20 identifier');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  // u64 fields: a value past 2^53 is past any file anyway.
  const u64 = (at: number) => u32(at) + u32(at + 4) * 2 ** 32;
  const vkFormat = u32(12);
  const width = u32(20);
  const height = u32(24);
  const depth = u32(28);
  const layers = u32(32);
  const faces = u32(36);
  const levelCount = u32(40);
  const scheme = u32(44);
  if (vkFormat !== 0)
    throw bad(
      `vkFormat is ${vkFormat}; KHR_texture_basisu needs a Basis Universal payload (VK_FORMAT_UNDEFINED)`,
    );
  if (width === 0 || height === 0 || depth !== 0 || layers !== 0 || faces !== 1) {
    throw bad('it is not a single 2D image (depth, array layers or cube faces)');
  }
  if (width > KTX2_MAX_DIMENSION || height > KTX2_MAX_DIMENSION) {
    throw fileProblem(
      'tooLarge',
      `${where} is ${width}×${height} pixels; textures up to ${KTX2_MAX_DIMENSION}×${KTX2_MAX_DIMENSION} are accepted. Resize it and export again.`,
    );
  }
  const maxLevels = Math.floor(Math.log2(Math.max(width, height))) + 1;
  const levels = Math.max(1, levelCount);
  if (levels > maxLevels)
    throw bad(`it declares ${levelCount} mip levels; a ${width}×${height} image has at most ${maxLevels}`);
  if (scheme !== SCHEME_NONE && scheme !== SCHEME_BASISLZ && scheme !== SCHEME_ZSTD) {
    throw bad(`supercompression scheme ${scheme} is not one a Basis Universal texture uses`);
  }
  const fileLength = bytes.byteLength;
  const within = (offset: number, length: number, what: string) => {
    if (offset + length > fileLength) {
      throw bad(`its ${what} covers bytes ${offset}–${offset + length} of ${fileLength}`);
    }
  };
  const dfdOffset = u32(48);
  const dfdLength = u32(52);
  within(dfdOffset, dfdLength, 'data format descriptor');
  within(u32(56), u32(60), 'key/value data');
  const sgdLength = u64(72);
  within(u64(64), sgdLength, 'supercompression global data');
  if (HEADER_BYTES + levels * LEVEL_BYTES > fileLength) throw bad('its level index is cut off');
  // The basic descriptor block: total size (4), vendor/type (4), version/size (4), colour model (1).
  if (dfdLength < 13) throw bad('its data format descriptor is too short');
  const model = bytes[dfdOffset + 12];
  let codec: Ktx2Header['codec'];
  if (model === MODEL_ETC1S && scheme === SCHEME_BASISLZ) codec = 'etc1s';
  else if (model === MODEL_UASTC && (scheme === SCHEME_NONE || scheme === SCHEME_ZSTD)) codec = 'uastc';
  else
    throw bad(
      `colour model ${String(model)} with supercompression ${scheme} is neither ETC1S/BasisLZ nor UASTC`,
    );
  if (codec === 'etc1s' && sgdLength === 0) throw bad('ETC1S data has no supercompression global data');
  for (let level = 0; level < levels; level++) {
    const at = HEADER_BYTES + level * LEVEL_BYTES;
    const offset = u64(at);
    const length = u64(at + 8);
    const uncompressed = u64(at + 16);
    if (length === 0) throw bad(`mip level ${level} is empty`);
    within(offset, length, `mip level ${level}`);
    if (codec === 'uastc') {
      // UASTC stores 16 bytes per 4×4 block; a level that claims more would make the transcoder allocate it.
      const w = Math.max(1, width >> level);
      const h = Math.max(1, height >> level);
      const expected = Math.ceil(w / 4) * Math.ceil(h / 4) * 16;
      const decoded = scheme === SCHEME_NONE ? length : uncompressed;
      if (decoded !== expected) {
        throw bad(
          `mip level ${level} holds ${decoded} bytes of UASTC blocks; a ${w}×${h} level has ${expected}`,
        );
      }
    }
  }
  return { width, height, levels, codec };
}
