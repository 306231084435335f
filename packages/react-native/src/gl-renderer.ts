/**
 * A three.js WebGLRenderer on an expo-gl context. On iOS and Android the context is expo-gl's
 * native WebGL 2 implementation (OpenGL ES 3), which has no canvas element: three gets a
 * stand-in with the drawing-buffer size, and each frame ends with `gl.endFrameEXP()`, which
 * presents it. Under react-native-web expo-gl hands over a real canvas's WebGL 2 context.
 */

import { configurePortraitRenderer } from '@avatar-drive/client-core/three';
import { AvatarError } from '@avatar-drive/core';
import type { ExpoWebGLRenderingContext } from 'expo-gl';
import * as THREE from 'three';

/**
 * An expo-gl context as the view uses it. Spelled out here because React Native has no DOM
 * typings: the drawing-buffer size and expo-gl's frame presenter.
 */
export type GlContext = ExpoWebGLRenderingContext & {
  readonly drawingBufferWidth: number;
  readonly drawingBufferHeight: number;
};

/** What {@link createGlRenderer} needs to know about the surface. */
export interface GlRendererOptions {
  antialias?: boolean;
  /** Clear colour as a CSS colour; default transparent. */
  background?: string;
  /** Keep the drawing buffer after presenting (pixel read-back); default false. */
  preserveDrawingBuffer?: boolean;
}

/**
 * The renderer for `gl`, sized to its drawing buffer.
 * @throws AvatarError `invalidState` when the device has no WebGL 2 (OpenGL ES 3) context.
 */
export function createGlRenderer(gl: GlContext, options: GlRendererOptions = {}): THREE.WebGLRenderer {
  const native = gl as GlContext & { supportsWebGL2?: boolean; canvas?: unknown };
  if (native.supportsWebGL2 === false) {
    throw new AvatarError(
      'invalidState',
      'This device offers no OpenGL ES 3 (WebGL 2) context through expo-gl; three.js needs one to draw the avatar.',
    );
  }
  const width = gl.drawingBufferWidth;
  const height = gl.drawingBufferHeight;
  // Native contexts have no canvas: three reads the size and adds/removes context-loss listeners only.
  const canvas = isCanvas(native.canvas) ? native.canvas : createCanvasStandIn(width, height);
  let renderer: THREE.WebGLRenderer;
  try {
    renderer = new THREE.WebGLRenderer({
      canvas: canvas as HTMLCanvasElement,
      context: gl as unknown as WebGL2RenderingContext,
      antialias: options.antialias ?? true,
      alpha: options.background === undefined,
      preserveDrawingBuffer: options.preserveDrawingBuffer ?? false,
    });
  } catch (cause) {
    throw new AvatarError('invalidState', 'three.js could not start on this GL context.', { cause });
  }
  configurePortraitRenderer(renderer);
  if (options.background !== undefined) renderer.setClearColor(new THREE.Color(options.background), 1);
  else renderer.setClearColor(0x000000, 0);
  // The drawing buffer is already in device pixels: no pixel-ratio scaling, and never restyle a real canvas.
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  return renderer;
}

function isCanvas(value: unknown): value is HTMLCanvasElement {
  return typeof value === 'object' && value !== null && 'getContext' in value && 'width' in value;
}

function createCanvasStandIn(width: number, height: number): object {
  return {
    width,
    height,
    clientWidth: width,
    clientHeight: height,
    style: {},
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
}
