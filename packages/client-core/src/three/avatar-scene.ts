/**
 * The three.js half of an avatar view that every platform shares: the glTF model parsed from a
 * loaded Avatar, its morph targets and bones bound to the rig, the lights, the camera framing,
 * and one drive frame applied per render. No DOM and no WebGL context here: the platform owns the
 * renderer and its surface (a canvas on the web, an expo-gl GLView on React Native) and calls
 * {@link AvatarScene.apply} then `renderer.render(scene.scene, scene.camera)`.
 */

import { channelWeight, mapMorphTargets, type RigChannel, resolveMorphTarget } from '@avatar-drive/avatars';
import { ARKIT_INDEX, AvatarError, type DriveFrame } from '@avatar-drive/core';
import * as THREE from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { Avatar } from '../avatar-manager.js';
import { logger } from '../logger.js';

interface BoundTarget {
  mesh: THREE.Mesh;
  index: number;
  channel: RigChannel;
  name: string;
}

interface PoseBone {
  bone: THREE.Object3D;
  rest: THREE.Quaternion;
}

/** Options of {@link AvatarScene}. */
export interface AvatarSceneOptions {
  /**
   * Image-based lighting from a neutral room (softer shading); default true. Needs the renderer
   * (it is prefiltered on the GPU).
   */
  environmentLighting?: boolean;
}

const tmpAxis = new THREE.Vector3();

/** One avatar's scene, camera and rig binding. */
export class AvatarScene {
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(25, 1, 0.01, 100);
  readonly #avatar: Avatar;
  #pivot = new THREE.Group();
  #pivotRest = new THREE.Vector3();
  #targets: BoundTarget[] = [];
  #bones: { head?: PoseBone; neck?: PoseBone; jaw?: PoseBone; eyeL?: PoseBone; eyeR?: PoseBone } = {};
  #envTexture: THREE.Texture | undefined;
  #disposed = false;

