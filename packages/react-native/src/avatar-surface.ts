/**
 * AvatarSurface: what an `<AvatarView>` renders and controls. It owns the view's controller and
 * idle motion, and draws the avatar with three.js on the expo-gl context its GLView hands over
 * (`attach`); the scene, rig binding and framing are client-core's, shared with the web view.
 */

import {
  AnimationMixer,
  type AnimationMixerOptions,
  type Avatar,
  logger,
  mixerSeed,
  requireConfig,
} from '@avatar-drive/client-core';
import { AvatarScene } from '@avatar-drive/client-core/three';
import { AvatarError, type DriveFrame } from '@avatar-drive/core';
import type * as THREE from 'three';
import { AvatarController, type AvatarControllerOptions } from './avatar-controller.js';
import { createGlRenderer, type GlContext } from './gl-renderer.js';
import { type JsImageTexturesOptions, jsImageTextures } from './gltf-image-textures.js';

/** Options of an AvatarView (and its controller). */
export interface AvatarViewOptions extends AvatarControllerOptions, AnimationMixerOptions {
  /** Background as a CSS colour; default transparent. */
  background?: string;
  /** Image-based lighting from a neutral room (softer shading); default true. */
  environmentLighting?: boolean;
  /**
   * Per-pixel surface detail (normal, bump and occlusion maps); default true. false drops them:
   * cheaper on slow devices, colours and roughness stay.
   */
  surfaceDetail?: boolean;
  /** Multisample anti-aliasing; default true (turn off on slow devices). */
  antialias?: boolean;
  /** Keep the last frame readable (snapshots, pixel read-back); default false. */
  preserveDrawingBuffer?: boolean;
  /**
   * Bounds on the model's embedded JPEG / PNG images, which the view decodes in JavaScript (React
   * Native has no DOM image decoder): default 4096 × 4096 per image and four such per model. A
   * model over them fails to load (`ready` rejects with `assetDownloadFailed`, `details.problem`
   * `tooLarge`) rather than running the app out of memory.
   */
  textureLimits?: Omit<JsImageTexturesOptions, 'label'>;
}

/** Supplies the speech frame for the instant being rendered, or `undefined` for idle. */
export type FrameSource = () => DriveFrame | undefined;

interface Attached {
  gl: GlContext;
  renderer: THREE.WebGLRenderer;
  stage: AvatarScene;
  width: number;
  height: number;
  raf: number | undefined;
}

/** One avatar's render surface and its {@link AvatarController}. */
export class AvatarSurface {
  /** The avatar shown. */
  readonly avatar: Avatar;
  /** Session and playback of this view. */
  readonly controller: AvatarController;
  /** Resolves once the model is parsed and bound on the first GL context; rejects with `assetDownloadFailed` for a bad model. */
  readonly ready: Promise<void>;
  /** Called once, after the first frame with the avatar has been drawn. */
  onFirstRendering: (() => void) | undefined;

  readonly #options: AvatarViewOptions;
  readonly #mixer: AnimationMixer;
  #attached: Attached | undefined;
  #source: FrameSource | undefined;
  #firstRendered = false;
  #disposed = false;
  #lastFrame: DriveFrame | undefined;
  #resolveReady!: () => void;
  #rejectReady!: (error: unknown) => void;

