/**
 * Turns an avatar style into a three.js scene: parts become indexed geometry with smooth normals;
 * every deforming part carries all 52 ARKit morph targets (relative positions and normals) named
 * through morphTargetDictionary, so GLTFExporter writes extras.targetNames.
 */
import { ARKIT_BLENDSHAPES, type ArkitBlendshape } from '@avatar-drive/core';
import * as THREE from 'three';
import { buildCollar, buildNeck, buildTorso } from './body.js';
import { buildCornea, buildEye, buildLashes, buildLids } from './eyes.js';
import { buildBrows, buildEars, buildTeeth, buildTongue } from './features.js';
import { buildHair } from './hair/build.js';
import { paintStrands, STRAND_TEXTURE } from './hair/strands.js';
import { buildHead } from './head.js';
import { createLayout } from './layout.js';
import { createFaceMaterial, createMaterials } from './materials.js';
import type { V3 } from './math.js';
import { type Part, splitTextureSeam } from './part.js';
import { encodePng } from './png.js';
import { createHeadWarp, type HeadWarp } from './proportions.js';
import { bakeSkinMaps } from './skin/bake.js';
import { attachTextures, encodeSkinMaps } from './skin/textures.js';
import type { AvatarStyle } from './style.js';

/** World height of the head centre (metres): a standing adult. */
export const HEAD_CENTRE_Y = 1.6;
/** The head turns about the top of the neck, this far below and behind the head centre. */
const NECK_PIVOT: V3 = [0, -0.075, -0.012];
/** World height of the body group's origin (the neck and shoulders are modelled from it). */
const BODY_Y = HEAD_CENTRE_Y + 0.014;
/** Side of the baked face textures (texels): about 0.3 mm per texel across the face. */
const SKIN_TEXTURE_SIZE = 1024;

export interface BuildOptions {
  /**
   * Bake the face's texture set (base colour, normal, roughness/occlusion) into the model: true
   * for the built-ins; the format samples keep plain vertex colours and stay small.
   */
  skinTextures?: boolean;
  /**
   * Give each eye its clear cornea shell (a transmissive PBR material): true for the built-ins;
   * the toon (MToon) samples leave it out, since an opaque toon shell would hide the iris.
   */
  corneas?: boolean;
  /**
   * A short cut's locks as alpha-textured hair cards (a PNG strand texture): default as
   * `skinTextures`; the samples keep solid locks (their toon materials drop vertex colours).
   */
  hairCards?: boolean;
}

/** Position deltas below this (metres) and normal deltas below this are stored as exact zeros. */
const POSITION_EPSILON = 1.5e-4;
const NORMAL_EPSILON = 0.04;

/** One morph target to write: its name and the mix of ARKit fields it is made of. */
export interface MorphShape {
  name: string;
  mix: Readonly<Partial<Record<ArkitBlendshape, number>>>;
}

/** The built-ins' morph set: the 52 ARKit blendshapes, each its own field, in rig order. */
export const ARKIT_SHAPES: readonly MorphShape[] = ARKIT_BLENDSHAPES.map((name) => ({
  name,
  mix: { [name]: 1 },
}));

/**
 * Builds the avatar's scene. `shapes` chooses the morph targets every deforming part carries
 * (default: the 52 ARKit blendshapes; the VRM generator passes a smaller set).
 */
