/**
 * The sample avatars in other tools' formats, made from the built-ins' geometry: a VRM 1.0 and a
 * VRM 0.x (`mika-vrm1.vrm`, `mika-vrm0.vrm`), and a Ready Player Me–style GLB with Oculus
 * visemes and ARKit morph targets (`juno-rpm.glb`). Deterministic: the same code gives the same
 * bytes.
 */
import type * as THREE from 'three';
import { buildAvatarScene } from '../assemble.js';
import { exportGlb } from '../export-glb.js';
import { AVATAR_STYLES, type AvatarStyle } from '../style.js';
import { addPonytail } from './ponytail.js';
import { RPM_SHAPES, VRM_EXPRESSIONS, VRM_SHAPES } from './shapes.js';
import { addHumanoidSkeleton } from './skeleton.js';
import { type VrmDescription, withVrm0, withVrm1 } from './vrm-extensions.js';

/** Licence of the samples (the package's own). */
export const SAMPLE_LICENSE_URL = 'https://www.apache.org/licenses/LICENSE-2.0';

/** The sample files and how to make each. */
export const SAMPLES = {
  'mika-vrm1.vrm': () => buildVrm('mika', 1),
  'mika-vrm0.vrm': () => buildVrm('mika', 0),
  'juno-rpm.glb': () => buildRpmStyle('juno'),
} as const satisfies Record<string, () => Promise<Uint8Array>>;

function style(id: string): AvatarStyle {
  const found = AVATAR_STYLES.find((s) => s.id === id);
  if (!found) throw new Error(`no built-in style ${id}`);
  return found;
}

/** Toon shade colours (multiplied by the vertex colours) of the built-ins' materials. */
const SHADE: VrmDescription['shade'] = {
  Skin: [0.78, 0.62, 0.62],
  Mouth: [0.7, 0.6, 0.6],
  Eye: [0.8, 0.8, 0.85],
  Teeth: [0.82, 0.82, 0.86],
  Tongue: [0.75, 0.6, 0.6],
  Hair: [0.6, 0.55, 0.6],
  Brows: [0.7, 0.65, 0.65],
  Lashes: [0.7, 0.65, 0.65],
  Cloth: [0.62, 0.62, 0.72],
  Collar: [0.78, 0.78, 0.84],
};

/** A VRM of a built-in style: its bust on a humanoid skeleton, a spring ponytail, MToon, expressions. */
export async function buildVrm(id: string, major: 0 | 1): Promise<Uint8Array> {
  const s = style(id);
  const scene = buildAvatarScene(s, VRM_SHAPES, { skinTextures: false, corneas: false });
  const bones = addHumanoidSkeleton(scene);
  const spring = addPonytail(scene, s);
  flattenVertexColors(scene);
  if (major === 0) turnToFaceMinusZ(scene);
  const glb = await exportGlb(scene);
  const description: VrmDescription = {
    name: `${s.name} (VRM ${major === 1 ? '1.0' : '0.x'})`,
    version: '1',
    authors: ['Avatar Drive'],
    otherLicenseUrl: SAMPLE_LICENSE_URL,
    bones,
    expressions: VRM_EXPRESSIONS,
    spring,
    shade: SHADE,
  };
  return major === 1 ? withVrm1(glb, description) : withVrm0(glb, description);
}

/**
 * A Ready Player Me / Avaturn–style GLB of a built-in style: Oculus visemes + ARKit-52 +
 * `mouthOpen`/`mouthSmile` on meshes named as RPM names them.
 */
export async function buildRpmStyle(id: string): Promise<Uint8Array> {
  const scene = buildAvatarScene(style(id), RPM_SHAPES, { skinTextures: false, corneas: false });
  const rename: Record<string, string> = {
    Face: 'Wolf3D_Head',
    TeethLower: 'Wolf3D_Teeth',
    TeethUpper: 'Wolf3D_TeethUpper',
    Hair: 'Wolf3D_Hair',
    Torso: 'Wolf3D_Outfit_Top',
    Neck: 'Wolf3D_Body',
  };
  scene.traverse((object) => {
    const name = rename[object.name];
    if (name) object.name = name;
  });
  return exportGlb(scene);
}

/**
 * Turns a scene half a turn about Y by moving every node and vertex (no node rotation): VRM 0.x
 * models face −Z with identity rotations.
 */
function turnToFaceMinusZ(scene: THREE.Object3D): void {
  const flip = (attribute: THREE.BufferAttribute | THREE.InterleavedBufferAttribute): void => {
    for (let i = 0; i < attribute.count; i++) {
      attribute.setX(i, -attribute.getX(i));
      attribute.setZ(i, -attribute.getZ(i));
    }
  };
  scene.traverse((object) => {
    object.position.set(-object.position.x, object.position.y, -object.position.z);
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh) return;
    const geometry = mesh.geometry;
    flip(geometry.getAttribute('position'));
    if (geometry.getAttribute('normal')) flip(geometry.getAttribute('normal'));
    for (const list of Object.values(geometry.morphAttributes)) for (const a of list) flip(a);
  });
}

/**
 * Replaces each mesh's vertex colours with their mean as the material's base colour. VRM players
 * ignore vertex colours (MToon does by specification), so the samples are flat-coloured per part.
 */
function flattenVertexColors(scene: THREE.Object3D): void {
  scene.traverse((object) => {
    const mesh = object as THREE.Mesh;
    const colors = mesh.isMesh ? mesh.geometry.getAttribute('color') : undefined;
    if (!colors) return;
    const mean = [0, 0, 0];
    for (let i = 0; i < colors.count; i++) {
      mean[0]! += colors.getX(i);
      mean[1]! += colors.getY(i);
      mean[2]! += colors.getZ(i);
    }
    const material = (mesh.material as THREE.MeshStandardMaterial).clone();
    material.vertexColors = false;
    material.color.setRGB(mean[0]! / colors.count, mean[1]! / colors.count, mean[2]! / colors.count);
    mesh.material = material;
    mesh.geometry.deleteAttribute('color');
  });
}
