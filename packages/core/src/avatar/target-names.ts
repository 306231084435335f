/**
 * What a morph target or VRM expression name means for the rig: ARKit names in any common
 * spelling (`jawOpen`, `JawOpen`, `blendShape1.jawOpen`, `eyeBlink_L`, `mouth_smile_left`),
 * Oculus visemes (`viseme_aa` as Ready Player Me and Avaturn export them), VRM vowels (`A` … `O`,
 * VRM 1.0 `aa` `ih` `ou` `ee` `oh`, VRoid's `Fcl_MTH_A`), blinks and look directions.
 * Pure: no three.js, no DOM.
 */

import { ARKIT_BLENDSHAPES, type ArkitBlendshape, VISEMES, type Viseme } from '../rig.js';
import type { DriveChannel } from './channels.js';

/** The five VRM mouth vowels (VRM 1.0 preset names). */
export const VRM_VOWELS = ['aa', 'ih', 'ou', 'ee', 'oh'] as const;
/** A VRM mouth vowel. */
export type VrmVowel = (typeof VRM_VOWELS)[number];

/** A drive channel and the factor its value is multiplied by before it reaches a target. */
export interface ChannelInput {
  channel: DriveChannel;
  weight: number;
}

/**
 * What a target name stands for:
 * - `arkit` / `viseme`: exactly that channel;
 * - `vowel`: a VRM mouth vowel, driven from all 15 visemes through {@link VISEME_TO_VOWELS};
 * - `blink`: one eye (`left`/`right`) or both (`both`, the mean of the two ARKit blinks);
 * - `look`: a VRM look direction, moved by the avatar's lookAt from `eyePose`.
 */
export type TargetMeaning =
  | { role: 'arkit'; channel: ArkitBlendshape }
  | { role: 'viseme'; channel: `viseme_${Viseme}` }
  | { role: 'vowel'; vowel: VrmVowel }
  | { role: 'blink'; side: 'both' | 'left' | 'right' }
  | { role: 'look'; direction: 'up' | 'down' | 'left' | 'right' };

/**
 * How much each viseme opens each VRM vowel. Five vowel shapes cannot show lips pressed (`PP`)
 * or teeth on lip (`FF`), so consonants borrow the vowel closest in mouth opening and rounding,
 * at reduced weight; `sil` and `PP` leave the mouth closed.
 */
export const VISEME_TO_VOWELS: Readonly<Record<Viseme, Readonly<Partial<Record<VrmVowel, number>>>>> =
  Object.freeze({
    sil: {},
    PP: {},
    FF: { ih: 0.2 },
    TH: { aa: 0.15, ih: 0.25 },
    DD: { aa: 0.2, ih: 0.35 },
    kk: { aa: 0.35, ih: 0.2 },
    CH: { ih: 0.3, ou: 0.35 },
    SS: { ih: 0.45 },
    nn: { aa: 0.15, ih: 0.3 },
    RR: { ou: 0.35, oh: 0.2 },
    aa: { aa: 1 },
    E: { ee: 1 },
    I: { ih: 1 },
    O: { oh: 1 },
    U: { ou: 1 },
  });

/** The channel inputs of one vowel target: every viseme that opens it, with its factor. */
export function vowelInputs(vowel: VrmVowel): ChannelInput[] {
  const inputs: ChannelInput[] = [];
  for (const v of VISEMES) {
    const weight = VISEME_TO_VOWELS[v][vowel];
    if (weight) inputs.push({ channel: `viseme_${v}`, weight });
  }
  return inputs;
}

/** The channel inputs of a meaning (look directions have none: the lookAt moves them). */
export function meaningInputs(meaning: TargetMeaning): ChannelInput[] {
  switch (meaning.role) {
    case 'arkit':
    case 'viseme':
      return [{ channel: meaning.channel, weight: 1 }];
    case 'vowel':
      return vowelInputs(meaning.vowel);
    case 'blink':
      if (meaning.side === 'left') return [{ channel: 'eyeBlinkLeft', weight: 1 }];
      if (meaning.side === 'right') return [{ channel: 'eyeBlinkRight', weight: 1 }];
      return [
        { channel: 'eyeBlinkLeft', weight: 0.5 },
        { channel: 'eyeBlinkRight', weight: 0.5 },
      ];
    case 'look':
      return [];
  }
}

const key = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const ARKIT_BY_KEY = new Map<string, ArkitBlendshape>(ARKIT_BLENDSHAPES.map((n) => [key(n), n]));
const VISEME_BY_KEY = new Map<string, Viseme>(VISEMES.map((n) => [key(n), n]));

