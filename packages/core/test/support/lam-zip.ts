/**
 * Builds small LAM avatar zips for tests: a minimal skin.glb (JSON chunk only: one primitive with
 * one morph target and `vertices` positions), a matching offset.ply and vertex_order.json.
 * Options break one part at a time.
 */
import { encodeSplatPly, type SplatCloud, writeZip, type ZipInput } from '../../src/index.js';

export interface LamZipOptions {
  vertices?: number;
  /** Gaussians in offset.ply (default = vertices). */
  splats?: number;
  /** vertex_order.json's content (default 0 … vertices − 1 reversed). */
  order?: unknown;
  /** Replaces offset.ply. */
  ply?: Uint8Array;
  /** Extra entries, added after the avatar's. */
  extra?: ZipInput[];
  /** Leaves these files out. */
  omit?: string[];
  /** Folder inside the zip (default `avatar/`). */
  folder?: string;
}

export function minimalGlb(vertices: number): Uint8Array {
  const json = JSON.stringify({
    asset: { version: '2.0' },
    meshes: [
      {
        primitives: [{ attributes: { POSITION: 0 }, targets: [{ POSITION: 1 }] }],
        extras: { targetNames: ['jawOpen'] },
      },
    ],
    accessors: [
      { componentType: 5126, count: vertices, type: 'VEC3' },
      { componentType: 5126, count: vertices, type: 'VEC3' },
    ],
  });
  const padded = json + ' '.repeat((4 - (json.length % 4)) % 4);
  const out = new Uint8Array(20 + padded.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.byteLength, true);
  view.setUint32(12, padded.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(new TextEncoder().encode(padded), 20);
  return out;
}

export function cloud(count: number): SplatCloud {
  const c: SplatCloud = {
    count,
    positions: new Float32Array(count * 3),
    colors: new Float32Array(count * 3).fill(0.5),
    opacities: new Float32Array(count).fill(0.9),
    scales: new Float32Array(count * 3).fill(0.004),
    rotations: new Float32Array(count * 4),
  };
  for (let i = 0; i < count; i++) {
    c.rotations[i * 4 + 3] = 1;
    c.positions[i * 3] = i * 0.001;
  }
  return c;
}

export function lamZip(options: LamZipOptions = {}): Uint8Array {
  const vertices = options.vertices ?? 8;
  const folder = options.folder ?? 'avatar/';
  const order = options.order ?? Array.from({ length: vertices }, (_, i) => vertices - 1 - i);
  const files: ZipInput[] = [
    { name: `${folder}skin.glb`, data: minimalGlb(vertices) },
    {
      name: `${folder}offset.ply`,
      data: options.ply ?? encodeSplatPly(cloud(options.splats ?? vertices), 'rgb'),
    },
    { name: `${folder}vertex_order.json`, data: new TextEncoder().encode(JSON.stringify(order)) },
    { name: `${folder}animation.glb`, data: minimalGlb(1) },
  ].filter((f) => !options.omit?.some((name) => f.name.endsWith(name)));
  return writeZip([...files, ...(options.extra ?? [])]);
}
