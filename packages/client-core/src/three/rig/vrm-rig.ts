/**
 * VRM 0.x and 1.0 avatars through @pixiv/three-vrm: MToon materials, expressions, lookAt and
 * spring bones. Loaded on demand, so pages that never show a VRM do not download three-vrm.
 */
import type { AvatarRigSources, ExpressionSource, MeshSource, PoseBoneName } from '@avatar-drive/core';
import type * as THREE from 'three';
import type { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { collectMorphMeshes, type LoadedRig, morphTargetNames, type PoseBone } from './loaded-rig.js';

const POSE_BONES: readonly PoseBoneName[] = ['head', 'neck', 'jaw', 'leftEye', 'rightEye'];

/**
 * Parses a VRM (`bytes`) with `loader` and builds its {@link LoadedRig}. The drive poses the
 * normalized humanoid bones (rest = identity), which three-vrm copies onto the raw skeleton in
 * `update`.
 */
export async function loadVrmRig(loader: GLTFLoader, bytes: ArrayBuffer): Promise<LoadedRig> {
  const { VRMLoaderPlugin, VRMLookAtBoneApplier, VRMLookAtExpressionApplier, VRMUtils } = await import(
    '@pixiv/three-vrm'
  );
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes, '');
  const vrm = gltf.userData.vrm as import('@pixiv/three-vrm').VRM | undefined;
  if (!vrm) throw new Error('the file declares VRM but three-vrm found no VRM in it');
  const isVrm0 = vrm.meta?.metaVersion === '0';
  // VRM 0.x faces −Z; turn it to face the camera like every other avatar.
  if (isVrm0) VRMUtils.rotateVRM0(vrm);
  const scene = vrm.scene;
  const meshes = collectMorphMeshes(scene);
  const meshNames = new Map<THREE.Mesh, string>([...meshes].map(([name, mesh]) => [mesh, name]));
  const owned = new Map<string, Set<number>>();
  const expressions: ExpressionSource[] = [];
  const manager = vrm.expressionManager;
  for (const expression of manager?.expressions ?? []) {
    for (const bind of expression.binds) {
      const morph = bind as { primitives?: THREE.Mesh[]; index?: number };
      if (!Array.isArray(morph.primitives) || typeof morph.index !== 'number') continue;
      for (const mesh of morph.primitives) {
        const name = meshNames.get(mesh);
        if (!name) continue;
        const set = owned.get(name) ?? new Set<number>();
        set.add(morph.index);
        owned.set(name, set);
      }
    }
    expressions.push({
      name: expression.expressionName,
      preset: manager?.presetExpressionMap[expression.expressionName as 'aa'] === expression,
      bindsSomething: expression.binds.length > 0,
    });
  }
  const bones: Partial<Record<PoseBoneName, PoseBone>> = {};
  const boneNames: Partial<Record<PoseBoneName, string>> = {};
  for (const name of POSE_BONES) {
    const node = vrm.humanoid.getNormalizedBoneNode(name);
    if (!node) continue;
    bones[name] = { bone: node, rest: node.quaternion.clone() };
    boneNames[name] = vrm.humanoid.getRawBoneNode(name)?.name || name;
  }
  const applier = vrm.lookAt?.applier;
  const lookAt =
    applier instanceof VRMLookAtBoneApplier
      ? 'bone'
      : applier instanceof VRMLookAtExpressionApplier
        ? 'expression'
        : undefined;
  // The drive moves the eyes (eyePose); the lookAt must not chase a target on its own.
  if (vrm.lookAt) vrm.lookAt.autoUpdate = false;
  const sources: AvatarRigSources = {
    kind: isVrm0 ? 'vrm0' : 'vrm1',
    meshes: [...meshes].map(
      ([name, mesh]): MeshSource => ({
        name,
        targets: morphTargetNames(mesh),
        owned: [...(owned.get(name) ?? [])],
      }),
    ),
    expressions,
    bones: boneNames,
    lookAt,
    warnings: [],
  };
  // Eye bones are the lookAt's: the plan drives them through it, not directly.
  if (lookAt) {
    delete bones.leftEye;
    delete bones.rightEye;
  }
  return {
    scene,
    sources,
    meshes,
    bones,
    mirrorXZ: isVrm0,
    setExpression: (name, weight) => manager?.setValue(name, weight),
    getExpression: (name) => manager?.getValue(name) ?? undefined,
    setLookAt: (yaw, pitch) => {
      if (!vrm.lookAt) return;
      vrm.lookAt.yaw = yaw;
      vrm.lookAt.pitch = pitch;
    },
    update: (delta) => vrm.update(delta),
  };
}
