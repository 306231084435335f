/**
 * Page-side probes for the avatar-format tests: drive frames by channel name, read back what the
 * model shows (morph influences on its meshes, bone rotations) and what the canvas shows.
 */
import { ARKIT_INDEX, createDriveFrame, type DriveFrame, VISEME_INDEX } from '@avatar-drive/core';
import type * as THREE from 'three';
import { AvatarManager, AvatarView } from '../../src/index.js';

/** A frame with the named channels set: ARKit names, visemes as `viseme_aa`, poses by field. */
export function frameWith(values: Record<string, number | number[]>): DriveFrame {
  const frame = createDriveFrame();
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) (frame[name as 'rotation'] as Float32Array).set(value);
    else if (name.startsWith('viseme_')) frame.visemes[VISEME_INDEX[name.slice(7) as 'aa']] = value;
    else frame.expression[ARKIT_INDEX[name as 'jawOpen']] = value;
  }
  return frame;
}

/** The influence of morph target `target` on the first mesh named `mesh` under `root`. */
export function morphInfluence(
  root: THREE.Object3D | undefined,
  mesh: string,
  target: string,
): number | undefined {
  let found: number | undefined;
  root?.traverse((object) => {
    const m = object as THREE.Mesh;
    if (found !== undefined || object.name !== mesh || !m.morphTargetDictionary) return;
    const index = m.morphTargetDictionary[target];
    if (index !== undefined) found = m.morphTargetInfluences?.[index];
  });
  return found;
}

/** Angle (radians) between a node's current local rotation and `rest` (its quaternion array). */
export function turnedBy(root: THREE.Object3D | undefined, node: string, rest: number[]): number {
  const object = root?.getObjectByName(node);
  if (!object) return Number.NaN;
  const [x, y, z, w] = rest as [number, number, number, number];
  const q = object.quaternion;
  const dot = Math.min(1, Math.abs(q.x * x + q.y * y + q.z * z + q.w * w));
  return 2 * Math.acos(dot);
}

/** A node's local rotation as an array. */
export function rotationOf(root: THREE.Object3D | undefined, node: string): number[] {
  const object = root?.getObjectByName(node);
  return object ? object.quaternion.toArray() : [];
}

/** Resolves after `n` rendered frames. */
export function frames(n = 2): Promise<void> {
  return new Promise((resolve) => {
    const step = (left: number) => (left <= 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
    step(n);
  });
}

/** The canvas's pixels (needs `preserveDrawingBuffer: true`). */
export function canvasPixels(canvas: HTMLCanvasElement): Uint8Array {
  const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext;
  const out = new Uint8Array(canvas.width * canvas.height * 4);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}

/** Pixels whose RGB changed by more than `threshold` (of 255) on average between two captures. */
export function changedPixels(a: Uint8Array, b: Uint8Array, threshold = 40): number {
  let changed = 0;
  for (let i = 0; i < a.length; i += 4) {
    const d = Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!);
    if (d / 3 > threshold) changed++;
  }
  return changed;
}

/**
 * Loads avatar `id` from the service and shows it still (no idle motion, no transitions) in a
 * 240 px view in element `container`, without anti-aliasing and image lighting (slow in software
 * WebGL); resolves after `settle` rendered frames (spring bones settle under gravity).
 */
export async function openView(id: string, settle = 2, container = 'a'): Promise<AvatarView> {
  const element = document.getElementById(container)!;
  element.style.width = '240px';
  element.style.height = '240px';
  const view = new AvatarView(await AvatarManager.load(id), element, {
    background: '#e9edf2',
    idleMotion: false,
    preserveDrawingBuffer: true,
    antialias: false,
    environmentLighting: false,
    transitionInFrames: 0,
    transitionOutFrames: 0,
  });
  await view.ready;
  await frames(settle);
  return view;
}
