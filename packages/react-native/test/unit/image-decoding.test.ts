/**
 * The DOM-free image decoder: JPEG and PNG (colour types, bit depths, palettes, transparency,
 * interlacing) to RGBA, and the refusals that keep a hostile image from exhausting memory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvatarError } from '@avatar-drive/core';
import { encode as encodePng } from 'fast-png';
import { zlibSync } from 'fflate';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { decodeImage, readImageSize, sniffImageKind } from '../../src/image-decoding.js';
import { imageBytes, readGlb } from '../support/glb-images.js';

const NOA = join(import.meta.dirname, '../../../avatars/dist/noa/avatar.glb');

/** A w × h RGBA image: red left half, blue right half, alpha 255. */
function halves(w: number, h: number): Uint8Array {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      data.set(x < w / 2 ? [220, 30, 30, 255] : [30, 40, 210, 255], (y * w + x) * 4);
  return data;
}

function refusal(fn: () => unknown): AvatarError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AvatarError);
    return error as AvatarError;
  }
  throw new Error('expected a refusal');
}

/** A PNG made by hand: IHDR as given, IDAT holding `raw` (filtered scanlines) zlib-compressed. */
function pngOf(
  width: number,
  height: number,
  depth: number,
  colorType: number,
  raw: Uint8Array,
  extra: [string, Uint8Array][] = [],
): Uint8Array {
  const chunk = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(12 + body.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, body.length);
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    out.set(body, 8);
    return out; // CRC left 0: the size checks read no CRC
  };
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr[8] = depth;
  ihdr[9] = colorType;
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...extra.map(([type, body]) => chunk(type, body)),
    chunk('IDAT', zlibSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('decodeImage (JPEG)', () => {
  it('decodes a baseline JPEG to RGBA close to what was encoded', () => {
    const w = 64;
    const h = 32;
    const encoded = jpeg.encode({ width: w, height: h, data: halves(w, h) }, 95).data;
    const bytes = new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
    expect(sniffImageKind(bytes)).toBe('jpeg');
    expect(readImageSize(bytes, 'jpeg')).toEqual({ width: w, height: h });
    const image = decodeImage(bytes);
    expect([image.width, image.height, image.data.length]).toEqual([w, h, w * h * 4]);
    const at = (x: number, y: number) => [...image.data.subarray((y * w + x) * 4, (y * w + x) * 4 + 4)];
    const left = at(8, 16);
    const right = at(56, 16);
    expect(Math.abs(left[0]! - 220) + Math.abs(left[1]! - 30) + Math.abs(left[2]! - 30)).toBeLessThan(30);
    expect(Math.abs(right[0]! - 30) + Math.abs(right[1]! - 40) + Math.abs(right[2]! - 210)).toBeLessThan(30);
    expect(left[3]).toBe(255);
  });

  it.skipIf(!existsSafe(NOA))(
    'decodes the built-in noa’s JPEG and PNG textures (needs packages/avatars built)',
    () => {
      const glb = readGlb(new Uint8Array(readFileSync(NOA)));
      for (let i = 0; i < glb.json.images!.length; i++) {
        const bytes = imageBytes(glb, i);
        const kind = sniffImageKind(bytes)!;
        expect(`image/${kind}`).toBe(glb.json.images![i]!.mimeType);
        const size = readImageSize(bytes, kind);
        const image = decodeImage(bytes);
        expect(image).toMatchObject(size);
        expect(image.data.length).toBe(size.width * size.height * 4);
        // Real content: not one flat colour.
        const first = image.data.subarray(0, 4).join();
        let differing = 0;
        for (let p = 0; p < image.data.length; p += 4 * 97)
          if (image.data.subarray(p, p + 4).join() !== first) differing++;
        expect(differing).toBeGreaterThan(10);
      }
    },
  );
});

describe('decodeImage (PNG)', () => {
  it('decodes 8-bit RGBA exactly', () => {
    const data = halves(10, 6);
    data[3] = 17; // one translucent pixel
    const image = decodeImage(encodePng({ width: 10, height: 6, data, channels: 4, depth: 8 }));
    expect(image.data).toEqual(data);
  });

  it('decodes 16-bit RGB (high byte kept, opaque)', () => {
    const data = new Uint16Array(3 * 2 * 3);
    for (let i = 0; i < data.length; i++) data[i] = i * 3000;
    const image = decodeImage(encodePng({ width: 3, height: 2, data, channels: 3, depth: 16 }));
    for (let p = 0; p < 6; p++) {
      expect([...image.data.subarray(p * 4, p * 4 + 4)]).toEqual([
        data[p * 3]! >> 8,
        data[p * 3 + 1]! >> 8,
        data[p * 3 + 2]! >> 8,
        255,
      ]);
    }
  });

  it('decodes greyscale + alpha, 1-bit greyscale and Adam7 interlacing', () => {
    const ga = decodeImage(
      encodePng({ width: 2, height: 1, data: Uint8Array.from([10, 20, 200, 255]), channels: 2, depth: 8 }),
    );
    expect([...ga.data]).toEqual([10, 10, 10, 20, 200, 200, 200, 255]);
    // 1-bit: 10 pixels in two bytes per row, filter byte 0.
    const raw = Uint8Array.from([0, 0b10100000, 0b01000000, 0, 0b11111111, 0b11000000]);
    const bits = decodeImage(pngOf(10, 2, 1, 0, raw));
    const row0 = [...Array(10).keys()].map((x) => bits.data[x * 4]);
    expect(row0).toEqual([255, 0, 255, 0, 0, 0, 0, 0, 0, 255]);
    expect([...Array(10).keys()].every((x) => bits.data[(10 + x) * 4] === 255)).toBe(true);
    const data = halves(9, 7);
    const interlaced = decodeImage(
      encodePng({ width: 9, height: 7, data, channels: 4, depth: 8 }, { interlace: 'Adam7' }),
    );
    expect(interlaced.data).toEqual(data);
  });

  it('decodes a palette with transparency', () => {
    // (fast-png's encoder writes tRNS out of order: the PNG is made by hand.) 2-bit indices 1, 0, 2.
    const png = pngOf(3, 1, 2, 3, Uint8Array.from([0, 0b01001000]), [
      ['PLTE', Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255])],
      ['tRNS', Uint8Array.from([255, 128])],
    ]);
    expect([...decodeImage(png).data]).toEqual([0, 255, 0, 128, 255, 0, 0, 255, 0, 0, 255, 255]);
  });
});