  /** Adds the lights (and, with `renderer`, the room environment); the model comes with {@link load}. */
  constructor(avatar: Avatar, renderer: THREE.WebGLRenderer | undefined, options: AvatarSceneOptions = {}) {
    this.#avatar = avatar;
    this.#addLights(renderer, options.environmentLighting ?? true);
    this.scene.add(this.#pivot);
  }

  /**
   * Parses the avatar's glTF binary, binds its morph targets and bones, and frames the camera.
   * @throws AvatarError `assetDownloadFailed` when the model is not a valid glTF 2.0 binary.
   */
  async load(): Promise<void> {
    let gltf: Awaited<ReturnType<GLTFLoader['parseAsync']>>;
    try {
      gltf = await new GLTFLoader().parseAsync(this.#avatar.model, '');
    } catch (cause) {
      const error =
        cause instanceof AvatarError
          ? cause
          : new AvatarError(
              'assetDownloadFailed',
              `Avatar ${this.#avatar.id}'s model is not a valid glTF 2.0 binary.`,
              { cause, phase: 'load' },
            );
      logger.error(error.message);
      throw error;
    }
    if (this.#disposed) return;
    const model = gltf.scene;
    this.#bind(model);
    // Pivot near the neck so head motion without a head bone turns the bust naturally.
    const box = new THREE.Box3().setFromObject(model);
    const size = box.getSize(new THREE.Vector3());
    const headBone = this.#bones.head?.bone;
    const pivot = headBone
      ? new THREE.Vector3(0, 0, 0)
      : new THREE.Vector3(
          (box.min.x + box.max.x) / 2,
          box.min.y + size.y * 0.55,
          (box.min.z + box.max.z) / 2,
        );
    model.position.sub(pivot);
    this.#pivot.position.copy(pivot);
    this.#pivotRest.copy(pivot);
    this.#pivot.add(model);
    this.#frame(box, size);
  }

  /** Sets the camera's aspect ratio (width / height of the surface). */
  setAspect(aspect: number): void {
    this.camera.aspect = aspect;
    this.camera.updateProjectionMatrix();
  }

  /**
   * The influence currently applied to morph targets following rig channel `name` (an ARKit
   * name such as `jawOpen`, or a viseme such as `aa`); the largest over bound targets, or
   * `undefined` when no target follows it.
   */
  getMorphInfluence(name: string): number | undefined {
    const wanted = resolveMorphTarget(name) ?? resolveMorphTarget(`viseme_${name}`);
    if (!wanted) return undefined;
    let best: number | undefined;
    for (const t of this.#targets) {
      if (t.channel.kind !== wanted.kind || t.channel.indices.join() !== wanted.indices.join()) continue;
      const value = t.mesh.morphTargetInfluences?.[t.index] ?? 0;
      best = best === undefined ? value : Math.max(best, value);
    }
    return best;
  }

  /** Applies one drive frame (speech and idle mixed) to the morph targets, bones and pivot. */
  apply(frame: DriveFrame): void {
    for (const t of this.#targets) {
      t.mesh.morphTargetInfluences![t.index] = Math.min(1, Math.max(0, channelWeight(t.channel, frame)));
    }
    const { head, neck, jaw, eyeL, eyeR } = this.#bones;
    if (head) {
      setPose(head, frame.rotation, 0);
      if (neck) setPose(neck, frame.neckPose, 0);
    } else {
      // No skeleton: turn the whole bust (head and neck rotation combined).
      this.#pivot.quaternion.copy(axisAngle(frame.rotation, 0, 1));
      this.#pivot.quaternion.multiply(axisAngle(frame.neckPose, 0, 1));
    }
    this.#pivot.position.set(
      this.#pivotRest.x + frame.translation[0]!,
      this.#pivotRest.y + frame.translation[1]!,
      this.#pivotRest.z + frame.translation[2]!,
    );
    if (jaw) setPose(jaw, frame.jawPose, 0);
    if (eyeL) setPose(eyeL, frame.eyePose, 0);
    if (eyeR) setPose(eyeR, frame.eyePose, 3);
  }

  /** Frees geometries, materials, textures and the environment map. Safe to call twice. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.scene.traverse((object) => {
      const mesh = object as THREE.Mesh;
      mesh.geometry?.dispose();
      const materials = mesh.material ? (Array.isArray(mesh.material) ? mesh.material : [mesh.material]) : [];
      for (const material of materials) {
        for (const value of Object.values(material)) if (value instanceof THREE.Texture) value.dispose();
        material.dispose();
      }
    });
    this.#envTexture?.dispose();
    this.scene.clear();
    this.#targets = [];
  }

  #addLights(renderer: THREE.WebGLRenderer | undefined, environment: boolean): void {
    if (environment && renderer) {
      const pmrem = new THREE.PMREMGenerator(renderer);
      const room = new RoomEnvironment();
      this.#envTexture = pmrem.fromScene(room, 0.04).texture;
      this.scene.environment = this.#envTexture;
      this.scene.environmentIntensity = 0.55;
      room.dispose();
      pmrem.dispose();
    }
    this.scene.add(new THREE.HemisphereLight(0xfff4e8, 0x3a4250, 0.9));
    const key = new THREE.DirectionalLight(0xfff1e0, 1.9);
    key.position.set(-1.2, 1.6, 2.2);
    const fill = new THREE.DirectionalLight(0xdfe8ff, 0.7);
    fill.position.set(1.5, 0.4, 1.5);
    const rim = new THREE.DirectionalLight(0xffffff, 1.0);
    rim.position.set(0.3, 1.5, -2.5);
    this.scene.add(key, fill, rim);
  }

  #bind(model: THREE.Object3D): void {
    let hasArkitMouth = false;
    const all: BoundTarget[] = [];
    const missing = new Set<string>();
    let firstBound = true;
    let meshes = 0;
    model.traverse((object) => {
      const mesh = object as THREE.Mesh;
      if (mesh.isMesh && mesh.morphTargetDictionary && mesh.morphTargetInfluences) {
        meshes += 1;
        const mapping = mapMorphTargets(mesh.morphTargetDictionary);
        for (const b of mapping.bindings) {
          all.push({ mesh, index: b.targetIndex, channel: b.channel, name: b.target });
          if (b.channel.kind === 'arkit' && b.channel.indices.includes(ARKIT_INDEX.jawOpen))
            hasArkitMouth = true;
        }
        if (mapping.bindings.length > 0) {
          // Missing = covered by no mesh.
          if (firstBound) for (const m of mapping.missingArkit) missing.add(m);
          else
            for (const m of [...missing]) if (!mapping.missingArkit.includes(m as never)) missing.delete(m);
          firstBound = false;
        }
      }
      const name = object.name.toLowerCase();
      const pose = (): PoseBone => ({ bone: object, rest: object.quaternion.clone() });
      if ((object as THREE.Bone).isBone || object.type === 'Object3D') {
        if (!this.#bones.head && /(^|[^a-z])head$|^head/.test(name) && !/top|end/.test(name))
          this.#bones.head = pose();
        else if (!this.#bones.neck && /neck/.test(name)) this.#bones.neck = pose();
        else if (!this.#bones.jaw && /jaw/.test(name) && (object as THREE.Bone).isBone)
          this.#bones.jaw = pose();
        else if (
          !this.#bones.eyeL &&
          /(left.?eye|eye.?(l|left))$/.test(name) &&
          (object as THREE.Bone).isBone
        )
          this.#bones.eyeL = pose();
        else if (
          !this.#bones.eyeR &&
          /(right.?eye|eye.?(r|right))$/.test(name) &&
          (object as THREE.Bone).isBone
        )
          this.#bones.eyeR = pose();
      }
    });
    // The manifest may name the head and eye nodes (glTF nodes need not be bones).
    const named = (name: unknown): PoseBone | undefined => {
      const node = typeof name === 'string' ? model.getObjectByName(name) : undefined;
      return node ? { bone: node, rest: node.quaternion.clone() } : undefined;
    };
    const { headNode, eyeNodes } = this.#avatar.manifest as { headNode?: unknown; eyeNodes?: unknown };
    this.#bones.head = named(headNode) ?? this.#bones.head;
    if (Array.isArray(eyeNodes)) {
      this.#bones.eyeL = named(eyeNodes[0]) ?? this.#bones.eyeL;
      this.#bones.eyeR = named(eyeNodes[1]) ?? this.#bones.eyeR;
    }
    // Avatars with both ARKit and viseme targets (e.g. Ready Player Me) follow ARKit only, so the mouth is not driven twice.
    this.#targets = hasArkitMouth ? all.filter((t) => t.channel.kind === 'arkit') : all;
    const hasVisemes = this.#targets.some((t) => t.channel.kind === 'viseme');
    if (meshes === 0 || this.#targets.length === 0) {
      logger.warn(
        `Avatar ${this.#avatar.id} has no morph targets with ARKit or Oculus viseme names; it will not move its face.`,
      );
    } else if (missing.size > 0 && !hasVisemes) {
      logger.warn(
        `Avatar ${this.#avatar.id} lacks ${missing.size} of the 52 ARKit morph targets; those channels are skipped: ${[...missing].join(', ')}.`,
      );
    }
  }

  #frame(box: THREE.Box3, size: THREE.Vector3): void {
    const camera = this.camera;
    const framing = this.#avatar.manifest.camera;
    if (framing && isVec3(framing.position) && isVec3(framing.target) && typeof framing.fov === 'number') {
      camera.fov = framing.fov;
      camera.position.set(...framing.position);
      camera.lookAt(new THREE.Vector3(...framing.target));
      camera.userData.target = framing.target;
    } else {
      const head = this.#bones.head?.bone;
      const center = new THREE.Vector3();
      let height: number;
      if (head) {
        head.getWorldPosition(center);
        center.y += 0.08;
        height = 0.45;
      } else {
        // Head-and-shoulders busts: the face is the upper part of the box; full bodies: the top 0.35 m.
        height = size.y > 1.2 ? 0.4 : size.y * 0.6;
        center.set((box.min.x + box.max.x) / 2, box.max.y - height / 2, (box.min.z + box.max.z) / 2);
      }
      const fov = 25;
      const distance = (height / 2 / Math.tan(THREE.MathUtils.degToRad(fov / 2))) * 1.15;
      camera.fov = fov;
      camera.position.set(center.x, center.y + height * 0.04, center.z + distance + size.z / 2);
      camera.lookAt(center);
    }
    camera.near = 0.01;
    camera.far = 100;
    camera.updateProjectionMatrix();
  }
}

function setPose(pose: PoseBone, values: Float32Array, offset: number): void {
  pose.bone.quaternion.copy(pose.rest).multiply(axisAngle(values, offset, 1));
}

function axisAngle(values: Float32Array, offset: number, scale: number): THREE.Quaternion {
  const x = values[offset] ?? 0;
  const y = values[offset + 1] ?? 0;
  const z = values[offset + 2] ?? 0;
  const angle = Math.hypot(x, y, z);
  if (angle < 1e-9) return new THREE.Quaternion();
  tmpAxis.set(x / angle, y / angle, z / angle);
  return new THREE.Quaternion().setFromAxisAngle(tmpAxis, angle * scale);
}

function isVec3(v: unknown): v is [number, number, number] {
  return Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
}
