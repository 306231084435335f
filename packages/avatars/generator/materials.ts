/** PBR materials: skin with a faint warm sheen, glossy eyes, fabric with a velvet sheen. */
import * as THREE from 'three';
import type { MaterialKey } from './part.js';
import type { AvatarStyle } from './style.js';

export function createMaterials(style: Pick<AvatarStyle, 'colors'>): Record<MaterialKey, THREE.Material> {
  const c = style.colors;
  const lighter = (hex: number, k: number): THREE.Color =>
    new THREE.Color(hex).lerp(new THREE.Color(0xffffff), k);
  return {
    skin: new THREE.MeshPhysicalMaterial({
      name: 'Skin',
      vertexColors: true,
      roughness: 0.5,
      metalness: 0,
      // A little sheen for the soft rim skin has; more veils the base colour and reads as pale.
      sheen: 0.15,
      sheenColor: lighter(c.blush, 0.2),
      sheenRoughness: 0.45,
      specularIntensity: 0.5,
    }),
    mouth: new THREE.MeshStandardMaterial({ name: 'Mouth', vertexColors: true, roughness: 0.5 }),
    // The eyeball is moist: a soft clearcoat sheen over sclera and iris.
    eye: new THREE.MeshPhysicalMaterial({
      name: 'Eye',
      vertexColors: true,
      roughness: 0.35,
      clearcoat: 0.5,
      clearcoatRoughness: 0.1,
    }),
    // A clear, glossy shell over the iris that carries the sharp highlights. Alpha-blended, not
    // transmissive: transmission re-renders the whole scene every frame (≈ 1.7× the frame time in
    // SwiftShader) for a few hundred pixels. Its black base only tints the iris (the iris colours
    // are brightened to match); the blend scales its reflections by the opacity, so the
    // highlights are made sharp and strong enough to stand out after it.
    cornea: new THREE.MeshPhysicalMaterial({
      name: 'Cornea',
      color: 0x000000,
      transparent: true,
      opacity: 0.3,
      depthWrite: false,
      roughness: 0.06,
      metalness: 0,
      specularIntensity: 1,
      clearcoat: 1,
      clearcoatRoughness: 0.03,
    }),
    teeth: new THREE.MeshPhysicalMaterial({
      name: 'Teeth',
      vertexColors: true,
      roughness: 0.32,
      clearcoat: 0.4,
      clearcoatRoughness: 0.2,
    }),
    tongue: new THREE.MeshPhysicalMaterial({
      name: 'Tongue',
      vertexColors: true,
      roughness: 0.42,
      sheen: 0.3,
      sheenColor: new THREE.Color(0xffb0b0),
      sheenRoughness: 0.4,
    }),
    hair: new THREE.MeshPhysicalMaterial({
      name: 'Hair',
      vertexColors: true,
      roughness: 0.48,
      sheen: 0.7,
      sheenColor: lighter(c.hairTip, 0.3),
      sheenRoughness: 0.35,
    }),
    // Cards that wear the strand texture: its alpha cuts the strands out (glTF MASK: no sorting,
    // so layers of cards draw correctly in any order). Single-sided and without sheen: a masked
    // fragment is shaded before the depth test can drop it, so in software rendering every card
    // layer costs a full shade — drawing both sides with the physical sheen lobe doubled the
    // frame (docs/benchmarks/log/2026-11.md, "The textured built-in vs vertex colours").
    // Rough enough that the white specular of a standard material spreads into a soft sheen
    // instead of a grey veil of sky over dark hair; the warm highlight is painted into the vertex
    // colours and broken up by the strand texture. (A tinted physical specular looked a little
    // better but cost 1.1–1.4× the frame with the default view options: docs/benchmarks/log/2026-11.md.)
    hairCards: new THREE.MeshStandardMaterial({
      name: 'HairCards',
      vertexColors: true,
      roughness: 0.62,
      alphaTest: 0.5,
    }),
    // The shell under the cards: hair seen deep between the locks, matte (no sheen to veil it).
    scalp: new THREE.MeshStandardMaterial({ name: 'Scalp', vertexColors: true, roughness: 0.8 }),
    brows: new THREE.MeshStandardMaterial({ name: 'Brows', vertexColors: true, roughness: 0.85 }),
    // Lashes: matte and dark (the skin's sheen would tint them pink).
    lashes: new THREE.MeshStandardMaterial({ name: 'Lashes', vertexColors: true, roughness: 0.9 }),
    cloth: new THREE.MeshPhysicalMaterial({
      name: 'Cloth',
      vertexColors: true,
      roughness: 0.88,
      sheen: 0.8,
      sheenColor: lighter(c.shirt, 0.45),
      sheenRoughness: 0.6,
    }),
    collar: new THREE.MeshPhysicalMaterial({
      name: 'Collar',
      vertexColors: true,
      roughness: 0.85,
      sheen: 0.5,
      sheenColor: new THREE.Color(0xffffff),
      sheenRoughness: 0.6,
    }),
  };
}

/**
 * The face's textured skin: base colour, normals and roughness come from the baked maps (the
 * vertex colours multiply the base colour: white on the skin, darker inside the mouth), so the
 * factors here are neutral; the sheen and specular match the untextured skin round it.
 */
export function createFaceMaterial(
  style: Pick<AvatarStyle, 'colors'>,
  name = 'FaceSkin',
): THREE.MeshPhysicalMaterial {
  return new THREE.MeshPhysicalMaterial({
    name,
    vertexColors: true,
    roughness: 1,
    metalness: 0,
    sheen: 0.15,
    sheenColor: new THREE.Color(style.colors.blush).lerp(new THREE.Color(0xffffff), 0.2),
    sheenRoughness: 0.45,
    specularIntensity: 0.5,
  });
}