describe('decodeImage refusals', () => {
  it('refuses an 8192 × 8192 JPEG from its header, before decoding', () => {
    const encoded = jpeg.encode({ width: 16, height: 16, data: halves(16, 16) }, 90).data;
    const bytes = new Uint8Array(encoded);
    // Rewrite the frame header's size (SOF0: FFC0, length, precision, height, width).
    let at = 2;
    while (!(bytes[at] === 0xff && bytes[at + 1] === 0xc0))
      at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
    bytes.set([0x20, 0x00, 0x20, 0x00], at + 5);
    expect(readImageSize(bytes, 'jpeg')).toEqual({ width: 8192, height: 8192 });
    const error = refusal(() => decodeImage(bytes, {}, 'Image 3'));
    expect(error.code).toBe('assetDownloadFailed');
    expect(error.details).toMatchObject({ problem: 'tooLarge', width: 8192, height: 8192, maxSide: 4096 });
    expect(error.message).toMatch(/Image 3 is 8192 × 8192 pixels.*Re-export/);
  });

  it('refuses an 8192 × 8192 PNG, and honours tighter limits', () => {
    const png = pngOf(8192, 8192, 8, 6, new Uint8Array(16));
    expect(refusal(() => decodeImage(png)).details).toMatchObject({ problem: 'tooLarge', width: 8192 });
    const small = encodePng({ width: 64, height: 64, data: halves(64, 64), channels: 4, depth: 8 });
    expect(refusal(() => decodeImage(small, { maxSide: 32 })).details?.problem).toBe('tooLarge');
    expect(refusal(() => decodeImage(small, { maxPixels: 1000 })).details?.problem).toBe('tooLarge');
  });

  it('refuses a PNG whose data inflates past its declared size (a zlib bomb) without inflating it all', () => {
    // Declares 16 × 16 RGBA (1,040 bytes of scanlines) and holds 8 MiB of zeros, ~8 KiB compressed.
    const bomb = pngOf(16, 16, 8, 6, new Uint8Array(8 * 2 ** 20));
    expect(bomb.length).toBeLessThan(20_000);
    const error = refusal(() => decodeImage(bomb));
    expect(error.details).toMatchObject({ problem: 'tooLarge', declaredBytes: 16 * (1 + 64) });
    expect(error.message).toMatch(/zlib bomb/);
  });

  it('refuses what is not a JPEG or PNG, and a truncated or corrupt one, with a message', () => {
    expect(refusal(() => decodeImage(new TextEncoder().encode('GIF89a....'))).message).toMatch(
      /neither JPEG nor PNG/,
    );
    expect(refusal(() => decodeImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]))).message).toMatch(
      /no valid JPEG header/,
    );
    const png = encodePng({ width: 8, height: 8, data: halves(8, 8), channels: 4, depth: 8 });
    const broken = png.slice();
    broken.fill(0x55, 41, 60); // inside IDAT
    const error = refusal(() => decodeImage(broken));
    expect(error.code).toBe('assetDownloadFailed');
    expect(error.message).toMatch(/PNG that cannot be decoded/);
  });
});

function existsSafe(path: string): boolean {
  try {
    readFileSync(path, { flag: 'r' }).subarray(0, 1);
    return true;
  } catch {
    return false;
  }
}
