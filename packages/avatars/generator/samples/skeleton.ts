/**
 * A humanoid skeleton for the bust: VRM needs the full set of required humanoid bones (hips,
 * spine, legs, arms, head), so the built-in head-and-shoulders model gets invisible bone nodes in
 * a T-pose around it. The head and body groups hang from the neck and chest, rigidly.
 */
import * as THREE from 'three';
import type { V3 } from '../math.js';

/** VRM humanoid bone → node name, for the bones this skeleton has. */
export type HumanBones = Record<string, string>;

interface BoneSpec {
  bone: string;
  node: string;
  parent?: string;
  /** World position (metres; the model faces +z, its left is +x). */
  at: V3;
}

const SPECS: readonly BoneSpec[] = [
  { bone: 'hips', node: 'J_Hips', at: [0, 0.98, 0] },
  { bone: 'spine', node: 'J_Spine', parent: 'J_Hips', at: [0, 1.1, 0] },
  { bone: 'chest', node: 'J_Chest', parent: 'J_Spine', at: [0, 1.26, 0] },
  { bone: 'neck', node: 'J_Neck', parent: 'J_Chest', at: [0, 1.46, -0.01] },
  { bone: 'leftUpperLeg', node: 'J_UpperLeg_L', parent: 'J_Hips', at: [0.09, 0.92, 0] },
  { bone: 'leftLowerLeg', node: 'J_LowerLeg_L', parent: 'J_UpperLeg_L', at: [0.09, 0.5, 0] },
  { bone: 'leftFoot', node: 'J_Foot_L', parent: 'J_LowerLeg_L', at: [0.09, 0.08, 0] },
  { bone: 'rightUpperLeg', node: 'J_UpperLeg_R', parent: 'J_Hips', at: [-0.09, 0.92, 0] },
  { bone: 'rightLowerLeg', node: 'J_LowerLeg_R', parent: 'J_UpperLeg_R', at: [-0.09, 0.5, 0] },
  { bone: 'rightFoot', node: 'J_Foot_R', parent: 'J_LowerLeg_R', at: [-0.09, 0.08, 0] },
  { bone: 'leftUpperArm', node: 'J_UpperArm_L', parent: 'J_Chest', at: [0.17, 1.42, -0.02] },
  { bone: 'leftLowerArm', node: 'J_LowerArm_L', parent: 'J_UpperArm_L', at: [0.44, 1.42, -0.02] },
  { bone: 'leftHand', node: 'J_Hand_L', parent: 'J_LowerArm_L', at: [0.69, 1.42, -0.02] },
  { bone: 'rightUpperArm', node: 'J_UpperArm_R', parent: 'J_Chest', at: [-0.17, 1.42, -0.02] },
  { bone: 'rightLowerArm', node: 'J_LowerArm_R', parent: 'J_UpperArm_R', at: [-0.44, 1.42, -0.02] },
  { bone: 'rightHand', node: 'J_Hand_R', parent: 'J_LowerArm_R', at: [-0.69, 1.42, -0.02] },
];

/**
 * Re-hangs a built-in scene (`Avatar` → `Head`, `Body`) on a humanoid skeleton: `Head` under the
 * neck, `Body` under the chest, the eyes as the eye bones. Returns bone → node names.
 */
export function addHumanoidSkeleton(scene: THREE.Object3D): HumanBones {
  const avatar = scene.getObjectByName('Avatar');
  const head = scene.getObjectByName('Head');
  const body = scene.getObjectByName('Body');
  if (!avatar || !head || !body) throw new Error('the built-in scene lacks Avatar, Head or Body');
  scene.updateMatrixWorld(true);
  const nodes = new Map<string, THREE.Object3D>();
  const bones: HumanBones = {};
  for (const spec of SPECS) {
    const node = new THREE.Object3D();
    node.name = spec.node;
    const parent = spec.parent ? nodes.get(spec.parent)! : avatar;
    const parentAt = spec.parent ? SPECS.find((s) => s.node === spec.parent)!.at : ([0, 0, 0] as V3);
    node.position.set(spec.at[0] - parentAt[0], spec.at[1] - parentAt[1], spec.at[2] - parentAt[2]);
    parent.add(node);
    node.updateMatrixWorld(true);
    nodes.set(spec.node, node);
    bones[spec.bone] = spec.node;
  }
  nodes.get('J_Neck')!.attach(head);
  nodes.get('J_Chest')!.attach(body);
  bones.head = 'Head';
  bones.leftEye = 'EyeLeft';
  bones.rightEye = 'EyeRight';
  return bones;
}
