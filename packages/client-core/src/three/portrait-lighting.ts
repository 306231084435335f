/**
 * The portrait light rig and tone mapping every view renders avatars with (web, React Native and
 * the avatars package's render tests), so an avatar looks the same everywhere and its colours
 * come out as designed: a front-lit diffuse surface renders close to its base colour. (ACES
 * filmic, used before, brightens by 1/0.6 before its curve and desaturates: skin came out
 * visibly paler than its sRGB design colour.)
 */
import * as THREE from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';

/** Tone mapping and exposure for the avatar views: Khronos PBR Neutral keeps base colours. */
export const PORTRAIT_TONE_MAPPING = THREE.NeutralToneMapping;
export const PORTRAIT_EXPOSURE = 1.0;

/** Sets sRGB output and the portrait tone mapping on a renderer. */
export function configurePortraitRenderer(renderer: THREE.WebGLRenderer): void {
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.toneMapping = PORTRAIT_TONE_MAPPING;
  renderer.toneMappingExposure = PORTRAIT_EXPOSURE;
}

/**
 * Adds the lights to `scene`: a warm key from above left, a cool fill, a soft bounce from below
 * the camera, a rim from behind and a hemisphere; with `renderer`, also a dim room environment
 * for reflections (eyes, lips, hair sheen). Returns the environment texture to dispose, if any.
 */
export function addPortraitLights(
  scene: THREE.Scene,
  renderer: THREE.WebGLRenderer | undefined,
  environment = true,
): THREE.Texture | undefined {
  let texture: THREE.Texture | undefined;
  if (environment && renderer) {
    const pmrem = new THREE.PMREMGenerator(renderer);
    const room = new RoomEnvironment();
    texture = pmrem.fromScene(room, 0.04).texture;
    scene.environment = texture;
    scene.environmentIntensity = 0.35;
    room.dispose();
    pmrem.dispose();
  }
  const key = new THREE.DirectionalLight(0xfff1e0, 2.5);
  key.position.set(-1.3, 1.6, 1.6);
  const fill = new THREE.DirectionalLight(0xdfe8ff, 0.35);
  fill.position.set(1.3, 1.4, 1.2);
  // A soft bounce from below the camera keeps the lower face out of shadow.
  const bounce = new THREE.DirectionalLight(0xffe6d8, 0.25);
  bounce.position.set(0, 0.4, 1.6);
  const rim = new THREE.DirectionalLight(0xd8e6ff, 1.5);
  rim.position.set(0.7, 1.8, -1.6);
  scene.add(key, fill, bounce, rim, new THREE.HemisphereLight(0xf3f6ff, 0x7a6458, 0.35));
  return texture;
}