export function buildAvatarScene(
  style: AvatarStyle,
  shapes: readonly MorphShape[] = ARKIT_SHAPES,
  options: BuildOptions = {},
): THREE.Scene {
  const layout = createLayout(style);
  const materials = createMaterials(style);
  const warp = createHeadWarp(style.lowerFace, style.cranium, style.chin);
  const skinTextures = options.skinTextures ?? true;
  let faceMaterial: THREE.Material | null = null;
  let bodySkinMaterial: THREE.Material | null = null;
  if (skinTextures) {
    faceMaterial = createFaceMaterial(style);
    const maps = encodeSkinMaps(bakeSkinMaps(layout, warp, SKIN_TEXTURE_SIZE));
    attachTextures(faceMaterial, maps);
    // Ears and neck wear the same images (so they match the face) without the normal map.
    bodySkinMaterial = createFaceMaterial(style, 'BodySkin');
    attachTextures(bodySkinMaterial, { baseColor: maps.baseColor, orm: maps.orm });
  }
  /** The material and mesh of a part that may wear the skin textures. */
  const skinMesh = (part: Part, warpIt: boolean): THREE.Mesh => {
    const shaped = warpIt ? warped(part, warp) : part;
    if (!faceMaterial || !bodySkinMaterial || !part.texture)
      return toMesh(shaped, materials[part.material], shapes);
    const relief = part.texture.relief ?? true;
    return toMesh(splitTextureSeam(shaped), relief ? faceMaterial : bodySkinMaterial, shapes, true, relief);
  };
  const hairCards = options.hairCards ?? skinTextures;
  if (hairCards) {
    const { width, height } = STRAND_TEXTURE;
    attachTextures(materials.hairCards, {
      baseColor: encodePng(width, height, paintStrands()),
      mimeType: 'image/png',
    });
  }
  const scene = new THREE.Scene();
  scene.name = style.name;
  const root = new THREE.Group();
  root.name = 'Avatar';
  scene.add(root);

  const head = new THREE.Group();
  head.name = 'Head';
  head.position.set(NECK_PIVOT[0], HEAD_CENTRE_Y + NECK_PIVOT[1], NECK_PIVOT[2]);
  root.add(head);
  const headOffset = new THREE.Vector3(-NECK_PIVOT[0], -NECK_PIVOT[1], -NECK_PIVOT[2]);

  const headParts: Part[] = [
    buildHead(layout),
    buildLids(layout, 0),
    buildLids(layout, 1),
    buildLashes(layout),
    buildBrows(layout),
    buildTeeth(layout, 'upper'),
    buildTeeth(layout, 'lower'),
    buildTongue(layout),
    buildEars(layout),
    ...buildHair(layout, hairCards),
  ];
  for (const part of headParts) {
    const mesh = skinMesh(part, true);
    mesh.position.copy(headOffset);
    head.add(mesh);
  }
  for (const side of [0, 1] as const) {
    const eye = toMesh(buildEye(layout, side), materials.eye, shapes);
    const [x, y, z] = warp(layout.eyes[side]);
    eye.position.set(x, y, z).add(headOffset);
    head.add(eye);
    if (options.corneas ?? true) {
      const cornea = toMesh(buildCornea(layout, side), materials.cornea, shapes);
      cornea.position.copy(eye.position);
      head.add(cornea);
    }
  }

  const body = new THREE.Group();
  body.name = 'Body';
  // An adult neck: the shoulders sit well below the chin.
  body.position.set(0, BODY_Y, 0);
  root.add(body);
  for (const part of [buildNeck(layout, BODY_Y - HEAD_CENTRE_Y), buildTorso(layout), buildCollar(layout)]) {
    body.add(skinMesh(part, false));
  }
  return scene;
}

/** The part in adult proportions (see proportions.ts), its morph targets warped with it. */
function warped(part: Part, warp: HeadWarp): Part {
  const { targets } = part;
  return {
    ...part,
    positions: part.positions.map((p) => warp(p)),
    ...(targets
      ? {
          targets: (name) => {
            const deltas = targets(name);
            return deltas ? deltas.map((d, i) => warp.delta(part.positions[i]!, d)) : null;
          },
        }
      : {}),
  };
}

/** One part as a three.js mesh: smooth normals, tangents for a relief texture, its morph targets. */
export function toMesh(
  part: Part,
  material: THREE.Material,
  shapes: readonly MorphShape[],
  textured = false,
  relief = true,
): THREE.Mesh {
  const geometry = new THREE.BufferGeometry();
  const count = part.positions.length;
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(part.positions.flat(), 3));
  const colors = textured && part.texture ? part.texture.colors : part.colors;
  geometry.setAttribute('color', new THREE.Float32BufferAttribute(colors.flat(), 3));
  if (textured && part.texture)
    geometry.setAttribute('uv', new THREE.Float32BufferAttribute(part.texture.uvs.flat(), 2));
  else if (part.uvs) geometry.setAttribute('uv', new THREE.Float32BufferAttribute(part.uvs.flat(), 2));
  geometry.setIndex(
    count < 65536
      ? new THREE.Uint16BufferAttribute(part.indices, 1)
      : new THREE.Uint32BufferAttribute(part.indices, 1),
  );
  geometry.computeVertexNormals();
  if (part.weld) weldNormals(geometry.getAttribute('normal') as THREE.BufferAttribute, part.weld);
  if (textured && part.texture && relief) addTangents(geometry);
  if (part.targets) addMorphTargets(geometry, part, shapes);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.name = part.name;
  if (part.targets) mesh.updateMorphTargets();
  return mesh;
}

/**
 * Per-vertex tangents for the normal map, stored so no viewer has to guess them (the validator
 * warns otherwise): x along +u; w chosen so that cross(normal, tangent) · w points up the image
 * (towards smaller v), the normal map's +y in glTF. three's computeTangents makes the bitangent
 * follow +v instead, so its handedness is flipped.
 */
