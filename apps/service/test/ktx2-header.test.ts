/**
 * The KTX2 header check on its own, for the cases the upload tests do not build: ETC1S/BasisLZ
 * (global data required), Zstandard-supercompressed UASTC (sizes from the uncompressed length),
 * and images that are not one 2D picture.
 */
import { describe, expect, it } from 'vitest';
import { problemOf } from '../src/avatars/file-problem.js';
import { checkKtx2 } from '../src/avatars/ktx2-header.js';
import { makeKtx2 } from './support/compressed-glb.js';

function refusal(bytes: Buffer): { problem: string | undefined; message: string } {
  try {
    checkKtx2(bytes, 'images[0]');
  } catch (error) {
    return { problem: problemOf(error), message: (error as Error).message };
  }
  throw new Error('accepted');
}

/** `ktx2` turned into ETC1S/BasisLZ: colour model 163, scheme 1, `globalBytes` of global data. */
function asEtc1s(ktx2: Buffer, globalBytes: number): Buffer {
  const out = Buffer.concat([ktx2, Buffer.alloc(globalBytes)]);
  const dfd = out.readUInt32LE(48);
  out[dfd + 12] = 163;
  out.writeUInt32LE(1, 44);
  out.writeUInt32LE(ktx2.length, 64);
  out.writeUInt32LE(globalBytes, 72);
  // BasisLZ levels record no uncompressed length.
  for (let level = 0; level < out.readUInt32LE(40); level++) out.writeUInt32LE(0, 80 + level * 24 + 16);
  return out;
}

describe('checkKtx2', () => {
  it('reads a UASTC texture and its mip chain', () => {
    expect(checkKtx2(makeKtx2(64, 32, { levels: 7 }), 'images[0]')).toEqual({
      width: 64,
      height: 32,
      levels: 7,
      codec: 'uastc',
    });
  });

  it('takes ETC1S/BasisLZ with its global data, refuses it without', () => {
    expect(checkKtx2(asEtc1s(makeKtx2(16, 16), 64), 'images[0]').codec).toBe('etc1s');
    expect(refusal(asEtc1s(makeKtx2(16, 16), 0))).toEqual({
      problem: 'compressionMalformed',
      message: expect.stringMatching(/ETC1S data has no supercompression global data/),
    });
  });

  it('checks Zstandard-supercompressed UASTC levels by their uncompressed length', () => {
    const zstd = makeKtx2(8, 8);
    zstd.writeUInt32LE(2, 44);
    expect(checkKtx2(zstd, 'images[0]').codec).toBe('uastc');
    zstd.writeUInt32LE(1 << 30, 80 + 16);
    expect(refusal(zstd).message).toMatch(
      /mip level 0 holds 1073741824 bytes of UASTC blocks; a 8×8 level has 64/,
    );
  });

  it('refuses what is not one 2D image, and colour models that are not Basis Universal', () => {
    const cube = makeKtx2(8, 8);
    cube.writeUInt32LE(6, 36);
    expect(refusal(cube).message).toMatch(/not a single 2D image/);
    const line = makeKtx2(8, 8);
    line.writeUInt32LE(0, 24);
    expect(refusal(line).message).toMatch(/not a single 2D image/);
    const astc = makeKtx2(8, 8);
    astc[astc.readUInt32LE(48) + 12] = 162;
    expect(refusal(astc).message).toMatch(/colour model 162 with supercompression 0 is neither/);
    expect(refusal(makeKtx2(8, 8).subarray(0, 90)).message).toMatch(/KTX 20 identifier|cut off|covers bytes/);
  });
});
