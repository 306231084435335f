/**
 * The three.js half of an avatar view that every platform shares: the glTF model parsed from a
 * loaded Avatar, its morph targets and bones bound to the rig, the lights, the camera framing,
 * and one drive frame applied per render. No DOM and no WebGL context here: the platform owns the
 * renderer and its surface (a canvas on the web, an expo-gl GLView on React Native) and calls
 * {@link AvatarScene.apply} then `renderer.render(scene.scene, scene.camera)`.
 */

import {
  type AvatarCoverage,
  AvatarError,
  type DriveChannel,
  type DriveFrame,
  isDriveChannel,
  type LamArchive,
  looksLikeZip,
  planAvatarDrive,
  readLamArchive,
} from '@avatar-drive/core';
import * as THREE from 'three';
import { GLTFLoader, type GLTFLoaderPlugin, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { Avatar } from '../avatar-manager.js';
import { logger } from '../logger.js';
import { type Ktx2LoaderSource, registerGltfDecoders } from './gltf-decoders.js';
import { addPortraitLights } from './portrait-lighting.js';
import { DriveBinding } from './rig/drive-binding.js';
import { gltfKind, readGlbJson } from './rig/glb-json.js';
import { gltfRig } from './rig/gltf-rig.js';
import type { LoadedRig } from './rig/loaded-rig.js';
import { loadVrmRig } from './rig/vrm-rig.js';
import { LamSplatHead } from './splat/lam-splat-head.js';
import { dropSurfaceDetail } from './surface-detail.js';

/** Options of {@link AvatarScene}. */
export interface AvatarSceneOptions {
  /**
   * GLTFLoader plugins registered on the loader of each glTF / VRM model, after three's own: how
   * a platform changes what the loader does (React Native decodes embedded images in JavaScript,
   * having no DOM). Default none.
   */
  gltfPlugins?: readonly ((parser: GLTFParser) => GLTFLoaderPlugin)[];
  /**
   * Image-based lighting from a neutral room (softer shading); default true. Needs the renderer
   * (it is prefiltered on the GPU).
   */
  environmentLighting?: boolean;
  /**
   * Per-pixel surface detail: normal, bump and occlusion maps (skin pores, fine lines, creases);
   * default true. false drops them once the model loads — colours and roughness stay — which
   * makes a textured avatar cheaper to draw on slow, software-rendered devices.
   */
  surfaceDetail?: boolean;
  /**
   * Supplies three's KTX2Loader for models with KTX2 textures (`KHR_texture_basisu`), called once
   * and only for such a model: the platform sets the Basis transcoder's path and calls
   * `detectSupport(renderer)`. Without it, a model that requires KTX2 is refused with an error
   * naming the extension. Meshopt-compressed geometry (`EXT_meshopt_compression`) needs nothing:
   * its decoder is registered when a model uses it.
   */
  ktx2Loader?: Ktx2LoaderSource;
}

/** One avatar's scene, camera and rig binding. */
export class AvatarScene {
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(25, 1, 0.01, 100);
  readonly #avatar: Avatar;
  readonly #gltfPlugins: readonly ((parser: GLTFParser) => GLTFLoaderPlugin)[];
  #pivot = new THREE.Group();
  #pivotRest = new THREE.Vector3();
  #rig: LoadedRig | undefined;
  #binding: DriveBinding | undefined;
  #coverage: AvatarCoverage | undefined;
  #lastTime: number | undefined;
  #envTexture: THREE.Texture | undefined;
  #disposed = false;
  readonly #surfaceDetail: boolean;
  readonly #ktx2Loader: Ktx2LoaderSource | undefined;
  readonly #renderer: THREE.WebGLRenderer | undefined;
  #splatHead: LamSplatHead | undefined;

  /** Adds the lights (and, with `renderer`, the room environment); the model comes with {@link load}. */
  constructor(avatar: Avatar, renderer: THREE.WebGLRenderer | undefined, options: AvatarSceneOptions = {}) {
    this.#avatar = avatar;
    this.#renderer = renderer;
    this.#gltfPlugins = options.gltfPlugins ?? [];
    this.#surfaceDetail = options.surfaceDetail ?? true;
    this.#ktx2Loader = options.ktx2Loader;
    this.#addLights(renderer, options.environmentLighting ?? true);
    this.scene.add(this.#pivot);
  }

  /**
   * Parses the avatar's model — plain glTF (ARKit or Oculus viseme morph targets, e.g. Ready
   * Player Me / Avaturn), VRM 0.x / 1.0 (through @pixiv/three-vrm, loaded on first use) or a LAM
   * Gaussian-splat zip (its skin.glb bound like a glTF, its Gaussians drawn by Spark, loaded on
   * first use) — binds it to the drive following core's plan, and frames the camera. Compressed
   * models load too: meshopt geometry (`EXT_meshopt_compression` + `KHR_mesh_quantization`) and,
   * given {@link AvatarSceneOptions.ktx2Loader}, KTX2 textures.
   * @throws AvatarError `assetDownloadFailed` when the model is not a valid glTF 2.0 binary / VRM /
   *   LAM zip (for a LAM zip, `details.problem` names what is wrong, as the service's upload does).
   */
  async load(): Promise<void> {
    const bytes = this.#avatar.model;
    if (looksLikeZip(new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength)))) return this.#loadLam(bytes);
    let rig: LoadedRig;
    const json = readGlbJson(bytes);
    const kind = gltfKind(json);
    try {
      const loader = new GLTFLoader();
      await registerGltfDecoders(loader, json, this.#avatar.id, this.#ktx2Loader);
      const manifest = this.#avatar.manifest as { headNode?: unknown; eyeNodes?: unknown };
      for (const plugin of this.#gltfPlugins) loader.register(plugin);
      rig =
        kind === 'gltf'
          ? gltfRig(await loader.parseAsync(bytes, ''), manifest)
          : await loadVrmRig(loader, bytes);
    } catch (cause) {
      const what = kind === 'gltf' ? 'glTF 2.0 binary' : kind === 'vrm1' ? 'VRM 1.0 file' : 'VRM 0.x file';
      const error =
        cause instanceof AvatarError
          ? cause
          : new AvatarError(
              'assetDownloadFailed',
              `Avatar ${this.#avatar.id}'s model is not a valid ${what}.`,
              {
                cause,
                phase: 'load',
              },
            );
      logger.error(error.message);
      throw error;
    }
    this.#show(rig);
  }

  async #loadLam(bytes: ArrayBuffer): Promise<void> {
    const fail = (cause: unknown): AvatarError => {
      const problem = (cause as AvatarError | undefined)?.details?.problem;
      const error = new AvatarError(
        'assetDownloadFailed',
        `Avatar ${this.#avatar.id}'s LAM zip cannot be shown: ${(cause as Error).message}`,
        { cause, phase: 'load', ...(problem !== undefined && { details: { problem } }) },
      );
      logger.error(error.message);
      return error;
    };
    let lam: LamArchive;
    let rig: LoadedRig;
    let head: LamSplatHead;
    try {
      lam = readLamArchive(new Uint8Array(bytes));
      const manifest = this.#avatar.manifest as { headNode?: unknown; eyeNodes?: unknown };
      const skin = lam.skin.slice().buffer;
      const loader = new GLTFLoader();
      await registerGltfDecoders(loader, readGlbJson(skin), this.#avatar.id, this.#ktx2Loader);
      rig = gltfRig(await loader.parseAsync(skin, ''), manifest);
      const mesh = [...rig.meshes.values()].find(
        (m) => m.geometry.getAttribute('position')?.count === lam.vertexCount,
      );
      if (!mesh) throw new Error(`skin.glb has no mesh of ${lam.vertexCount} vertices with morph targets.`);
      if (!this.#renderer)
        throw new Error('Gaussian splats need the WebGL renderer (pass it to AvatarScene).');
      head = await LamSplatHead.create(lam, mesh);
      if (this.#disposed) {
        head.dispose();
        return;
      }
      this.scene.add(await LamSplatHead.renderer(this.#renderer));
    } catch (cause) {
      throw fail(cause);
    }
    this.#splatHead = head;
    this.#show({
      ...rig,
      update: (delta) => {
        rig.update(delta);
        head.update();
      },
    });
  }

  /**
   * Gaussians drawn, for a LAM splat avatar once {@link load} resolved (one per vertex of its
   * skin.glb); `undefined` for a mesh avatar.
   */
  get splatCount(): number | undefined {
    return this.#splatHead?.count;
  }

  #show(rig: LoadedRig): void {
    if (this.#disposed) return;
    this.#rig = rig;
    const model = rig.scene;
    if (!this.#surfaceDetail) dropSurfaceDetail(model);
    this.#bind(rig);
    // Pivot near the neck so head motion without a head bone turns the bust naturally.
    model.updateMatrixWorld(true);
    const box = new THREE.Box3().setFromObject(model);
    const size = box.getSize(new THREE.Vector3());
    const pivot = this.#binding?.turnsRoot
      ? new THREE.Vector3((box.min.x + box.max.x) / 2, box.min.y + size.y * 0.55, (box.min.z + box.max.z) / 2)
      : new THREE.Vector3(0, 0, 0);
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
   * The weight currently applied to the targets (morph targets, or VRM expressions) that follow
   * drive channel `name` — an ARKit name such as `jawOpen`, or a viseme as `aa` or `viseme_aa`;
   * the largest over those targets, or `undefined` when none follows it (see {@link coverage}).
   */
  getMorphInfluence(name: string): number | undefined {
    const channel: DriveChannel | undefined = isDriveChannel(name)
      ? name
      : isDriveChannel(`viseme_${name}`)
        ? (`viseme_${name}` as DriveChannel)
        : undefined;
    return channel ? this.#binding?.influence(channel) : undefined;
  }

  /**
   * The current weight of a VRM expression (`aa`, `blink`, …) as three-vrm applied it, or
   * `undefined` for a plain glTF avatar or an expression it does not have.
   */
  getExpressionWeight(name: string): number | undefined {
    return this.#rig?.getExpression?.(name);
  }

  /**
   * What bound, once {@link load} resolved: the avatar's format, which drive channels reach which
   * morph targets, VRM expressions and bones, which fall back to others and which are missing —
   * the report the service returns for an upload, computed from what actually loaded.
   */
  get coverage(): AvatarCoverage | undefined {
    return this.#coverage;
  }

  /** The loaded model's root (under the scene's pivot), once {@link load} resolved. */
  get model(): THREE.Object3D | undefined {
    return this.#rig?.scene;
  }

  /**
   * Applies one drive frame (speech and idle mixed) to the morph targets / expressions, bones and
   * pivot, then advances what the format animates itself (VRM expressions, lookAt, spring
   * bones). `timeSeconds` is the render clock (default `performance.now()`).
   */
  apply(frame: DriveFrame, timeSeconds: number = performance.now() / 1000): void {
    const delta = this.#lastTime === undefined ? 0 : Math.min(0.1, Math.max(0, timeSeconds - this.#lastTime));
    this.#lastTime = timeSeconds;
    this.#binding?.apply(frame, this.#pivot);
    this.#pivot.position.set(
      this.#pivotRest.x + frame.translation[0]!,
      this.#pivotRest.y + frame.translation[1]!,
      this.#pivotRest.z + frame.translation[2]!,
    );
    this.#rig?.update(delta);
  }

  /** Frees geometries, materials, textures and the environment map. Safe to call twice. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    // Spark frees its own buffers; the traversal below then sees no splats.
    this.#splatHead?.dispose();
    this.#splatHead = undefined;
    this.scene.traverse((object) => {
      const mesh = object as THREE.Mesh;
      mesh.geometry?.dispose();
      const materials = mesh.material ? (Array.isArray(mesh.material) ? mesh.material : [mesh.material]) : [];
      for (const material of materials) {
        for (const value of Object.values(material)) if (value instanceof THREE.Texture) value.dispose();
        // Shader materials (VRM's MToon) keep their textures in uniforms.
        const uniforms = (material as THREE.ShaderMaterial).uniforms ?? {};
        for (const u of Object.values(uniforms)) if (u?.value instanceof THREE.Texture) u.value.dispose();
        material.dispose();
      }
    });
    this.#envTexture?.dispose();
    this.scene.clear();
    this.#binding = undefined;
  }

  #addLights(renderer: THREE.WebGLRenderer | undefined, environment: boolean): void {
    this.#envTexture = addPortraitLights(this.scene, renderer, environment);
  }

  #bind(rig: LoadedRig): void {
    const coverage = planAvatarDrive(rig.sources);
    this.#coverage = coverage;
    this.#binding = new DriveBinding(rig, coverage);
    const id = this.#avatar.id;
    const { visemes, arkit, poses } = coverage.counts;
    const summary =
      `Avatar ${id} (${coverage.format}): mouth via ${coverage.mouth}; bound ` +
      `${visemes.bound}/${visemes.total} visemes, ${arkit.bound}/${arkit.total} ARKit shapes, ` +
      `${poses.bound}/${poses.total} poses; ${coverage.fallbacks.length} channels by fallback; ` +
      `${coverage.missing.length} missing${coverage.missing.length > 0 ? ` (${coverage.missing.join(', ')})` : ''}.`;
    // Logged once per loaded avatar: a warning when the mouth cannot move or channels have no effect.
    if (coverage.mouth === 'none') {
      logger.warn(
        `${summary} It has no morph targets or expressions with ARKit, Oculus viseme or VRM vowel names, so it will not move its mouth.`,
      );
    } else if (coverage.missing.length > 0) {
      logger.warn(
        `${summary} Missing channels have no effect on this avatar (view.avatarCoverage says more).`,
      );
    } else logger.info(summary);
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
      const head = this.#rig?.bones.head?.bone;
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

function isVec3(v: unknown): v is [number, number, number] {
  return Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
}
