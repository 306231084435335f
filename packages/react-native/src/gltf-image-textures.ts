/**
 * A GLTFLoader plugin that turns a glTF's embedded JPEG and PNG images into `THREE.DataTexture`s
 * decoded in JavaScript ({@link decodeImage}), in place of three.js' own path through the DOM
 * (`Image`, `createImageBitmap`), which React Native does not have. The textures come out as
 * three's would: flipY false (glTF's convention), the sampler's filters and wrapping, mipmaps
 * generated on the GPU, and the colour space the material slot sets (sRGB for colour maps).
 */

import { AvatarError } from '@avatar-drive/core';
import * as THREE from 'three';
import type { GLTFLoaderPlugin, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import {
  checkImageSize,
  DEFAULT_MAX_IMAGE_PIXELS,
  decodeImage,
  type ImageLimits,
  readImageSize,
  sniffImageKind,
} from './image-decoding.js';

/** Options of {@link jsImageTextures}. */
export interface JsImageTexturesOptions extends ImageLimits {
  /** Most pixels over all images of one model; default 4 · 4096 · 4096 (256 MiB of RGBA). */
  maxTotalPixels?: number;
  /** Names the model in error messages (e.g. "Avatar noa"); default "The model". */
  label?: string;
}

/** A factory GLTFLoader's `register` takes. */
export type GltfPluginFactory = (parser: GLTFParser) => GLTFLoaderPlugin;

interface GltfImageDef {
  bufferView?: number;
  uri?: string;
  mimeType?: string;
  name?: string;
}
interface GltfTextureDef {
  source?: number;
  sampler?: number;
  name?: string;
}
interface GltfSamplerDef {
  magFilter?: number;
  minFilter?: number;
  wrapS?: number;
  wrapT?: number;
}

const FILTERS: Record<number, THREE.MagnificationTextureFilter | THREE.MinificationTextureFilter> = {
  9728: THREE.NearestFilter,
  9729: THREE.LinearFilter,
  9984: THREE.NearestMipmapNearestFilter,
  9985: THREE.LinearMipmapNearestFilter,
  9986: THREE.NearestMipmapLinearFilter,
  9987: THREE.LinearMipmapLinearFilter,
};
const WRAPPINGS: Record<number, THREE.Wrapping> = {
  33071: THREE.ClampToEdgeWrapping,
  33648: THREE.MirroredRepeatWrapping,
  10497: THREE.RepeatWrapping,
};

/**
 * The plugin factory to `register` on a GLTFLoader: each texture whose image is JPEG or PNG
 * (embedded in the GLB or a `data:` URI) is decoded here. Textures that an extension supplies
 * (KTX2, WebP, AVIF) are left to three's plugins, which run first.
 *
 * Errors reject the parse (three would log them and draw the mesh untextured): an image over the
 * limits with `assetDownloadFailed` and `details.problem` `tooLarge`, an external URI with
 * `externalUri`, an undecodable image with the decoder's reason.
 *
 * @example
 * ```ts
 * import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
 * const loader = new GLTFLoader();
 * loader.register(jsImageTextures({ maxSide: 2048 }));
 * ```
 */
export function jsImageTextures(options: JsImageTexturesOptions = {}): GltfPluginFactory {
  return (parser) => new JsImageTexturePlugin(parser, options);
}

class JsImageTexturePlugin implements GLTFLoaderPlugin {
  readonly name = 'AVATAR_DRIVE_js_image_textures';
  readonly #parser: GLTFParser;
  readonly #options: JsImageTexturesOptions;
  readonly #label: string;
  /** Decoded images by source index: textures sharing an image share its pixels (three's `Source`). */
  readonly #sources = new Map<number, Promise<THREE.DataTexture>>();
  #pixels = 0;
  /** The first refusal: once the parse is failing, the remaining images are not decoded. */
  #failure: unknown;

  constructor(parser: GLTFParser, options: JsImageTexturesOptions) {
    this.#parser = parser;
    this.#options = options;
    this.#label = options.label ?? 'The model';
  }

  loadTexture(textureIndex: number): Promise<THREE.Texture> | null {
    const json = this.#parser.json as {
      textures?: GltfTextureDef[];
      images?: GltfImageDef[];
      samplers?: GltfSamplerDef[];
    };
    const textureDef = json.textures?.[textureIndex];
    if (textureDef?.source === undefined) return null;
    const sourceIndex = textureDef.source;
    let base = this.#sources.get(sourceIndex);
    if (!base) {
      base = this.#decodeSource(sourceIndex, json.images?.[sourceIndex]).catch((error: unknown) => {
        this.#failure ??= error;
        throw error;
      });
      this.#sources.set(sourceIndex, base);
    }
    return base.then((decoded) => {
      const texture = decoded.clone(); // shares the decoded pixels; sampler state is per texture
      const sampler = json.samplers?.[textureDef.sampler ?? -1] ?? {};
      texture.name = textureDef.name || decoded.name;
      texture.flipY = false;
      texture.magFilter = (FILTERS[sampler.magFilter ?? -1] ??
        THREE.LinearFilter) as THREE.MagnificationTextureFilter;
      texture.minFilter = (FILTERS[sampler.minFilter ?? -1] ??
        THREE.LinearMipmapLinearFilter) as THREE.MinificationTextureFilter;
      texture.wrapS = WRAPPINGS[sampler.wrapS ?? -1] ?? THREE.RepeatWrapping;
      texture.wrapT = WRAPPINGS[sampler.wrapT ?? -1] ?? THREE.RepeatWrapping;
      texture.generateMipmaps =
        texture.minFilter !== THREE.NearestFilter && texture.minFilter !== THREE.LinearFilter;
      texture.needsUpdate = true;
      this.#parser.associations.set(texture, { textures: textureIndex });
      return texture;
    });
  }

  async #decodeSource(index: number, image: GltfImageDef | undefined): Promise<THREE.DataTexture> {
    const label = `${this.#label}'s image ${index}${image?.name ? ` (${image.name})` : ''}`;
    if (!image)
      throw new AvatarError('assetDownloadFailed', `${label} is not in the glTF's images.`, {
        phase: 'load',
      });
    let bytes: Uint8Array;
    if (image.bufferView !== undefined) {
      const view = (await this.#parser.getDependency('bufferView', image.bufferView)) as ArrayBuffer;
      bytes = new Uint8Array(view);
    } else if (typeof image.uri === 'string' && image.uri.startsWith('data:')) {
      bytes = dataUriBytes(image.uri, label);
    } else {
      throw new AvatarError(
        'assetDownloadFailed',
        `${label} points outside the file (${String(image.uri).slice(0, 60)}); embed it in the GLB.`,
        { phase: 'load', details: { problem: 'externalUri' } },
      );
    }
    // The model's budget is checked from the header, before anything is decoded.
    const kind = sniffImageKind(bytes);
    if (kind) {
      const { width, height } = readImageSize(bytes, kind, label);
      checkImageSize(width, height, this.#options, label);
      const budget = this.#options.maxTotalPixels ?? 4 * DEFAULT_MAX_IMAGE_PIXELS;
      this.#pixels += width * height;
      if (this.#pixels > budget) {
        throw new AvatarError(
          'assetDownloadFailed',
          `${this.#label}'s images add up to more than ${budget} pixels; React Native decodes at most that per model. Re-export it with smaller or fewer textures.`,
          { phase: 'load', details: { problem: 'tooLarge', maxTotalPixels: budget } },
        );
      }
    }
    // Decoding blocks the JS thread (a 2048² JPEG takes seconds on a phone): let pending frames and
    // events run between images.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    if (this.#failure !== undefined) throw this.#failure;
    const decoded = decodeImage(bytes, this.#options, label);
    const texture = new THREE.DataTexture(
      decoded.data,
      decoded.width,
      decoded.height,
      THREE.RGBAFormat,
      THREE.UnsignedByteType,
    );
    texture.name = image.name ?? '';
    return texture;
  }
}

// Hermes (React Native ≥ 0.74) and browsers have it; React Native's typings do not declare it.
declare function atob(data: string): string;

function dataUriBytes(uri: string, label: string): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0 || !uri.slice(0, comma).endsWith(';base64')) {
    throw new AvatarError('assetDownloadFailed', `${label} is a data: URI that is not base64.`, {
      phase: 'load',
    });
  }
  const text = atob(uri.slice(comma + 1));
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
