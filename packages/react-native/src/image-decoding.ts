/**
 * Decodes the JPEG and PNG images a glTF embeds into RGBA pixels without the DOM: React Native
 * has neither `Image` nor `createImageBitmap`, which three.js' GLTFLoader decodes through. Sizes
 * are read from the header and checked before anything is allocated, and a PNG's compressed data
 * is inflated once under a byte limit before the decoder sees it, so a hostile file (an 8k × 8k
 * image, a zlib bomb) fails with an {@link AvatarError} instead of exhausting the device's memory.
 */

import { AvatarError } from '@avatar-drive/core';
import { decode as decodePng } from 'fast-png';
import { Unzlib } from 'fflate';
import jpeg from 'jpeg-js';

/** An image's pixels: 8-bit RGBA rows, top row first. */
export interface DecodedImage {
  width: number;
  height: number;
  /** `width · height · 4` bytes. */
  data: Uint8Array;
}

/** The image formats decoded here. */
export type ImageKind = 'jpeg' | 'png';

/** Bounds on what {@link decodeImage} accepts. */
export interface ImageLimits {
  /** Widest and tallest image, in pixels; default 4096. */
  maxSide?: number;
  /** Most pixels in one image; default 4096 · 4096 (64 MiB of RGBA). */
  maxPixels?: number;
}

/** Default {@link ImageLimits.maxSide}. */
export const DEFAULT_MAX_IMAGE_SIDE = 4096;
/** Default {@link ImageLimits.maxPixels}. */
export const DEFAULT_MAX_IMAGE_PIXELS = 4096 * 4096;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The format of `bytes` by its signature, or `undefined` when it is neither JPEG nor PNG. */
export function sniffImageKind(bytes: Uint8Array): ImageKind | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'png';
  return undefined;
}

/**
 * Width and height from the image's header (a JPEG's frame header, a PNG's IHDR), without decoding.
 * @throws AvatarError `assetDownloadFailed` when the header is missing or malformed.
 */
export function readImageSize(
  bytes: Uint8Array,
  kind: ImageKind,
  label = 'The image',
): { width: number; height: number } {
  const size = kind === 'png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size || size.width === 0 || size.height === 0) {
    throw new AvatarError('assetDownloadFailed', `${label} has no valid ${kind.toUpperCase()} header.`, {
      phase: 'load',
    });
  }
  return size;
}

/**
 * Decodes a JPEG or PNG (any PNG colour type and bit depth; 16-bit samples keep their high byte)
 * into RGBA.
 * @param label - names the image in error messages (e.g. "Avatar noa's image 2").
 * @throws AvatarError `assetDownloadFailed` with `details.problem` `tooLarge` when the header
 *   declares more than `limits` allow (or a PNG inflates past its declared size), or without a
 *   problem when the bytes are not a decodable JPEG / PNG.
 */
export function decodeImage(bytes: Uint8Array, limits: ImageLimits = {}, label = 'The image'): DecodedImage {
  const kind = sniffImageKind(bytes);
  if (!kind) {
    throw new AvatarError(
      'assetDownloadFailed',
      `${label} is neither JPEG nor PNG; React Native decodes only those. Re-export the model with JPEG or PNG textures.`,
      { phase: 'load' },
    );
  }
  const { width, height } = readImageSize(bytes, kind, label);
  checkImageSize(width, height, limits, label);
  try {
    return kind === 'jpeg' ? jpegPixels(bytes, width, height) : pngPixels(bytes, width, height, label);
  } catch (cause) {
    if (cause instanceof AvatarError) throw cause;
    throw new AvatarError(
      'assetDownloadFailed',
      `${label} is a ${kind.toUpperCase()} that cannot be decoded (${(cause as Error).message}).`,
      { phase: 'load', cause },
    );
  }
}

/**
 * Throws when a `width` × `height` image is over `limits`.
 * @throws AvatarError `assetDownloadFailed` with `details.problem` `tooLarge`.
 */
export function checkImageSize(
  width: number,
  height: number,
  limits: ImageLimits = {},
  label = 'The image',
): void {
  const maxSide = limits.maxSide ?? DEFAULT_MAX_IMAGE_SIDE;
  const maxPixels = limits.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS;
  if (width > maxSide || height > maxSide || width * height > maxPixels) {
    throw tooLarge(
      `${label} is ${width} × ${height} pixels; React Native decodes images up to ${maxSide} × ${maxSide} ` +
        `(${maxPixels} pixels). Re-export the model with smaller textures.`,
      { width, height, maxSide, maxPixels },
    );
  }
}

function tooLarge(message: string, details: Record<string, unknown>): AvatarError {
  return new AvatarError('assetDownloadFailed', message, {
    phase: 'load',
    details: { problem: 'tooLarge', ...details },
  });
}

function jpegPixels(bytes: Uint8Array, width: number, height: number): DecodedImage {
  const pixels = width * height;
  const image = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    tolerantDecoding: true,
    // jpeg-js' own guards, in case its reading of the header differs from ours. Its working
    // memory (component planes, coefficient blocks, the RGBA output) is ~20 bytes a pixel.
    maxResolutionInMP: Math.ceil(pixels / 1e6) + 1,
    maxMemoryUsageInMB: Math.ceil((pixels * 32) / 2 ** 20) + 16,
  });
  return { width: image.width, height: image.height, data: image.data };
}

