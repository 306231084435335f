import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { encodeSplatPly, parseSplatPly, readLamArchive, readZip, writeZip } from '../src/index.js';
import { cloud, lamZip } from './support/lam-zip.js';
import { lamFixtures } from './support/shared-dir.js';

const problem = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return (
      (error as { details?: { problem?: string } }).details?.problem ?? `threw ${(error as Error).message}`
    );
  }
  return undefined;
};

describe('readLamArchive', () => {
  it('reads a LAM zip in a folder and ignores macOS metadata', () => {
    const zip = lamZip({
      vertices: 12,
      extra: [
        { name: '__MACOSX/avatar/._skin.glb', data: new Uint8Array(40) },
        { name: 'avatar/.DS_Store', data: new Uint8Array(60) },
        { name: 'avatar/bsData.json', data: new TextEncoder().encode('{"names":["jawOpen"]}') },
      ],
    });
    const lam = readLamArchive(zip);
    expect(lam.folder).toBe('avatar/');
    expect(lam.vertexCount).toBe(12);
    expect(lam.splats.count).toBe(12);
    expect(Array.from(lam.vertexOrder.slice(0, 3))).toEqual([11, 10, 9]);
    expect(lam.bsData).toEqual({ names: ['jawOpen'] });
    expect(lam.splats.opacities[0]).toBeCloseTo(0.9, 3);
    expect(lam.splats.scales[0]).toBeCloseTo(0.004, 5);
  });

  it('refuses traversal and absolute names', () => {
    for (const name of ['../evil.glb', 'avatar/../../x', '/etc/passwd', 'C:/x', 'a\\b']) {
      expect(problem(() => readLamArchive(lamZip({ extra: [{ name, data: new Uint8Array(1) }] })))).toBe(
        'unsafeName',
      );
    }
  });

  it('stops a zip bomb at the size its header declares, and refuses declared totals over the limit', () => {
    const zeros = new Uint8Array(4 * 1024 * 1024);
    const zip = writeZip([{ name: 'avatar/skin.glb', data: zeros }]);
    // Lie about the uncompressed size (local and central header) so the entry claims 1 KiB.
    const view = new DataView(zip.buffer);
    view.setUint32(22, 1024, true);
    const compressed = deflateSync(zeros, { level: 6 }).byteLength;
    view.setUint32(30 + 'avatar/skin.glb'.length + compressed + 24, 1024, true);
    const entries = readZip(zip);
    expect(entries[0]!.size).toBe(1024);
    expect(problem(() => entries[0]!.read())).toBe('zipBomb');
    expect(
      problem(() => readZip(writeZip([{ name: 'a', data: zeros }]), { maxUncompressedBytes: 1024 * 1024 })),
    ).toBe('zipBomb');
    const many = writeZip(Array.from({ length: 70 }, (_, i) => ({ name: `f${i}`, data: new Uint8Array(1) })));
    expect(problem(() => readZip(many))).toBe('zipBomb');
  }, 60_000);

  it('refuses corrupt archives with zipMalformed', () => {
    const zip = lamZip();
    const corrupt = zip.slice();
    corrupt[60] = corrupt[60]! ^ 0xff; // inside skin.glb's deflated data
    expect(problem(() => readLamArchive(corrupt))).toBe('zipMalformed');
    expect(problem(() => readLamArchive(zip.subarray(0, zip.byteLength - 30)))).toBe('zipMalformed');
    expect(problem(() => readLamArchive(new Uint8Array(100)))).toBe('zipMalformed');
  });

  it('names missing files and vertex-order and count mismatches', () => {
    expect(problem(() => readLamArchive(lamZip({ omit: ['offset.ply'] })))).toBe('lamIncomplete');
    expect(problem(() => readLamArchive(lamZip({ vertices: 8, splats: 7 })))).toBe('countMismatch');
    expect(problem(() => readLamArchive(lamZip({ vertices: 4, order: [0, 1, 2] })))).toBe(
      'vertexOrderMismatch',
    );
    expect(problem(() => readLamArchive(lamZip({ vertices: 4, order: [0, 1, 1, 3] })))).toBe(
      'vertexOrderMismatch',
    );
    expect(problem(() => readLamArchive(lamZip({ vertices: 4, order: [0, 1, 2, 4] })))).toBe(
      'vertexOrderMismatch',
    );
    expect(problem(() => readLamArchive(lamZip({ vertices: 4, order: { a: 1 } })))).toBe(
      'vertexOrderMismatch',
    );
  });

  it('refuses malformed PLYs with plyMalformed (or countMismatch for short data)', () => {
    const good = encodeSplatPly(cloud(8));
    const text = (s: string) => new TextEncoder().encode(s);
    expect(
      problem(() =>
        parseSplatPly(text('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n')),
      ),
    ).toBe('plyMalformed');
    expect(problem(() => parseSplatPly(text('not a ply')))).toBe('plyMalformed');
    expect(
      problem(() =>
        parseSplatPly(
          text(
            'ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n\0\0\0\0',
          ),
        ),
      ),
    ).toBe('plyMalformed');
    expect(problem(() => parseSplatPly(good.subarray(0, good.byteLength - 4)))).toBe('countMismatch');
    expect(problem(() => readLamArchive(lamZip({ ply: text('garbage') })))).toBe('plyMalformed');
    const round = parseSplatPly(good);
    expect(round.count).toBe(8);
    expect(round.colors[0]).toBeCloseTo(0.5, 5);
  });
});

const fixtures = lamFixtures() ?? '';
describe.skipIf(!fixtures)(
  'the real LAM fixtures (../shared/fixtures/lam; skipped where ../shared is absent)',
  () => {
    for (const name of ['p2-1.zip', 'james.zip']) {
      it(`reads ${name}: 20,018 Gaussians, one per vertex`, () => {
        const lam = readLamArchive(new Uint8Array(readFileSync(resolve(fixtures, name))));
        expect(lam.vertexCount).toBe(20018);
        expect(lam.splats.count).toBe(20018);
        expect(lam.vertexOrder.length).toBe(20018);
        expect(name === 'james.zip' ? lam.bsData : undefined).toEqual(
          name === 'james.zip' ? expect.anything() : undefined,
        );
      }, 60_000);
    }
  },
);
