/**
 * A loaded avatar as the drive sees it: the scene to show, what it offers to bind (in core's
 * platform-neutral {@link AvatarRigSources} form) and the three.js handles behind those names.
 * One module per format builds it (glTF in gltf-rig.ts, VRM in vrm-rig.ts).
 */
import type { AvatarRigSources, PoseBoneName } from '@avatar-drive/core';
import type * as THREE from 'three';

/** A bone with the rotation it rests at. */
export interface PoseBone {
  bone: THREE.Object3D;
  rest: THREE.Quaternion;
}

/** The three.js side of an avatar ready to be driven. */
export interface LoadedRig {
  /** The model's root, added under the view's pivot. */
  scene: THREE.Object3D;
  sources: AvatarRigSources;
  /** Meshes by their name in `sources.meshes`. */
  meshes: ReadonlyMap<string, THREE.Mesh>;
  /** Bones by pose bone name (VRM: the normalized humanoid bones). */
  bones: Partial<Record<PoseBoneName, PoseBone>>;
  /**
   * Whether the bones' frame faces −Z (VRM 0.x normalized bones): the view mirrors x and z of
   * axis-angle rotations so the drive's +Z-facing convention holds.
   */
  mirrorXZ: boolean;
  /** Sets a VRM expression's weight (0..1); absent for plain glTF. */
  setExpression?(name: string, weight: number): void;
  /** A VRM expression's current weight; absent for plain glTF. */
  getExpression?(name: string): number | undefined;
  /** Turns the eyes through the VRM lookAt (degrees: yaw +left of the avatar, pitch +down). */
  setLookAt?(yaw: number, pitch: number): void;
  /** Advances what the format animates itself (VRM expressions, lookAt, spring bones). */
  update(deltaSeconds: number): void;
}

/**
 * Names three.js meshes uniquely (glTF meshes split into one three.js mesh per primitive, and
 * names may repeat), in traversal order.
 */
export function collectMorphMeshes(root: THREE.Object3D): Map<string, THREE.Mesh> {
  const meshes = new Map<string, THREE.Mesh>();
  root.traverse((object) => {
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh || !mesh.morphTargetDictionary || !mesh.morphTargetInfluences) return;
    const base = mesh.name || 'mesh';
    let name = base;
    for (let n = 2; meshes.has(name); n++) name = `${base}#${n}`;
    meshes.set(name, mesh);
  });
  return meshes;
}

/** A mesh's morph target names in target order (from three's `morphTargetDictionary`). */
export function morphTargetNames(mesh: THREE.Mesh): string[] {
  const names: string[] = new Array(mesh.morphTargetInfluences?.length ?? 0).fill('');
  for (const [name, index] of Object.entries(mesh.morphTargetDictionary ?? {})) {
    if (index >= 0 && index < names.length) names[index] = name;
  }
  return names;
}
