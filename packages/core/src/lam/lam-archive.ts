/**
 * The LAM "arkitWithBSData" avatar zip (exported by the LAM / OpenAvatarChat tools), read the same
 * way by the service (upload validation) and the clients (the splat view):
 *
 * - `skin.glb`: the mesh, its skeleton and its ARKit morph targets (the mesh is not drawn);
 * - `offset.ply`: one Gaussian per mesh vertex, its position an offset from that vertex, its
 *   colour stored as RGB in `f_dc_*`;
 * - `vertex_order.json`: a permutation of the vertex indices (the Gaussians' draw order hint);
 * - `animation.glb`: body clips (idle, speak, think);
 * - `bsData.json` (optional): the blend-shape names the exporter used.
 *
 * The files may sit at the root or in one folder; `__MACOSX/` entries and `.DS_Store` are ignored.
 */
import { parseSplatPly, type SplatCloud } from './splat-ply.js';
import { lamProblem, readZip, type ZipEntry, type ZipLimits } from './zip-reader.js';

/** Bounds of {@link readLamArchive}. */
export interface LamLimits extends ZipLimits {
  /** Most Gaussians (and mesh vertices) accepted (default 300 000). */
  maxSplats?: number;
}

/** A LAM avatar read from its zip and checked. */
export interface LamArchive {
  /** The folder the files sit in inside the zip (`''` at the root). */
  folder: string;
  /** `skin.glb`'s bytes. */
  skin: Uint8Array;
  /** `animation.glb`'s bytes. */
  animation: Uint8Array;
  /** The Gaussians of `offset.ply` (positions are offsets from their vertices). */
  splats: SplatCloud;
  /** `vertex_order.json`: a permutation of 0 … count − 1. */
  vertexOrder: Uint32Array;
  /** Vertices of the skinned mesh in `skin.glb` (= Gaussians). */
  vertexCount: number;
  /** `bsData.json` parsed, when present. */
  bsData?: unknown;
}

const REQUIRED = ['skin.glb', 'offset.ply', 'vertex_order.json', 'animation.glb'] as const;
const OPTIONAL = ['bsData.json'] as const;

/** True for the macOS metadata a Finder zip adds (`__MACOSX/…`, `.DS_Store`, `._name`). */
export function isMacMetadata(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return name.startsWith('__MACOSX/') || base === '.DS_Store' || base.startsWith('._');
}

/**
 * Reads and checks a LAM zip. Throws an AvatarError whose `details.problem` is `zipMalformed`,
 * `zipBomb`, `unsafeName`, `lamIncomplete`, `plyMalformed`, `countMismatch`,
 * `vertexOrderMismatch` or `outOfRange` (skin.glb has no mesh to bind to), with a message saying
 * what to fix.
 */
export function readLamArchive(bytes: Uint8Array, limits: LamLimits = {}): LamArchive {
  const maxSplats = limits.maxSplats ?? 300_000;
  const entries = readZip(bytes, limits).filter((e) => !isMacMetadata(e.name));
  const found = new Map<string, ZipEntry>();
  for (const entry of entries) {
    const base = entry.name.slice(entry.name.lastIndexOf('/') + 1);
    if (!(REQUIRED as readonly string[]).includes(base) && !(OPTIONAL as readonly string[]).includes(base))
      continue;
    const seen = found.get(base);
    if (seen) {
      throw lamProblem(
        'lamIncomplete',
        `The zip holds two ${base} files ("${seen.name}" and "${entry.name}"). Zip one avatar folder at a time.`,
      );
    }
    found.set(base, entry);
  }
  const missing = REQUIRED.filter((name) => !found.has(name));
  if (missing.length > 0) {
    throw lamProblem(
      'lamIncomplete',
      `The zip has no ${missing.join(', ')}. A LAM avatar zip holds skin.glb, offset.ply, vertex_order.json and animation.glb (export "arkitWithBSData" from LAM).`,
    );
  }
  const folderOf = (e: ZipEntry) => e.name.slice(0, e.name.lastIndexOf('/') + 1);
  const folder = folderOf(found.get('skin.glb')!);
  for (const entry of found.values()) {
    if (folderOf(entry) !== folder) {
      throw lamProblem(
        'lamIncomplete',
        `"${entry.name}" is not in the same folder as "${folder}skin.glb". Keep the avatar's files together.`,
      );
    }
  }
  const skin = found.get('skin.glb')!.read();
  const vertexCount = skinnedVertexCount(skin);
  if (vertexCount > maxSplats) {
    throw lamProblem(
      'countMismatch',
      `skin.glb's mesh has ${vertexCount} vertices; at most ${maxSplats} Gaussians are accepted.`,
    );
  }
  // LAM writes each Gaussian's colour itself into f_dc (0…1), not a spherical-harmonic coefficient.
  const splats = parseSplatPly(found.get('offset.ply')!.read(), { maxSplats, colors: 'rgb' });
  if (splats.count !== vertexCount) {
    throw lamProblem(
      'countMismatch',
      `offset.ply holds ${splats.count} Gaussians but skin.glb's mesh has ${vertexCount} vertices; a LAM avatar has one Gaussian per vertex. Export both from the same LAM run.`,
    );
  }
  const vertexOrder = parseVertexOrder(found.get('vertex_order.json')!.read(), vertexCount);
  const animation = found.get('animation.glb')!.read();
  if (
    animation.byteLength < 12 ||
    new DataView(animation.buffer, animation.byteOffset, 4).getUint32(0, true) !== 0x46546c67
  ) {
    throw lamProblem('lamIncomplete', 'animation.glb is not a GLB (it does not start with "glTF").');
  }
  const archive: LamArchive = { folder, skin, animation, splats, vertexOrder, vertexCount };
  const bsData = found.get('bsData.json');
  if (bsData) {
    try {
      archive.bsData = JSON.parse(new TextDecoder().decode(bsData.read()));
    } catch (error) {
      if ((error as { details?: unknown }).details) throw error;
      throw lamProblem('lamIncomplete', 'bsData.json is not valid JSON. Leave it out or export it again.');
    }
  }
  return archive;
}

