/**
 * A short ponytail of rigid segments hanging from the back of the head: a chain of joint nodes
 * for VRM spring bones (the segments follow their joints, so it sways when the head moves).
 */
import * as THREE from 'three';
import { linearRgb } from '../math.js';
import type { AvatarStyle } from '../style.js';

/** Joint positions relative to the previous joint (the first relative to the head pivot). */
const JOINTS: readonly [number, number, number][] = [
  [0, 0.1, -0.088],
  [0, -0.045, -0.022],
  [0, -0.045, -0.01],
  [0, -0.04, 0.004],
];
const RADII = [0.017, 0.014, 0.01, 0.005];

/** Adds the ponytail under `Head`; returns its joint node names, root first (the last is the tip). */
export function addPonytail(scene: THREE.Object3D, style: AvatarStyle): string[] {
  const head = scene.getObjectByName('Head');
  const hair = scene.getObjectByName('Hair') as THREE.Mesh | undefined;
  if (!head || !hair) throw new Error('the built-in scene lacks Head or Hair');
  const [r, g, b] = linearRgb(style.colors.hair);
  const names: string[] = [];
  let parent: THREE.Object3D = head;
  JOINTS.forEach((offset, i) => {
    const joint = new THREE.Object3D();
    joint.name = `J_Ponytail_${i + 1}`;
    joint.position.set(...offset);
    parent.add(joint);
    names.push(joint.name);
    const next = JOINTS[i + 1];
    if (next) {
      // A tapered segment from this joint to the next.
      const length = Math.hypot(...next);
      const geometry = new THREE.CylinderGeometry(RADII[i]!, RADII[i + 1]!, length, 14, 1);
      geometry.deleteAttribute('uv'); // untextured: no coordinates to carry
      geometry.translate(0, -length / 2, 0);
      geometry.applyQuaternion(
        new THREE.Quaternion().setFromUnitVectors(
          new THREE.Vector3(0, -1, 0),
          new THREE.Vector3(...next).normalize(),
        ),
      );
      const count = geometry.getAttribute('position').count;
      geometry.setAttribute(
        'color',
        new THREE.Float32BufferAttribute(Array.from({ length: count }, () => [r, g, b]).flat(), 3),
      );
      const segment = new THREE.Mesh(geometry, hair.material);
      segment.name = `Ponytail_${i + 1}`;
      joint.add(segment);
    }
    parent = joint;
  });
  return names;
}