function addTangents(geometry: THREE.BufferGeometry): void {
  geometry.computeTangents();
  const tangent = geometry.getAttribute('tangent') as THREE.BufferAttribute;
  for (let i = 0; i < tangent.count; i++) {
    const x = tangent.getX(i);
    const y = tangent.getY(i);
    const z = tangent.getZ(i);
    if (Number.isFinite(x + y + z) && Math.hypot(x, y, z) > 0.5) tangent.setW(i, -tangent.getW(i));
    else throw new Error(`${geometry.name || 'mesh'}: no tangent at vertex ${i} (degenerate UVs)`);
  }
}

function addMorphTargets(geometry: THREE.BufferGeometry, part: Part, shapes: readonly MorphShape[]): void {
  const base = geometry.getAttribute('position') as THREE.BufferAttribute;
  const baseNormal = geometry.getAttribute('normal') as THREE.BufferAttribute;
  const scratch = new THREE.BufferGeometry();
  scratch.setIndex(geometry.getIndex());
  const positions: THREE.BufferAttribute[] = [];
  const normals: THREE.BufferAttribute[] = [];
  for (const { name, mix } of shapes) {
    const deltas = mixDeltas(part, mix, base.count);
    const dp = new Float32Array(base.count * 3);
    const dn = new Float32Array(base.count * 3);
    if (deltas) {
      for (let i = 0; i < base.count; i++) {
        const d = deltas[i]!;
        if (Math.hypot(d[0], d[1], d[2]) < POSITION_EPSILON) continue;
        dp[i * 3] = d[0];
        dp[i * 3 + 1] = d[1];
        dp[i * 3 + 2] = d[2];
      }
      const moved = new Float32Array(base.array as Float32Array);
      for (let i = 0; i < moved.length; i++) moved[i]! += dp[i]!;
      scratch.setAttribute('position', new THREE.BufferAttribute(moved, 3));
      scratch.computeVertexNormals();
      const n = scratch.getAttribute('normal') as THREE.BufferAttribute;
      if (part.weld) weldNormals(n, part.weld);
      for (let i = 0; i < base.count; i++) {
        const x = n.getX(i) - baseNormal.getX(i);
        const y = n.getY(i) - baseNormal.getY(i);
        const z = n.getZ(i) - baseNormal.getZ(i);
        if (Math.hypot(x, y, z) < NORMAL_EPSILON) continue;
        dn[i * 3] = x;
        dn[i * 3 + 1] = y;
        dn[i * 3 + 2] = z;
      }
    }
    const p = new THREE.BufferAttribute(dp, 3);
    p.name = name;
    positions.push(p);
    const n = new THREE.BufferAttribute(dn, 3);
    n.name = name;
    normals.push(n);
  }
  geometry.morphAttributes.position = positions;
  geometry.morphAttributes.normal = normals;
  geometry.morphTargetsRelative = true;
}

/** Gives the vertices of one source vertex (`weld`) their summed, normalised normal. */
function weldNormals(normals: THREE.BufferAttribute, weld: readonly number[]): void {
  const sum = new Map<number, [number, number, number]>();
  for (let i = 0; i < normals.count; i++) {
    const s = sum.get(weld[i]!) ?? [0, 0, 0];
    s[0] += normals.getX(i);
    s[1] += normals.getY(i);
    s[2] += normals.getZ(i);
    sum.set(weld[i]!, s);
  }
  for (let i = 0; i < normals.count; i++) {
    const [x, y, z] = sum.get(weld[i]!)!;
    const l = Math.hypot(x, y, z) || 1;
    normals.setXYZ(i, x / l, y / l, z / l);
  }
}

/** The displacement of a mix of ARKit fields (null when none of them moves the part). */
function mixDeltas(part: Part, mix: MorphShape['mix'], count: number): V3[] | null {
  const entries = Object.entries(mix) as [ArkitBlendshape, number][];
  if (entries.length === 1 && entries[0]![1] === 1) return part.targets?.(entries[0]![0]) ?? null;
  let out: V3[] | null = null;
  for (const [name, weight] of entries) {
    const deltas = part.targets?.(name);
    if (!deltas) continue;
    out ??= Array.from({ length: count }, (): V3 => [0, 0, 0]);
    for (let i = 0; i < count; i++) {
      const d = deltas[i]!;
      const o = out[i]!;
      o[0] += d[0] * weight;
      o[1] += d[1] * weight;
      o[2] += d[2] * weight;
    }
  }
  return out;
}
