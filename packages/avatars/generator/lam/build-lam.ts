/**
 * A LAM "arkitWithBSData" avatar zip made from any built-in GLB, so a fresh clone tests the splat
 * path with its own data (no third-party head needed): every primitive of the built-in (the
 * transparent corneas left out) is merged, at rest, into one mesh carrying the ARKit targets,
 * written as `skin.glb`; `offset.ply` holds one Gaussian per vertex — centred on it (offset 0), as
 * wide as the edges around it, coloured from the material's albedo (base colour × vertex colour ×
 * base-colour texture at the vertex's UV); `vertex_order.json` is the identity order;
 * `animation.glb` is the same mesh with no clips (the view does its own idle motion).
 * Deterministic: the same GLB gives the same zip.
 */
import { ARKIT_BLENDSHAPES, encodeSplatPly, type SplatCloud, writeZip } from '@avatar-drive/core';
import jpeg from 'jpeg-js';
import * as THREE from 'three';
import { exportGlb } from '../export-glb.js';

interface Gltf {
  accessors: {
    bufferView?: number;
    byteOffset?: number;
    componentType: number;
    count: number;
    type: string;
    normalized?: boolean;
    sparse?: {
      count: number;
      indices: { bufferView: number; byteOffset?: number; componentType: number };
      values: { bufferView: number; byteOffset?: number };
    };
  }[];
  bufferViews: { byteOffset?: number; byteLength: number; byteStride?: number }[];
  meshes: {
    primitives: {
      attributes: Record<string, number>;
      indices?: number;
      material?: number;
      targets?: Record<string, number>[];
    }[];
    extras?: { targetNames?: string[] };
  }[];
  nodes: {
    name?: string;
    mesh?: number;
    children?: number[];
    matrix?: number[];
    translation?: number[];
    rotation?: number[];
    scale?: number[];
  }[];
  scenes: { nodes: number[] }[];
  scene?: number;
  materials?: {
    name?: string;
    pbrMetallicRoughness?: { baseColorFactor?: number[]; baseColorTexture?: { index: number } };
  }[];
  textures?: { source: number }[];
  images?: { bufferView: number; mimeType: string }[];
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

/** Reads a GLB's JSON and binary chunk. */
function splitGlb(bytes: Uint8Array): { gltf: Gltf; bin: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const gltf = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as Gltf;
  const binStart = 20 + jsonLength + 8;
  return { gltf, bin: bytes.subarray(binStart, binStart + view.getUint32(20 + jsonLength, true)) };
}

/** An accessor's values as floats (normalised integers scaled to −1…1 / 0…1), dense. */
function readAccessor(gltf: Gltf, bin: Uint8Array, index: number): { values: Float32Array; size: number } {
  const a = gltf.accessors[index]!;
  const size = COMPONENTS[a.type]!;
  const values = new Float32Array(a.count * size);
  const bytesPer = BYTES[a.componentType]!;
  if (a.bufferView !== undefined) {
    const bv = gltf.bufferViews[a.bufferView]!;
    const stride = bv.byteStride ?? bytesPer * size;
    const view = viewAt(gltf, bin, a.bufferView, a.byteOffset);
    for (let i = 0; i < a.count; i++) {
      for (let c = 0; c < size; c++)
        values[i * size + c] = readComponent(view, i * stride + c * bytesPer, a.componentType, a.normalized);
    }
  }
  if (a.sparse) {
    const { count, indices, values: sparseValues } = a.sparse;
    const iv = viewAt(gltf, bin, indices.bufferView, indices.byteOffset);
    const vv = viewAt(gltf, bin, sparseValues.bufferView, sparseValues.byteOffset);
    const indexBytes = BYTES[indices.componentType]!;
    for (let s = 0; s < count; s++) {
      const target = readComponent(iv, s * indexBytes, indices.componentType, false);
      for (let c = 0; c < size; c++) {
        values[target * size + c] = readComponent(
          vv,
          (s * size + c) * bytesPer,
          a.componentType,
          a.normalized,
        );
      }
    }
  }
  return { values, size };
}

const BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

function viewAt(gltf: Gltf, bin: Uint8Array, bufferView: number, byteOffset = 0): DataView {
  const bv = gltf.bufferViews[bufferView]!;
  return new DataView(bin.buffer, bin.byteOffset + (bv.byteOffset ?? 0) + byteOffset);
}

function readComponent(
  view: DataView,
  at: number,
  componentType: number,
  normalized: boolean | undefined,
): number {
  switch (componentType) {
    case 5126:
      return view.getFloat32(at, true);
    case 5125:
      return view.getUint32(at, true);
    case 5123:
      return normalized ? view.getUint16(at, true) / 65535 : view.getUint16(at, true);
    case 5122:
      return normalized ? Math.max(view.getInt16(at, true) / 32767, -1) : view.getInt16(at, true);
    case 5121:
      return normalized ? view.getUint8(at) / 255 : view.getUint8(at);
    default:
      return normalized ? Math.max(view.getInt8(at) / 127, -1) : view.getInt8(at);
  }
}

interface Image {
  width: number;
  height: number;
  rgba: Uint8Array;
}

function decodeImage(gltf: Gltf, bin: Uint8Array, imageIndex: number): Image | undefined {
  const image = gltf.images?.[imageIndex];
  if (!image) return undefined;
  if (image.mimeType !== 'image/jpeg') return undefined; // PNGs (hair cards): vertex colours only
  const bv = gltf.bufferViews[image.bufferView]!;
  const data = bin.subarray(bv.byteOffset ?? 0, (bv.byteOffset ?? 0) + bv.byteLength);
  const decoded = jpeg.decode(data, { useTArray: true, formatAsRGBA: true });
  return { width: decoded.width, height: decoded.height, rgba: decoded.data };
}

/** sRGB 0…1 → linear, and back: the albedo is averaged in linear light. */
const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c: number) => (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);

