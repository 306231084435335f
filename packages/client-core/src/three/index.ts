/**
 * `@avatar-drive/client-core/three`: the three.js scene, rig binding and framing that the web
 * and React Native views share. Imports three (a peer dependency of the platform packages).
 * @packageDocumentation
 */
export { AvatarScene, type AvatarSceneOptions } from './avatar-scene.js';
export type { Ktx2LoaderSource } from './gltf-decoders.js';
export {
  addPortraitLights,
  configurePortraitRenderer,
  PORTRAIT_EXPOSURE,
  PORTRAIT_TONE_MAPPING,
} from './portrait-lighting.js';
export { dropSurfaceDetail } from './surface-detail.js';
