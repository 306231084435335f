/**
 * The look of each built-in avatar: everything that differs between them. Geometry code reads
 * only these numbers, so a new avatar is a new entry here.
 */

export type HairStyle = 'swept-fringe' | 'bun';

export interface AvatarStyle {
  /** Stable id: directory name and the `?id=` the service answers to. */
  id: string;
  name: string;
  description: string;
  /** Head half-extents in metres (x: ear to ear, y: chin to crown, z: face to back). */
  head: [number, number, number];
  /**
   * Vertical stretch of the face below the eyes and of the cranium above the brows (1: the compact
   * design space the features are modelled in; see proportions.ts).
   */
  lowerFace: number;
  cranium: number;
  /** Vertical stretch below the lower lip, on top of `lowerFace` (< 1: a shorter chin). */
  chin: number;
  /** How much narrower the jaw is than the cranium (0..1). */
  jawTaper: number;
  /**
   * Soft tissue over the face (metres, 0 or absent: none): `cheeks` fills the cheek between the
   * cheekbone and the jaw beside the mouth, with the fold from the nose wing to the mouth corner
   * in front of it; `jaw` sets the angle of the jaw out below the ear so a jawline runs to the chin.
   */
  sculpt?: { cheeks: number; jaw: number };
  /** Eye radius and half-distance between the eye centres (metres). */
  eyeRadius: number;
  eyeSpacing: number;
  /** Mouth half-width as an angle around the head centre (radians). */
  mouthHalfAngle: number;
  /** Lip fullness (metres of bulge at the fullest point). */
  lipFullness: number;
  /** Nose bridge height (metres). */
  noseHeight: number;
  colors: {
    skin: number;
    blush: number;
    lips: number;
    iris: number;
    irisRim: number;
    hair: number;
    hairTip: number;
    brows: number;
    shirt: number;
    collar: number;
  };
  hair: HairStyle;
  /** Shoulder half-width (metres). */
  shoulders: number;
}

export const AVATAR_STYLES: readonly AvatarStyle[] = [
  {
    id: 'mika',
    name: 'Mika',
    description:
      'Friendly stylised presenter with warm skin, a swept dark-brown fringe, hazel eyes and a teal hoodie.',
    head: [0.073, 0.098, 0.09],
    lowerFace: 1.28,
    cranium: 1.08,
    chin: 0.85,
    jawTaper: 0.27,
    sculpt: { cheeks: 0.004, jaw: 0.006 },
    eyeRadius: 0.0138,
    eyeSpacing: 0.0325,
    mouthHalfAngle: 0.24,
    lipFullness: 0.0038,
    noseHeight: 0.0165,
    colors: {
      skin: 0xe9b594,
      blush: 0xe58f86,
      lips: 0xc8716a,
      iris: 0x6b8f3e,
      irisRim: 0x2f3d1b,
      hair: 0x3b2519,
      hairTip: 0x5c3a24,
      brows: 0x34200f,
      shirt: 0x2c8c88,
      collar: 0xe8e2d4,
    },
    hair: 'swept-fringe',
    shoulders: 0.2,
  },
  {
    id: 'juno',
    name: 'Juno',
    description:
      'Cheerful stylised guide with deep-brown skin, a high bun, amber eyes and a mustard knit sweater.',
    head: [0.075, 0.1, 0.091],
    lowerFace: 1.27,
    cranium: 1.08,
    chin: 0.85,
    jawTaper: 0.27,
    sculpt: { cheeks: 0.002, jaw: 0.006 },
    eyeRadius: 0.014,
    eyeSpacing: 0.033,
    mouthHalfAngle: 0.25,
    lipFullness: 0.0056,
    noseHeight: 0.015,
    colors: {
      skin: 0x8d5a3f,
      blush: 0xa45a48,
      lips: 0x6e3a33,
      iris: 0x8a5a20,
      irisRim: 0x3a220c,
      hair: 0x1d1512,
      hairTip: 0x3a2a22,
      brows: 0x17100c,
      shirt: 0xd9a43b,
      collar: 0xf1e9d8,
    },
    hair: 'bun',
    shoulders: 0.2,
  },
];