function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM, RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > bytes.length) return undefined;
      return {
        height: (bytes[at + 5]! << 8) | bytes[at + 6]!,
        width: (bytes[at + 7]! << 8) | bytes[at + 8]!,
      };
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan or end before any frame header
    at += 2 + length;
  }
  return undefined;
}

interface PngHeader {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlaced: boolean;
}

function pngHeader(bytes: Uint8Array): PngHeader | undefined {
  if (bytes.length < 33) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (view.getUint32(8) !== 13 || type !== 'IHDR') return undefined;
  return {
    width: view.getUint32(16),
    height: view.getUint32(20),
    depth: bytes[24]!,
    colorType: bytes[25]!,
    interlaced: bytes[28] === 1,
  };
}

function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const header = pngHeader(bytes);
  return header && { width: header.width, height: header.height };
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Bytes of filtered scanlines the IHDR declares (each Adam7 pass has its own rows). */
function pngRawBytes(h: PngHeader, channels: number): number {
  const rowBytes = (w: number) => (w === 0 ? 0 : 1 + Math.ceil((w * channels * h.depth) / 8));
  if (!h.interlaced) return h.height * rowBytes(h.width);
  const passes: [number, number, number, number][] = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  let total = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((h.width - x0) / dx);
    const rows = Math.ceil((h.height - y0) / dy);
    if (w > 0 && rows > 0) total += rows * rowBytes(w);
  }
  return total;
}

/**
 * Inflates the IDAT stream in small pieces, counting, and throws once it passes what the header
 * declares: a zlib bomb never reaches the decoder (which inflates without a bound).
 */
function checkPngInflatedSize(bytes: Uint8Array, h: PngHeader, label: string): void {
  const channels = PNG_CHANNELS[h.colorType];
  if (channels === undefined) throw new Error(`colour type ${h.colorType} is not a PNG colour type`);
  const declared = pngRawBytes(h, channels);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let produced = 0;
  const inflater = new Unzlib((chunk) => {
    produced += chunk.length;
    if (produced > declared) {
      throw tooLarge(`${label} inflates past the ${declared} bytes its header declares (a zlib bomb).`, {
        width: h.width,
        height: h.height,
        declaredBytes: declared,
      });
    }
  });
  const PIECE = 1024; // ≤ ~1 MiB of output per piece (deflate expands at most ~1032 : 1)
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    const start = at + 8;
    if (start + length > bytes.length) throw new Error(`chunk ${type} runs past the end of the file`);
    if (type === 'IDAT') {
      for (let p = start; p < start + length; p += PIECE) {
        inflater.push(bytes.subarray(p, Math.min(start + length, p + PIECE)));
      }
    }
    if (type === 'IEND') break;
    at = start + length + 4; // data + CRC
  }
  inflater.push(new Uint8Array(0), true);
}

function pngPixels(bytes: Uint8Array, width: number, height: number, label: string): DecodedImage {
  const header = pngHeader(bytes)!;
  checkPngInflatedSize(bytes, header, label);
  const png = decodePng(bytes);
  if (png.width !== width || png.height !== height) throw new Error('decoded size differs from the header');
  const channels = png.channels;
  const depth = png.depth;
  const samples = png.data;
  const rowSamples = width * channels;
  // Samples of depth < 8 stay packed, each row starting on a byte.
  const rowBytes = Math.ceil((rowSamples * depth) / 8);
  const sample = (row: number, index: number): number => {
    if (depth === 8 || depth === 16) return samples[row * rowSamples + index]!;
    const bit = index * depth;
    const byte = samples[row * rowBytes + (bit >> 3)]!;
    return (byte >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
  };
  // To 8 bits: 16-bit samples keep their high byte, 1/2/4-bit samples scale up (not palette indices).
  const to8 =
    depth === 16
      ? (v: number) => v >> 8
      : depth === 8
        ? (v: number) => v
        : (v: number) => (v * 255) / ((1 << depth) - 1);
  const out = new Uint8Array(width * height * 4);
  const palette = png.palette;
  const key = png.transparency;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const s = x * channels;
      if (palette) {
        const entry = palette[sample(y, s)] ?? [0, 0, 0, 0];
        out[o] = entry[0]!;
        out[o + 1] = entry[1]!;
        out[o + 2] = entry[2]!;
        out[o + 3] = entry[3] ?? 255;
        continue;
      }
      if (channels <= 2) {
        const raw = sample(y, s);
        const g = to8(raw);
        out[o] = g;
        out[o + 1] = g;
        out[o + 2] = g;
        out[o + 3] = channels === 2 ? to8(sample(y, s + 1)) : key?.length === 1 && raw === key[0] ? 0 : 255;
      } else {
        const r = sample(y, s);
        const g = sample(y, s + 1);
        const b = sample(y, s + 2);
        out[o] = to8(r);
        out[o + 1] = to8(g);
        out[o + 2] = to8(b);
        out[o + 3] =
          channels === 4
            ? to8(sample(y, s + 3))
            : key?.length === 3 && r === key[0] && g === key[1] && b === key[2]
              ? 0
              : 255;
      }
    }
  }
  return { width, height, data: out };
}