/** VRM 0.x / 1.0 preset names and common vowel morph names (after {@link key}). */
const PRESETS = new Map<string, TargetMeaning>([
  ['a', { role: 'vowel', vowel: 'aa' }],
  ['aa', { role: 'vowel', vowel: 'aa' }],
  ['i', { role: 'vowel', vowel: 'ih' }],
  ['ih', { role: 'vowel', vowel: 'ih' }],
  ['u', { role: 'vowel', vowel: 'ou' }],
  ['ou', { role: 'vowel', vowel: 'ou' }],
  ['e', { role: 'vowel', vowel: 'ee' }],
  ['ee', { role: 'vowel', vowel: 'ee' }],
  ['o', { role: 'vowel', vowel: 'oh' }],
  ['oh', { role: 'vowel', vowel: 'oh' }],
  ['blink', { role: 'blink', side: 'both' }],
  ['blinkl', { role: 'blink', side: 'left' }],
  ['blinkleft', { role: 'blink', side: 'left' }],
  ['blinkr', { role: 'blink', side: 'right' }],
  ['blinkright', { role: 'blink', side: 'right' }],
  ['lookup', { role: 'look', direction: 'up' }],
  ['lookdown', { role: 'look', direction: 'down' }],
  ['lookleft', { role: 'look', direction: 'left' }],
  ['lookright', { role: 'look', direction: 'right' }],
]);

/**
 * A morph-target name without its mesh or exporter prefix (`blendShape1.`, `Face.`, `BS_`,
 * `ARKit_`), and VRoid's `M_F00_000_00_Fcl_MTH_A` as `fcl_mth_a`: the part that names the shape.
 * @example stripTargetNamePrefixes('blendShape1.jawOpen') // 'jawOpen'
 */
export function stripTargetNamePrefixes(name: string): string {
  let s = name.trim();
  const dot = s.lastIndexOf('.');
  if (dot >= 0) s = s.slice(dot + 1);
  const vroid = /fcl_(mth|eye)_(.+)$/i.exec(s);
  if (vroid) return `fcl_${vroid[1]!.toLowerCase()}_${vroid[2]!.toLowerCase()}`;
  return s.replace(/^(blendshape\d*|bs|arkit|blend)[_\-:]+/i, '');
}

function resolveArkit(k: string): ArkitBlendshape | undefined {
  const direct = ARKIT_BY_KEY.get(k);
  if (direct) return direct;
  // Side suffixes: eyeBlink_L → eyeBlinkLeft; a split of an unsided shape (browInnerUp_L) → browInnerUp.
  const side = /^(.*?)(l|r|left|right)$/.exec(k);
  if (!side) return undefined;
  const stem = side[1]!;
  return ARKIT_BY_KEY.get(`${stem}${side[2]!.startsWith('l') ? 'left' : 'right'}`) ?? ARKIT_BY_KEY.get(stem);
}

function resolveVroid(s: string): TargetMeaning | undefined {
  const mouth = /^fcl_mth_(a|i|u|e|o)$/.exec(s);
  if (mouth) return PRESETS.get(mouth[1]!);
  const eye = /^fcl_eye_close(?:_(l|r))?$/.exec(s);
  if (eye) return PRESETS.get(eye[1] ? `blink${eye[1]}` : 'blink');
  return undefined;
}

/**
 * What a morph target or VRM expression name stands for, or `undefined` when it follows no
 * drive channel (emotions such as `happy`, clothing, correctives).
 *
 * @example
 * meaningOfTargetName('blendShape1.jawOpen'); // { role: 'arkit', channel: 'jawOpen' }
 * meaningOfTargetName('viseme_aa');           // { role: 'viseme', channel: 'viseme_aa' }
 * meaningOfTargetName('Fcl_MTH_A');           // { role: 'vowel', vowel: 'aa' }
 * meaningOfTargetName('blinkLeft');           // { role: 'blink', side: 'left' }
 */
export function meaningOfTargetName(name: string): TargetMeaning | undefined {
  if (typeof name !== 'string') return undefined;
  const stripped = stripTargetNamePrefixes(name);
  if (stripped.startsWith('fcl_')) return resolveVroid(stripped);
  const k = key(stripped);
  if (k.length === 0) return undefined;
  const visemeMatch = /^viseme(.+)$/.exec(k);
  if (visemeMatch) {
    const v = VISEME_BY_KEY.get(visemeMatch[1]!);
    return v ? { role: 'viseme', channel: `viseme_${v}` } : undefined;
  }
  const arkit = resolveArkit(k);
  if (arkit) return { role: 'arkit', channel: arkit };
  return PRESETS.get(k);
}
