/**
 * AvatarView: renders an Avatar with three.js in a WebGL canvas that fills its container, runs
 * idle motion, and shows the speech frames its controller (or another package, through
 * {@link AvatarView.setFrameSource}) provides, in sync with the audio clock.
 */

import {
  AnimationMixer,
  type AnimationMixerOptions,
  logger,
  mixerSeed,
  requireConfig,
} from '@avatar-drive/client-core';
import { AvatarScene, configurePortraitRenderer } from '@avatar-drive/client-core/three';
import { type AvatarCoverage, AvatarError, type DriveFrame } from '@avatar-drive/core';
import * as THREE from 'three';
import type { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';
import { AvatarController, type AvatarControllerOptions } from './avatar-controller.js';
import type { Avatar } from './avatar-manager.js';

/** Options of {@link AvatarView}. */
export interface AvatarViewOptions extends AvatarControllerOptions, AnimationMixerOptions {
  /** Canvas background as a CSS colour; default transparent. */
  background?: string;
  /** Largest device pixel ratio rendered at; default 2. */
  maxPixelRatio?: number;
  /** Image-based lighting from a neutral room (softer shading); default true. */
  environmentLighting?: boolean;
  /**
   * Per-pixel surface detail — normal, bump and occlusion maps (the built-ins' skin pores, lip
   * lines, creases); default true. false drops them (colours and roughness stay): cheaper on
   * slow, software-rendered devices, one of the low-end options.
   */
  surfaceDetail?: boolean;
  /** Multisample anti-aliasing; default true (turn off on very slow devices). */
  antialias?: boolean;
  /** Keep the last frame readable (screenshots, `readPixels`); default false (a little faster). */
  preserveDrawingBuffer?: boolean;
  /**
   * Where the Basis Universal transcoder (`basis_transcoder.js` and `.wasm`) is served, for avatars
   * with KTX2 textures (`KHR_texture_basisu`); fetched only when such an avatar loads. Default: the
   * `basis/` folder next to this package's module (the package ships it in `dist/basis/` and
   * `dist/browser/basis/`). An app whose bundler does not copy it serves that folder itself and
   * sets this (e.g. `'/basis/'`).
   */
  ktx2TranscoderPath?: string;
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
  readonly #stage: AvatarScene;
  readonly #mixer: AnimationMixer;
  readonly #maxPixelRatio: number;
  readonly #resizeObserver: ResizeObserver | undefined;
  readonly #onWindowResize = () => this.#resize();
  #raf: number | undefined;
  #source: FrameSource | undefined;
  #firstRendered = false;
  #disposed = false;
  #lastFrame: DriveFrame | undefined;
  #ktx2: Promise<KTX2Loader> | undefined;

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
      seed: options.seed ?? mixerSeed(avatar.id),
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
    configurePortraitRenderer(this.#renderer);
    if (options.background !== undefined)
      this.#renderer.setClearColor(new THREE.Color(options.background), 1);
    else this.#renderer.setClearColor(0x000000, 0);
    this.canvas = this.#renderer.domElement;
    this.canvas.style.display = 'block';
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    container.appendChild(this.canvas);
    const transcoderPath = options.ktx2TranscoderPath ?? defaultTranscoderPath();
    this.#stage = new AvatarScene(avatar, this.#renderer, {
      environmentLighting: options.environmentLighting ?? true,
      surfaceDetail: options.surfaceDetail ?? true,
      ktx2Loader: async () => {
        this.#ktx2 ??= createKtx2Loader(this.#renderer, transcoderPath);
        return this.#ktx2;
      },
    });

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
    return this.#stage.getMorphInfluence(name);
  }

  /**
   * The current weight of a VRM expression (`aa`, `blink`, …) as three-vrm applied it, or
   * `undefined` for a plain glTF avatar or an expression it does not have.
   */
  getExpressionWeight(name: string): number | undefined {
    return this.#stage.getExpressionWeight(name);
  }

  /**
   * What bound on this avatar, once {@link ready} resolved: its format (`vrm1`, `vrm0`,
   * `arkit+oculus-visemes`, `arkit`, …), which drive channels reach which morph targets, VRM
   * expressions and bones, which fall back to others and which are missing. The same report the
   * service returns for an upload, computed here from what actually loaded; logged once (at
   * `info`, or `warning` when the mouth cannot move).
   */
  get avatarCoverage(): AvatarCoverage | undefined {
    return this.#stage.coverage;
  }

  /**
   * How many Gaussians a LAM splat avatar draws, once {@link ready} resolved (one per vertex of its
   * skin.glb); `undefined` for a mesh avatar (glTF, VRM).
   */
  get splatCount(): number | undefined {
    return this.#stage.splatCount;
  }

  /** The loaded model's root object, once {@link ready} resolved (to read or attach things). */
  get model(): THREE.Object3D | undefined {
    return this.#stage.model;
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
    this.#stage.dispose();
    // The transcoder's workers end with the view.
    this.#ktx2?.then((loader) => loader.dispose()).catch(() => undefined);
    this.#renderer.dispose();
    this.#renderer.forceContextLoss();
    this.canvas.remove();
  }

  async #loadModel(): Promise<void> {
    await this.#stage.load();
    if (this.#disposed) return;
    this.#raf = requestAnimationFrame((t) => this.#render(t));
  }

  #resize(): void {
    if (this.#disposed) return;
    const width = Math.max(1, this.#container.clientWidth);
    const height = Math.max(1, this.#container.clientHeight);
    this.#renderer.setPixelRatio(Math.min(globalThis.devicePixelRatio || 1, this.#maxPixelRatio));
    this.#renderer.setSize(width, height, false);
    this.#stage.setAspect(width / height);
  }

  #render(timestamp: number): void {
    if (this.#disposed) return;
    this.#raf = requestAnimationFrame((t) => this.#render(t));
    const speech = this.#source ? this.#source() : this.controller.frameForRender();
    if (this.#source) this.controller.frameForRender(); // keep the controller's playback moving
    const frame = this.#mixer.update(timestamp / 1000, speech);
    this.#stage.apply(frame, timestamp / 1000);
    this.#lastFrame = frame;
    this.#renderer.render(this.#stage.scene, this.#stage.camera);
    if (!this.#firstRendered) {
      this.#firstRendered = true;
      try {
        this.onFirstRendering?.();
      } catch (error) {
        logger.error('onFirstRendering threw:', error);
      }
    }
  }
}

/** The `basis/` folder next to this module (dist/ and dist/browser/ each ship one). */
function defaultTranscoderPath(): string {
  return new URL('./basis/', import.meta.url).href;
}

/**
 * A KTX2Loader for `renderer`, loaded on first need (three's KTX2Loader and its zstd decoder stay
 * out of pages that never show a KTX2 texture); it picks the GPU formats the renderer supports.
 */
async function createKtx2Loader(renderer: THREE.WebGLRenderer, transcoderPath: string): Promise<KTX2Loader> {
  const { KTX2Loader } = await import('three/examples/jsm/loaders/KTX2Loader.js');
  return new KTX2Loader().setTranscoderPath(transcoderPath).detectSupport(renderer);
}