/** Options of {@link buildLamZip}. */
export interface LamBuildOptions {
  /** Gaussian opacity (default 0.97). */
  opacity?: number;
  /** Gaussian radius as a fraction of the mean edge length at its vertex (default 0.6). */
  radius?: number;
}

/**
 * The LAM zip of the built-in GLB `glb` (folder `arkitWithBSData/` inside the zip, as LAM exports).
 */
export async function buildLamZip(glb: Uint8Array, options: LamBuildOptions = {}): Promise<Uint8Array> {
  const { gltf, bin } = splitGlb(glb);
  const opacity = options.opacity ?? 0.97;
  const radius = options.radius ?? 0.6;
  const names = [...ARKIT_BLENDSHAPES] as string[];
  const positions: number[] = [];
  const colors: number[] = [];
  const indices: number[] = [];
  const deltas: number[][] = names.map(() => []);
  const images = new Map<number, Image | undefined>();

  const world = new THREE.Matrix4();
  const normalMatrix = new THREE.Matrix3();
  const v = new THREE.Vector3();
  const visit = (nodeIndex: number, parent: THREE.Matrix4) => {
    const node = gltf.nodes[nodeIndex]!;
    const local = new THREE.Matrix4();
    if (node.matrix) local.fromArray(node.matrix);
    else
      local.compose(
        new THREE.Vector3(...((node.translation ?? [0, 0, 0]) as [number, number, number])),
        new THREE.Quaternion(...((node.rotation ?? [0, 0, 0, 1]) as [number, number, number, number])),
        new THREE.Vector3(...((node.scale ?? [1, 1, 1]) as [number, number, number])),
      );
    const matrix = parent.clone().multiply(local);
    if (node.mesh !== undefined) {
      const mesh = gltf.meshes[node.mesh]!;
      const targetNames = mesh.extras?.targetNames ?? [];
      world.copy(matrix);
      normalMatrix.setFromMatrix4(world); // linear part, for the deltas
      for (const primitive of mesh.primitives) {
        const material = gltf.materials?.[primitive.material ?? -1];
        const factor = material?.pbrMetallicRoughness?.baseColorFactor ?? [1, 1, 1, 1];
        if ((factor[3] ?? 1) < 0.5) continue; // corneas: clear coats, no colour of their own
        const base = positions.length / 3;
        const pos = readAccessor(gltf, bin, primitive.attributes.POSITION!).values;
        const count = pos.length / 3;
        const color =
          primitive.attributes.COLOR_0 !== undefined
            ? readAccessor(gltf, bin, primitive.attributes.COLOR_0)
            : undefined;
        const uv =
          primitive.attributes.TEXCOORD_0 !== undefined
            ? readAccessor(gltf, bin, primitive.attributes.TEXCOORD_0).values
            : undefined;
        const textureIndex = material?.pbrMetallicRoughness?.baseColorTexture?.index;
        const imageIndex = textureIndex === undefined ? undefined : gltf.textures?.[textureIndex]?.source;
        if (imageIndex !== undefined && !images.has(imageIndex))
          images.set(imageIndex, decodeImage(gltf, bin, imageIndex));
        const image = imageIndex === undefined ? undefined : images.get(imageIndex);
        for (let i = 0; i < count; i++) {
          v.set(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!).applyMatrix4(world);
          positions.push(v.x, v.y, v.z);
          const rgb = [0, 1, 2].map(
            (c) => toLinear(factor[c] ?? 1) * (color ? (color.values[i * color.size + c] ?? 1) : 1),
          );
          if (image && uv) {
            const x = Math.min(
              image.width - 1,
              Math.max(0, Math.round((uv[i * 2]! % 1) * (image.width - 1))),
            );
            const y = Math.min(
              image.height - 1,
              Math.max(0, Math.round((uv[i * 2 + 1]! % 1) * (image.height - 1))),
            );
            for (let c = 0; c < 3; c++) rgb[c]! *= toLinear(image.rgba[(y * image.width + x) * 4 + c]! / 255);
          }
          colors.push(...rgb.map((c) => toSrgb(Math.min(1, c))));
        }
        const idx =
          primitive.indices !== undefined ? readAccessor(gltf, bin, primitive.indices).values : undefined;
        if (idx) for (const index of idx) indices.push(base + index);
        else for (let i = 0; i < count; i++) indices.push(base + i);
        names.forEach((name, k) => {
          const t = targetNames.indexOf(name);
          const accessor = t >= 0 ? primitive.targets?.[t]?.POSITION : undefined;
          const d = accessor === undefined ? undefined : readAccessor(gltf, bin, accessor).values;
          for (let i = 0; i < count; i++) {
            if (d) {
              v.set(d[i * 3]!, d[i * 3 + 1]!, d[i * 3 + 2]!).applyMatrix3(normalMatrix);
              deltas[k]!.push(v.x, v.y, v.z);
            } else deltas[k]!.push(0, 0, 0);
          }
        });
      }
    }
    for (const child of node.children ?? []) visit(child, matrix);
  };
  for (const root of gltf.scenes[gltf.scene ?? 0]!.nodes) visit(root, new THREE.Matrix4());

  const n = positions.length / 3;
  // Each Gaussian as wide as the mean edge at its vertex.
  const edgeSum = new Float64Array(n);
  const edgeCount = new Uint32Array(n);
  for (let t = 0; t < indices.length; t += 3) {
    for (const [a, b] of [
      [indices[t]!, indices[t + 1]!],
      [indices[t + 1]!, indices[t + 2]!],
      [indices[t + 2]!, indices[t]!],
    ] as const) {
      const length = Math.hypot(
        positions[a * 3]! - positions[b * 3]!,
        positions[a * 3 + 1]! - positions[b * 3 + 1]!,
        positions[a * 3 + 2]! - positions[b * 3 + 2]!,
      );
      edgeSum[a]! += length;
      edgeSum[b]! += length;
      edgeCount[a]!++;
      edgeCount[b]!++;
    }
  }
  const cloud: SplatCloud = {
    count: n,
    positions: new Float32Array(n * 3),
    colors: Float32Array.from(colors),
    opacities: new Float32Array(n).fill(opacity),
    scales: new Float32Array(n * 3),
    rotations: new Float32Array(n * 4),
  };
  for (let i = 0; i < n; i++) {
    const s = Math.max(0.0005, (edgeCount[i]! ? edgeSum[i]! / edgeCount[i]! : 0.004) * radius);
    cloud.scales.set([s, s, s], i * 3);
    cloud.rotations[i * 4 + 3] = 1;
  }

  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  geometry.setIndex(indices);
  geometry.morphAttributes.position = deltas.map((d) => new THREE.Float32BufferAttribute(d, 3));
  geometry.morphTargetsRelative = true;
  const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0xcccccc }));
  mesh.name = 'head';
  mesh.morphTargetDictionary = Object.fromEntries(names.map((name, k) => [name, k]));
  mesh.morphTargetInfluences = names.map(() => 0);
  const scene = new THREE.Scene();
  scene.add(mesh);
  const skin = await exportGlb(scene);
  const encoder = new TextEncoder();
  return writeZip([
    { name: 'arkitWithBSData/skin.glb', data: skin },
    { name: 'arkitWithBSData/offset.ply', data: encodeSplatPly(cloud, 'rgb') },
    {
      name: 'arkitWithBSData/vertex_order.json',
      data: encoder.encode(JSON.stringify(Array.from({ length: n }, (_, i) => i))),
    },
    { name: 'arkitWithBSData/animation.glb', data: skin },
    { name: 'arkitWithBSData/bsData.json', data: encoder.encode(JSON.stringify({ names })) },
  ]);
}
