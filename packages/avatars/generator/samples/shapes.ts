/**
 * Morph sets of the sample avatars made from the built-ins' geometry: each shape is a mix of the
 * face rig's ARKit fields, so the samples move like the built-ins while carrying the names other
 * tools export.
 */
import { ARKIT_BLENDSHAPES, type ArkitBlendshape, VISEMES, type Viseme } from '@avatar-drive/core';
import type { MorphShape } from '../assemble.js';

type Mix = Partial<Record<ArkitBlendshape, number>>;
const both = (stem: 'mouthStretch' | 'mouthSmile' | 'mouthPress' | 'mouthUpperUp', w: number): Mix => ({
  [`${stem}Left`]: w,
  [`${stem}Right`]: w,
});

/**
 * The VRM sample's morph targets: the ARKit components its expressions are made of. Every one is
 * bound by a VRM expression, so a player drives them only through the expressions.
 */
export const VRM_COMPONENTS = [
  'jawOpen',
  'mouthFunnel',
  'mouthPucker',
  'mouthStretchLeft',
  'mouthStretchRight',
  'mouthSmileLeft',
  'mouthSmileRight',
  'eyeBlinkLeft',
  'eyeBlinkRight',
] as const satisfies readonly ArkitBlendshape[];

export const VRM_SHAPES: readonly MorphShape[] = VRM_COMPONENTS.map((name) => ({ name, mix: { [name]: 1 } }));

/** VRM 1.0 preset expressions of the sample: the component weights each one sets. */
export const VRM_EXPRESSIONS: Readonly<Record<string, Mix>> = {
  aa: { jawOpen: 0.75, ...both('mouthStretch', 0.1) },
  ih: { jawOpen: 0.25, ...both('mouthStretch', 0.55), ...both('mouthSmile', 0.2) },
  ou: { jawOpen: 0.2, mouthPucker: 0.85, mouthFunnel: 0.3 },
  ee: { jawOpen: 0.35, ...both('mouthStretch', 0.4), ...both('mouthSmile', 0.3) },
  oh: { jawOpen: 0.45, mouthFunnel: 0.75 },
  blink: { eyeBlinkLeft: 1, eyeBlinkRight: 1 },
  blinkLeft: { eyeBlinkLeft: 1 },
  blinkRight: { eyeBlinkRight: 1 },
  happy: both('mouthSmile', 0.8),
};

/** The Oculus visemes as Ready Player Me exports them, made of ARKit fields. */
const VISEME_MIX: Readonly<Record<Viseme, Mix>> = {
  sil: {},
  PP: { mouthClose: 0.6, ...both('mouthPress', 0.5) },
  FF: { mouthRollLower: 0.6, ...both('mouthUpperUp', 0.2), jawOpen: 0.05 },
  TH: { jawOpen: 0.2, tongueOut: 0.4 },
  DD: { jawOpen: 0.25, ...both('mouthStretch', 0.2) },
  kk: { jawOpen: 0.3, ...both('mouthStretch', 0.2) },
  CH: { mouthFunnel: 0.5, jawOpen: 0.2, mouthShrugUpper: 0.2 },
  SS: { ...both('mouthStretch', 0.4), jawOpen: 0.1, ...both('mouthSmile', 0.2) },
  nn: { jawOpen: 0.2, mouthClose: 0.1 },
  RR: { mouthFunnel: 0.35, mouthPucker: 0.3, jawOpen: 0.2 },
  aa: { jawOpen: 0.7 },
  E: { jawOpen: 0.35, ...both('mouthStretch', 0.45) },
  I: { jawOpen: 0.2, ...both('mouthStretch', 0.6), ...both('mouthSmile', 0.25) },
  O: { jawOpen: 0.45, mouthFunnel: 0.7 },
  U: { jawOpen: 0.15, mouthPucker: 0.85 },
};

/**
 * The Ready Player Me / Avaturn sample's morph targets: 15 Oculus visemes, the 52 ARKit
 * blendshapes, and RPM's own `mouthOpen` and `mouthSmile`.
 */
export const RPM_SHAPES: readonly MorphShape[] = [
  ...VISEMES.map((v) => ({ name: `viseme_${v}`, mix: VISEME_MIX[v] })),
  ...ARKIT_BLENDSHAPES.map((name) => ({ name, mix: { [name]: 1 } })),
  { name: 'mouthOpen', mix: { jawOpen: 1 } },
  { name: 'mouthSmile', mix: both('mouthSmile', 1) },
];
