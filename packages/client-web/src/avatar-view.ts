/**
 * AvatarView: renders an Avatar with three.js in a WebGL canvas that fills its container, runs
 * idle motion, and shows the speech frames its controller (or another package, through
 * {@link AvatarView.setFrameSource}) provides, in sync with the audio clock.
 */

import { logger, requireConfig } from '@avatar-drive/client-core';
import {
  type AvatarCoverage,
  AvatarError,
  type DriveChannel,
  type DriveFrame,
  isDriveChannel,
  planAvatarDrive,
} from '@avatar-drive/core';
import * as THREE from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { AnimationMixer, type AnimationMixerOptions } from './animation-mixer.js';
import { AvatarController, type AvatarControllerOptions } from './avatar-controller.js';
import type { Avatar } from './avatar-manager.js';
import { DriveBinding } from './rig/drive-binding.js';
import { gltfKind, readGlbJson } from './rig/glb-json.js';
import { gltfRig } from './rig/gltf-rig.js';
import type { LoadedRig } from './rig/loaded-rig.js';
import { loadVrmRig } from './rig/vrm-rig.js';

/** Options of {@link AvatarView}. */
export interface AvatarViewOptions extends AvatarControllerOptions, AnimationMixerOptions {
  /** Canvas background as a CSS colour; default transparent. */
  background?: string;
  /** Largest device pixel ratio rendered at; default 2. */
  maxPixelRatio?: number;
  /** Image-based lighting from a neutral room (softer shading); default true. */
  environmentLighting?: boolean;
  /** Multisample anti-aliasing; default true (turn off on very slow devices). */
  antialias?: boolean;
  /** Keep the last frame readable (screenshots, `readPixels`); default false (a little faster). */
  preserveDrawingBuffer?: boolean;
}

/** Supplies the speech frame for the instant being rendered, or `undefined` for idle. */
export type FrameSource = () => DriveFrame | undefined;

/** A three.js view of one avatar, with its {@link AvatarController}. */
export class AvatarView {
  /** The avatar shown. */
  readonly avatar: Avatar;
  /** Session and playback of this view. */
  readonly controller: AvatarController;
  /** The WebGL canvas (inside the container). */
  readonly canvas: HTMLCanvasElement;
  /** Resolves once the model is parsed and bound; rejects with `assetDownloadFailed` for a bad model. */
  readonly ready: Promise<void>;
  /** Called once, after the first frame with the avatar has been drawn. */
  onFirstRendering: (() => void) | undefined;

  readonly #container: HTMLElement;
  readonly #renderer: THREE.WebGLRenderer;
  readonly #scene = new THREE.Scene();
  readonly #camera = new THREE.PerspectiveCamera(25, 1, 0.01, 100);
  readonly #mixer: AnimationMixer;
  readonly #maxPixelRatio: number;
  readonly #resizeObserver: ResizeObserver | undefined;
  readonly #onWindowResize = () => this.#resize();
  #pivot = new THREE.Group();
  #pivotRest = new THREE.Vector3();
  #rig: LoadedRig | undefined;
  #binding: DriveBinding | undefined;
  #coverage: AvatarCoverage | undefined;
  #lastTimestamp: number | undefined;
  #envTexture: THREE.Texture | undefined;
  #raf: number | undefined;
  #source: FrameSource | undefined;
  #firstRendered = false;
  #disposed = false;
  #lastFrame: DriveFrame | undefined;