  /**
   * Creates the controller; drawing starts when a GL context is attached (the `<AvatarView>`
   * component does that).
   * @throws AvatarError `notInitialized` before `AvatarSDK.initialize`.
   */
  constructor(avatar: Avatar, options: AvatarViewOptions = {}) {
    requireConfig('<AvatarView>');
    if (!avatar || typeof avatar.id !== 'string') {
      throw new AvatarError(
        'invalidRequest',
        '<AvatarView avatar={…}> needs an Avatar from AvatarManager.load().',
      );
    }
    this.avatar = avatar;
    this.#options = options;
    this.#mixer = new AnimationMixer({ ...options, seed: options.seed ?? mixerSeed(avatar.id) });
    this.controller = new AvatarController(
      { avatarId: avatar.id, cutSpeech: () => this.#mixer.cut() },
      options,
    );
    this.ready = new Promise<void>((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.ready.catch(() => undefined);
  }

  /** True once {@link dispose} ran. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** True while a GL context is attached (the view is mounted). */
  get attached(): boolean {
    return this.#attached !== undefined;
  }

  /**
   * Draws on `gl` (from expo-gl's `onContextCreate`) until {@link detach}. A surface can be
   * attached again after a detach (a remounted view): the model is bound on the new context.
   */
  attach(gl: GlContext): void {
    this.#assertUsable();
    this.detach();
    let renderer: THREE.WebGLRenderer;
    try {
      renderer = createGlRenderer(gl, {
        ...(this.#options.antialias !== undefined && { antialias: this.#options.antialias }),
        ...(this.#options.background !== undefined && { background: this.#options.background }),
        ...(this.#options.preserveDrawingBuffer !== undefined && {
          preserveDrawingBuffer: this.#options.preserveDrawingBuffer,
        }),
      });
    } catch (error) {
      this.#rejectReady(error);
      this.controller.reportError(error as AvatarError);
      return;
    }
    const stage = new AvatarScene(this.avatar, renderer, {
      environmentLighting: this.#options.environmentLighting ?? true,
      surfaceDetail: this.#options.surfaceDetail ?? true,
      gltfPlugins: [jsImageTextures({ ...this.#options.textureLimits, label: `Avatar ${this.avatar.id}` })],
    });
    const attached: Attached = {
      gl,
      renderer,
      stage,
      width: gl.drawingBufferWidth,
      height: gl.drawingBufferHeight,
      raf: undefined,
    };
    this.#attached = attached;
    stage.setAspect(attached.width / Math.max(1, attached.height));
    stage.load().then(
      () => {
        if (this.#attached !== attached) return;
        this.#resolveReady();
        attached.raf = requestAnimationFrame((t) => this.#render(attached, t));
      },
      (error: unknown) => {
        this.#rejectReady(error);
        if (this.#attached === attached) this.controller.reportError(error as AvatarError);
      },
    );
  }

  /** Stops drawing and frees the GPU resources of the current GL context (the view unmounted). The controller lives on. */
  detach(): void {
    const attached = this.#attached;
    if (!attached) return;
    this.#attached = undefined;
    if (attached.raf !== undefined) cancelAnimationFrame(attached.raf);
    attached.stage.dispose();
    attached.renderer.dispose();
  }

  /**
   * Feeds speech animation from elsewhere: `source` is called at every rendered frame; return
   * `undefined` for idle. Replaces the controller as the frame source until `setFrameSource(undefined)`.
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
   * The influence currently applied to morph targets following rig channel `name` (an ARKit
   * name such as `jawOpen`, or a viseme such as `aa`); `undefined` when no target follows it or
   * nothing is attached.
   */
  getMorphInfluence(name: string): number | undefined {
    return this.#attached?.stage.getMorphInfluence(name);
  }

  /** The frame applied at the last render (speech and idle mixed). */
  get lastFrame(): DriveFrame | undefined {
    return this.#lastFrame;
  }

  /**
   * Releases everything: stops drawing, frees the GPU resources, closes the connection and the
   * native audio context. Required on Android (an unmounted view keeps its session until then);
   * on iOS and the web `<AvatarView>` calls it when it unmounts. Safe to call twice.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.detach();
    this.controller.dispose();
  }

  #render(attached: Attached, timestamp: number): void {
    if (this.#attached !== attached) return;
    attached.raf = requestAnimationFrame((t) => this.#render(attached, t));
    const { gl, renderer, stage } = attached;
    if (gl.drawingBufferWidth !== attached.width || gl.drawingBufferHeight !== attached.height) {
      attached.width = gl.drawingBufferWidth;
      attached.height = gl.drawingBufferHeight;
      renderer.setSize(attached.width, attached.height, false);
      stage.setAspect(attached.width / Math.max(1, attached.height));
    }
    const speech = this.#source ? this.#source() : this.controller.frameForRender();
    if (this.#source) this.controller.frameForRender(); // keep the controller's playback moving
    const frame = this.#mixer.update(timestamp / 1000, speech);
    stage.apply(frame);
    this.#lastFrame = frame;
    renderer.render(stage.scene, stage.camera);
    gl.endFrameEXP();
    if (!this.#firstRendered) {
      this.#firstRendered = true;
      try {
        this.onFirstRendering?.();
      } catch (error) {
        logger.error('onFirstRendering threw:', error);
      }
    }
  }

  #assertUsable(): void {
    if (this.#disposed) {
      throw new AvatarError('invalidState', 'This AvatarView was disposed; mount a new <AvatarView>.');
    }
  }
}
