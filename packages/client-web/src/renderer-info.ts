/**
 * What draws WebGL on this device. Without a GPU (a VM, a CI runner, a remote desktop) browsers
 * fall back to a CPU rasteriser — SwiftShader in Chromium, llvmpipe/softpipe in Mesa, the "Basic
 * Render Driver" on Windows — where a full-quality frame costs 7–9× more than with the low-end set.
 */

import type { AvatarViewOptions } from './avatar-view.js';

/** The answer of {@link detectRenderer}. */
export interface RendererInfo {
  /** Whether a WebGL context could be made at all. */
  webgl: boolean;
  /** The renderer the browser names (unmasked when it allows, else its generic name); '' without WebGL. */
  renderer: string;
  /** True when {@link renderer} is a known CPU rasteriser. */
  software: boolean;
}

const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

/**
 * The view options that make software rendering usable: device pixel ratio 1, no multisampling,
 * no image-based lighting (figures in docs/benchmarks.md, "Client rendering cost: low-end options").
 */
export const LOW_END_VIEW_OPTIONS: Readonly<
  Required<Pick<AvatarViewOptions, 'maxPixelRatio' | 'antialias' | 'environmentLighting'>>
> = Object.freeze({ maxPixelRatio: 1, antialias: false, environmentLighting: false });

/**
 * Asks a throwaway WebGL context what renders it, then releases the context.
 *
 * @example
 * ```ts
 * const { software } = detectRenderer();
 * const view = new AvatarView(avatar, container, software ? LOW_END_VIEW_OPTIONS : {});
 * ```
 */
export function detectRenderer(): RendererInfo {
  if (typeof document === 'undefined') return { webgl: false, renderer: '', software: false };
  const canvas = document.createElement('canvas');
  const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
  if (!gl) return { webgl: false, renderer: '', software: false };
  try {
    // Chromium and Safari unmask the renderer through this extension; Firefox answers a
    // sanitised but still telling name from RENDERER itself.
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    const named = debug ? gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    const renderer = typeof named === 'string' ? named : '';
    return { webgl: true, renderer, software: SOFTWARE_RENDERERS.test(renderer) };
  } finally {
    // Browsers cap live contexts (16 in Chromium); free this one now rather than at GC.
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
