/**
 * The Gaussian PLY of a LAM avatar (`offset.ply`, the 3D Gaussian Splatting layout): a header,
 * then one binary little-endian record per Gaussian. Only what a splat needs is kept — position
 * (for LAM, an offset from its mesh vertex), DC colour, opacity, scale, rotation — as linear
 * values: colour in 0…1, opacity in 0…1, scale in metres, rotation as a unit quaternion (x, y, z, w).
 */
import { lamProblem } from './zip-reader.js';

/** The Gaussians of a PLY, one entry per Gaussian in each array. */
export interface SplatCloud {
  count: number;
  /** x, y, z per Gaussian. */
  positions: Float32Array;
  /** RGB in 0…1: from the DC spherical-harmonic term (0.5 + C0 · f_dc), or f_dc itself (see {@link PlyLimits.colors}). */
  colors: Float32Array;
  /** 0…1 (sigmoid of the stored logit). */
  opacities: Float32Array;
  /** Per-axis scale in metres (exp of the stored log-scale). */
  scales: Float32Array;
  /** Unit quaternion x, y, z, w (the PLY stores w first). */
  rotations: Float32Array;
}

const REQUIRED = [
  'x',
  'y',
  'z',
  'f_dc_0',
  'f_dc_1',
  'f_dc_2',
  'opacity',
  'scale_0',
  'scale_1',
  'scale_2',
  'rot_0',
  'rot_1',
  'rot_2',
  'rot_3',
] as const;
const SIZES: Record<string, number> = {
  float: 4,
  float32: 4,
  double: 8,
  float64: 8,
  uchar: 1,
  uint8: 1,
  char: 1,
  int8: 1,
  ushort: 2,
  uint16: 2,
  short: 2,
  int16: 2,
  uint: 4,
  uint32: 4,
  int: 4,
  int32: 4,
};
/** Zeroth-order spherical-harmonic constant: colour = 0.5 + C0 · f_dc. */
const SH_C0 = 0.28209479177387814;
const MAX_HEADER = 16 * 1024;

/** Bounds of {@link parseSplatPly}. */
export interface PlyLimits {
  /** Most Gaussians accepted (default 500 000). */
  maxSplats?: number;
  /**
   * How `f_dc_*` holds the colour: `sh` (default, the 3D Gaussian Splatting convention: the DC
   * spherical-harmonic coefficient) or `rgb` (the colour itself in 0…1, as LAM's exporter writes it).
   */
  colors?: 'sh' | 'rgb';
}

/**
 * Parses a binary little-endian Gaussian PLY. Throws an AvatarError (problem `plyMalformed`, or
 * `countMismatch` when the data is shorter or longer than the header's vertex count says).
 */