/** Checks that vertex_order.json is a permutation of 0 … count − 1. */
function parseVertexOrder(bytes: Uint8Array, count: number): Uint32Array {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw lamProblem(
      'vertexOrderMismatch',
      'vertex_order.json is not valid JSON; it must be an array of vertex indices.',
    );
  }
  if (!Array.isArray(value)) {
    throw lamProblem(
      'vertexOrderMismatch',
      'vertex_order.json is not an array; it must list every vertex index once.',
    );
  }
  if (value.length !== count) {
    throw lamProblem(
      'vertexOrderMismatch',
      `vertex_order.json lists ${value.length} indices but the mesh has ${count} vertices; it must list each vertex once.`,
    );
  }
  const order = new Uint32Array(count);
  const seen = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const v = value[i];
    if (!Number.isInteger(v) || v < 0 || v >= count || seen[v] === 1) {
      throw lamProblem(
        'vertexOrderMismatch',
        `vertex_order.json entry ${i} (${JSON.stringify(v)}) is ${seen[v] === 1 ? 'a repeat' : 'not a vertex index'}; it must list each of 0 … ${count - 1} once.`,
      );
    }
    seen[v] = 1;
    order[i] = v;
  }
  return order;
}

/**
 * The vertex count of the mesh the Gaussians follow: the first primitive carrying morph targets
 * (LAM's skin.glb has one skinned mesh with one primitive). Reads the GLB's JSON chunk only.
 */
export function skinnedVertexCount(glb: Uint8Array): number {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (glb.byteLength < 20 || view.getUint32(0, true) !== 0x46546c67) {
    throw lamProblem('lamIncomplete', 'skin.glb is not a GLB (it does not start with "glTF").');
  }
  const jsonLength = view.getUint32(12, true);
  if (20 + jsonLength > glb.byteLength || view.getUint32(16, true) !== 0x4e4f534a) {
    throw lamProblem('lamIncomplete', "skin.glb's JSON chunk is missing or truncated.");
  }
  let gltf: {
    meshes?: { primitives?: { attributes?: { POSITION?: number }; targets?: unknown[] }[] }[];
    accessors?: { count?: number }[];
  };
  try {
    gltf = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  } catch {
    throw lamProblem('lamIncomplete', "skin.glb's glTF JSON does not parse.");
  }
  for (const mesh of gltf.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      if (!Array.isArray(primitive.targets) || primitive.targets.length === 0) continue;
      const count = gltf.accessors?.[primitive.attributes?.POSITION ?? -1]?.count;
      if (Number.isInteger(count) && (count as number) > 0) return count as number;
    }
  }
  throw lamProblem(
    'outOfRange',
    'skin.glb has no mesh with morph targets and positions; the Gaussians need the ARKit-targeted mesh they follow.',
  );
}
