/**
 * Plain glTF avatars (ARKit glTF, Ready Player Me / Avaturn GLBs, the built-ins): morph targets
 * bound by name, bones found by name or named by the manifest.
 */
import { type AvatarRigSources, boneOfName, type MeshSource, type PoseBoneName } from '@avatar-drive/core';
import type * as THREE from 'three';
import type { GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { collectMorphMeshes, type LoadedRig, morphTargetNames, type PoseBone } from './loaded-rig.js';

/** What the manifest may say about a plain glTF's nodes. */
export interface NodeHints {
  /** Node turned with the frame's head rotation. */
  headNode?: unknown;
  /** Nodes turned with the frame's eye pose: left, right. */
  eyeNodes?: unknown;
}

/** Builds the {@link LoadedRig} of a glTF three's `GLTFLoader` parsed. */
export function gltfRig(gltf: GLTF, hints: NodeHints): LoadedRig {
  const scene = gltf.scene;
  const meshes = collectMorphMeshes(scene);
  const bones: Partial<Record<PoseBoneName, PoseBone>> = {};
  const pose = (object: THREE.Object3D): PoseBone => ({ bone: object, rest: object.quaternion.clone() });
  scene.traverse((object) => {
    const isBone = (object as THREE.Bone).isBone === true;
    if (!isBone && object.type !== 'Object3D') return;
    const bone = boneOfName(object.name);
    // Jaw and eyes must be skeleton bones: a plain node named "jaw" is usually a mesh group.
    if (!bone || bones[bone] || ((bone === 'jaw' || bone.endsWith('Eye')) && !isBone)) return;
    bones[bone] = pose(object);
  });
  const named = (name: unknown): PoseBone | undefined => {
    const node = typeof name === 'string' ? scene.getObjectByName(name) : undefined;
    return node ? pose(node) : undefined;
  };
  const head = named(hints.headNode);
  if (head) bones.head = head;
  if (Array.isArray(hints.eyeNodes)) {
    const [left, right] = [named(hints.eyeNodes[0]), named(hints.eyeNodes[1])];
    if (left) bones.leftEye = left;
    if (right) bones.rightEye = right;
  }
  const sources: AvatarRigSources = {
    kind: 'gltf',
    meshes: [...meshes].map(([name, mesh]): MeshSource => ({ name, targets: morphTargetNames(mesh) })),
    expressions: [],
    bones: Object.fromEntries(Object.entries(bones).map(([k, v]) => [k, v.bone.name || k])),
    warnings: [],
  };
  return { scene, sources, meshes, bones, mirrorXZ: false, update: () => undefined };
}