export function parseSplatPly(bytes: Uint8Array, limits: PlyLimits = {}): SplatCloud {
  const maxSplats = limits.maxSplats ?? 500_000;
  const rgb = limits.colors === 'rgb';
  const headerText = new TextDecoder('latin1').decode(
    bytes.subarray(0, Math.min(bytes.byteLength, MAX_HEADER)),
  );
  const end = headerText.indexOf('end_header\n');
  if (!headerText.startsWith('ply\n') || end < 0) {
    throw lamProblem(
      'plyMalformed',
      'offset.ply is not a PLY file (no "ply" line or no "end_header" within 16 KiB). Export the Gaussians as binary PLY.',
    );
  }
  const lines = headerText.slice(0, end).split('\n');
  let format: string | undefined;
  let count = -1;
  let inVertex = false;
  const properties: { name: string; type: string; offset: number }[] = [];
  let stride = 0;
  for (const line of lines) {
    const words = line.trim().split(/\s+/);
    if (words[0] === 'format') format = words[1];
    else if (words[0] === 'element') {
      if (words[1] === 'vertex') {
        if (count >= 0) throw lamProblem('plyMalformed', 'offset.ply declares two vertex elements.');
        count = Number(words[2]);
        inVertex = true;
      } else {
        if (inVertex || count < 0) {
          throw lamProblem(
            'plyMalformed',
            `offset.ply has an element "${words[1]}" besides the Gaussians; only "vertex" is read.`,
          );
        }
      }
    } else if (words[0] === 'property' && inVertex) {
      if (words[1] === 'list')
        throw lamProblem('plyMalformed', 'offset.ply has a list property; Gaussian PLYs have scalars only.');
      const size = SIZES[words[1] ?? ''];
      if (!size || !words[2])
        throw lamProblem('plyMalformed', `offset.ply has a property of unknown type: "${line.trim()}".`);
      properties.push({ name: words[2], type: words[1]!, offset: stride });
      stride += size;
    }
  }
  if (format !== 'binary_little_endian') {
    throw lamProblem(
      'plyMalformed',
      `offset.ply is ${format ?? 'of no'} format; only binary_little_endian Gaussian PLYs are read.`,
    );
  }
  if (!Number.isInteger(count) || count <= 0 || count > maxSplats) {
    throw lamProblem('plyMalformed', `offset.ply declares ${count} Gaussians; expected 1 to ${maxSplats}.`);
  }
  const offsets: Record<string, number> = {};
  for (const name of REQUIRED) {
    const property = properties.find((p) => p.name === name);
    if (!property) {
      throw lamProblem(
        'plyMalformed',
        `offset.ply has no "${name}" property; a Gaussian needs ${REQUIRED.join(', ')}.`,
      );
    }
    if (property.type !== 'float' && property.type !== 'float32') {
      throw lamProblem(
        'plyMalformed',
        `offset.ply's "${name}" is ${property.type}; Gaussian properties are float.`,
      );
    }
    offsets[name] = property.offset;
  }
  const dataStart = end + 'end_header\n'.length;
  const expected = dataStart + count * stride;
  if (bytes.byteLength !== expected) {
    throw lamProblem(
      'countMismatch',
      `offset.ply declares ${count} Gaussians of ${stride} bytes (${count * stride} bytes) but holds ${bytes.byteLength - dataStart}.`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + dataStart, count * stride);
  const cloud: SplatCloud = {
    count,
    positions: new Float32Array(count * 3),
    colors: new Float32Array(count * 3),
    opacities: new Float32Array(count),
    scales: new Float32Array(count * 3),
    rotations: new Float32Array(count * 4),
  };
  const f = (record: number, name: string) => view.getFloat32(record + offsets[name]!, true);
  for (let i = 0; i < count; i++) {
    const r = i * stride;
    for (let c = 0; c < 3; c++) {
      cloud.positions[i * 3 + c] = f(r, 'xyz'[c]!);
      const dc = f(r, `f_dc_${c}`);
      cloud.colors[i * 3 + c] = Math.min(1, Math.max(0, rgb ? dc : 0.5 + SH_C0 * dc));
      cloud.scales[i * 3 + c] = Math.exp(f(r, `scale_${c}`));
    }
    cloud.opacities[i] = 1 / (1 + Math.exp(-f(r, 'opacity')));
    const w = f(r, 'rot_0');
    const x = f(r, 'rot_1');
    const y = f(r, 'rot_2');
    const z = f(r, 'rot_3');
    const norm = Math.hypot(x, y, z, w);
    if (!Number.isFinite(norm) || norm === 0) {
      throw lamProblem(
        'plyMalformed',
        `offset.ply's Gaussian ${i} has no rotation (a zero or non-finite quaternion).`,
      );
    }
    cloud.rotations.set([x / norm, y / norm, z / norm, w / norm], i * 4);
    for (let c = 0; c < 3; c++) {
      if (!Number.isFinite(cloud.positions[i * 3 + c]!) || !Number.isFinite(cloud.scales[i * 3 + c]!)) {
        throw lamProblem('plyMalformed', `offset.ply's Gaussian ${i} has a non-finite position or scale.`);
      }
    }
  }
  return cloud;
}

/** Encodes `cloud` as a binary little-endian Gaussian PLY (the generator's `offset.ply`); `colors` as in {@link PlyLimits}. */
export function encodeSplatPly(cloud: SplatCloud, colors: 'sh' | 'rgb' = 'sh'): Uint8Array {
  const dc = (c: number) => (colors === 'rgb' ? c : (c - 0.5) / SH_C0);
  const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${cloud.count}\n${REQUIRED.map((p) => `property float ${p}\n`).join('')}end_header\n`;
  const head = new TextEncoder().encode(header);
  const out = new Uint8Array(head.byteLength + cloud.count * REQUIRED.length * 4);
  out.set(head);
  const view = new DataView(out.buffer, head.byteLength);
  const logit = (p: number) =>
    Math.log(Math.min(0.9999, Math.max(1e-4, p)) / (1 - Math.min(0.9999, Math.max(1e-4, p))));
  for (let i = 0; i < cloud.count; i++) {
    const q = cloud.rotations;
    const values = [
      cloud.positions[i * 3]!,
      cloud.positions[i * 3 + 1]!,
      cloud.positions[i * 3 + 2]!,
      dc(cloud.colors[i * 3]!),
      dc(cloud.colors[i * 3 + 1]!),
      dc(cloud.colors[i * 3 + 2]!),
      logit(cloud.opacities[i]!),
      Math.log(cloud.scales[i * 3]!),
      Math.log(cloud.scales[i * 3 + 1]!),
      Math.log(cloud.scales[i * 3 + 2]!),
      q[i * 4 + 3]!,
      q[i * 4]!,
      q[i * 4 + 1]!,
      q[i * 4 + 2]!,
    ];
    for (let k = 0; k < values.length; k++) view.setFloat32((i * REQUIRED.length + k) * 4, values[k]!, true);
  }
  return out;
}