  /**
   * Creates the canvas in `container` and starts rendering once the model is parsed.
   * @throws AvatarError `notInitialized` before `AvatarSDK.initialize`, `invalidRequest` for a
   *   missing container, `invalidState` where WebGL is unavailable.
   */
  constructor(avatar: Avatar, container: HTMLElement, options: AvatarViewOptions = {}) {
    requireConfig('new AvatarView()');
    if (!container || typeof (container as HTMLElement).appendChild !== 'function') {
      throw new AvatarError(
        'invalidRequest',
        'new AvatarView(avatar, container) needs a DOM element to render into.',
      );
    }
    this.avatar = avatar;
    this.#container = container;
    this.#maxPixelRatio = options.maxPixelRatio ?? 2;
    this.#mixer = new AnimationMixer({
      ...options,
      seed: options.seed ?? hashString(avatar.id) + viewCount++,
    });
    try {
      this.#renderer = new THREE.WebGLRenderer({
        antialias: options.antialias ?? true,
        preserveDrawingBuffer: options.preserveDrawingBuffer ?? false,
        alpha: options.background === undefined,
      });
    } catch (cause) {
      throw new AvatarError(
        'invalidState',
        'WebGL is not available in this browser, so the avatar cannot be drawn.',
        {
          cause,
        },
      );
    }
    this.#renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.#renderer.toneMapping = THREE.ACESFilmicToneMapping;
    this.#renderer.toneMappingExposure = 1.05;
    if (options.background !== undefined)
      this.#renderer.setClearColor(new THREE.Color(options.background), 1);
    else this.#renderer.setClearColor(0x000000, 0);
    this.canvas = this.#renderer.domElement;
    this.canvas.style.display = 'block';
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    container.appendChild(this.canvas);
    this.#addLights(options.environmentLighting ?? true);
    this.#scene.add(this.#pivot);

    this.controller = new AvatarController(
      { avatarId: avatar.id, cutSpeech: () => this.#mixer.cut() },
      options,
    );

    if (typeof ResizeObserver !== 'undefined') {
      this.#resizeObserver = new ResizeObserver(() => this.#resize());
      this.#resizeObserver.observe(container);
    }
    window.addEventListener('resize', this.#onWindowResize);
    this.#resize();
    this.ready = this.#loadModel();
    this.ready.catch(() => undefined);
  }

  /**
   * Feeds speech animation from elsewhere (e.g. `@avatar-drive/rtc-player`, aligned to its own
   * clock): `source` is called at every rendered frame; return `undefined` for idle. Replaces the
   * controller as the frame source until `setFrameSource(undefined)`.
   */
  setFrameSource(source: FrameSource | undefined): void {
    this.#source = source;
  }

  /** Shows `frame` as speech from now until the next `applyFrame` or {@link setIdle}. */
  applyFrame(frame: DriveFrame): void {
    this.#source = () => frame;
  }

  /** Returns to idle through the transition out of speech (after {@link applyFrame}). */
  setIdle(): void {
    this.#source = () => undefined;
  }

  /** Drops speech at once, without the transition (what `interrupt()` does). */
  cutSpeech(): void {
    this.#mixer.cut();
  }

  /**
   * The weight currently applied to the targets (morph targets, or VRM expressions) that follow
   * drive channel `name` — an ARKit name such as `jawOpen`, or a viseme as `aa` or `viseme_aa`;
   * the largest over those targets, or `undefined` when none follows it (see
   * {@link avatarCoverage} for why).
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
   * The current weight of a VRM expression (`aa`, `blink`, …) as three-vrm applies it, or
   * `undefined` for a plain glTF avatar or an expression it does not have.
   */
  getExpressionWeight(name: string): number | undefined {
    return this.#rig?.getExpression?.(name);
  }

  /**
   * What bound on this avatar, once {@link ready} resolved: its format, which drive channels
   * reach which morph targets, VRM expressions and bones, which fall back to others and which
   * are missing. The same report the service returns for an upload, computed here from what
   * actually loaded. Logged once (at `info`; at `warning` when the mouth cannot move).
   */
  get avatarCoverage(): AvatarCoverage | undefined {
    return this.#coverage;
  }

  /** The frame applied at the last render (speech and idle mixed). */
  get lastFrame(): DriveFrame | undefined {
    return this.#lastFrame;
  }

  /** Stops rendering and frees the GPU resources, listeners, audio and connection. Safe to call twice. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#raf !== undefined) cancelAnimationFrame(this.#raf);
    this.#raf = undefined;
    this.#resizeObserver?.disconnect();
    window.removeEventListener('resize', this.#onWindowResize);
    this.controller.dispose();
    this.#scene.traverse((object) => {
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
    this.#scene.clear();
    this.#renderer.dispose();
    this.#renderer.forceContextLoss();
    this.canvas.remove();
    this.#binding = undefined;
  }

  #addLights(environment: boolean): void {
    if (environment) {
      const pmrem = new THREE.PMREMGenerator(this.#renderer);
      const room = new RoomEnvironment();
      this.#envTexture = pmrem.fromScene(room, 0.04).texture;
      this.#scene.environment = this.#envTexture;
      this.#scene.environmentIntensity = 0.55;
      room.dispose();
      pmrem.dispose();
    }
    this.#scene.add(new THREE.HemisphereLight(0xfff4e8, 0x3a4250, 0.9));
    const key = new THREE.DirectionalLight(0xfff1e0, 1.9);
    key.position.set(-1.2, 1.6, 2.2);
    const fill = new THREE.DirectionalLight(0xdfe8ff, 0.7);
    fill.position.set(1.5, 0.4, 1.5);
    const rim = new THREE.DirectionalLight(0xffffff, 1.0);
    rim.position.set(0.3, 1.5, -2.5);
    this.#scene.add(key, fill, rim);
  }

  async #loadModel(): Promise<void> {
    let rig: LoadedRig;
    const bytes = this.avatar.model;
    const kind = gltfKind(readGlbJson(bytes));
    try {
      const loader = new GLTFLoader();
      rig =
        kind === 'gltf'
          ? gltfRig(await loader.parseAsync(bytes, ''), {
              headNode: this.avatar.manifest.headNode,
              eyeNodes: this.avatar.manifest.eyeNodes,
            })
          : await loadVrmRig(loader, bytes);
    } catch (cause) {
      const error =
        cause instanceof AvatarError
          ? cause
          : new AvatarError(
              'assetDownloadFailed',
              kind === 'gltf'
                ? `Avatar ${this.avatar.id}'s model is not a valid glTF 2.0 binary.`
                : `Avatar ${this.avatar.id}'s model is not a valid ${kind === 'vrm1' ? 'VRM 1.0' : 'VRM 0.x'} file.`,
              {
                cause,
                phase: 'load',
              },
            );
      logger.error(error.message);
      throw error;
    }
    if (this.#disposed) return;
    this.#rig = rig;
    const model = rig.scene;
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
    this.#raf = requestAnimationFrame((t) => this.#render(t));
  }

  #bind(rig: LoadedRig): void {
    const coverage = planAvatarDrive(rig.sources);
    this.#coverage = coverage;
    this.#binding = new DriveBinding(rig, coverage);
    const { visemes, arkit } = coverage.counts;
    const summary =
      `Avatar ${this.avatar.id} (${coverage.format}): mouth via ${coverage.mouth}, ` +
      `${visemes.bound}/${visemes.total} visemes and ${arkit.bound}/${arkit.total} ARKit shapes bound, ` +
      `${coverage.fallbacks.length} channels by fallback, ${coverage.missing.length} missing` +
      (coverage.missing.length > 0 ? ` (${coverage.missing.join(', ')})` : '') +
      '.';
    if (coverage.mouth === 'none') {
      logger.warn(
        `Avatar ${this.avatar.id} has no morph targets or expressions with ARKit, Oculus viseme or VRM vowel names; it will not move its mouth. ${summary}`,
      );
    } else logger.info(summary);
  }

  #frame(box: THREE.Box3, size: THREE.Vector3): void {
    const framing = this.avatar.manifest.camera;
    if (framing && isVec3(framing.position) && isVec3(framing.target) && typeof framing.fov === 'number') {
      this.#camera.fov = framing.fov;
      this.#camera.position.set(...framing.position);
      this.#camera.lookAt(new THREE.Vector3(...framing.target));
      this.#camera.userData.target = framing.target;
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
      this.#camera.fov = fov;
      this.#camera.position.set(center.x, center.y + height * 0.04, center.z + distance + size.z / 2);
      this.#camera.lookAt(center);
    }
    this.#camera.near = 0.01;
    this.#camera.far = 100;
    this.#camera.updateProjectionMatrix();
  }

  #resize(): void {
    if (this.#disposed) return;
    const width = Math.max(1, this.#container.clientWidth);
    const height = Math.max(1, this.#container.clientHeight);
    this.#renderer.setPixelRatio(Math.min(globalThis.devicePixelRatio || 1, this.#maxPixelRatio));
    this.#renderer.setSize(width, height, false);
    this.#camera.aspect = width / height;
    this.#camera.updateProjectionMatrix();
  }

  #render(timestamp: number): void {
    if (this.#disposed) return;
    this.#raf = requestAnimationFrame((t) => this.#render(t));
    const speech = this.#source ? this.#source() : this.controller.frameForRender();
    if (this.#source) this.controller.frameForRender(); // keep the controller's playback moving
    const frame = this.#mixer.update(timestamp / 1000, speech);
    this.#apply(frame, timestamp);
    this.#lastFrame = frame;
    this.#renderer.render(this.#scene, this.#camera);
    if (!this.#firstRendered) {
      this.#firstRendered = true;
      try {
        this.onFirstRendering?.();
      } catch (error) {
        logger.error('onFirstRendering threw:', error);
      }
    }
  }

  #apply(frame: DriveFrame, timestamp: number): void {
    const delta =
      this.#lastTimestamp === undefined
        ? 0
        : Math.min(0.1, Math.max(0, (timestamp - this.#lastTimestamp) / 1000));
    this.#lastTimestamp = timestamp;
    this.#binding?.apply(frame, this.#pivot);
    this.#pivot.position.set(
      this.#pivotRest.x + frame.translation[0]!,
      this.#pivotRest.y + frame.translation[1]!,
      this.#pivotRest.z + frame.translation[2]!,
    );
    this.#rig?.update(delta);
  }
}

let viewCount = 0;

function isVec3(v: unknown): v is [number, number, number] {
  return Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
