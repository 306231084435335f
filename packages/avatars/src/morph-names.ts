/**
 * Morph-target names → rig channels. Lets any glTF avatar follow the `arkit-52` rig: ARKit names
 * in any common spelling (`jawOpen`, `JawOpen`, `blendShape1.jawOpen`, `eyeBlink_L`,
 * `mouth_smile_left`), Oculus visemes (`viseme_aa` …), VRM presets (`A` `I` `U` `E` `O`,
 * `Blink`, `Blink_L`, VRM 1.0 `aa` `ih` `ou` `ee` `oh`) and VRoid's `Fcl_MTH_*` / `Fcl_EYE_Close*`.
 * What a name means is core's `meaningOfTargetName` (one parser for every client); this module
 * turns that meaning into the rig channel a morph follows. Pure: no three.js, no DOM.
 */
import {
  ARKIT_BLENDSHAPES,
  ARKIT_INDEX,
  type ArkitBlendshape,
  meaningOfTargetName,
  stripTargetNamePrefixes,
  type TargetMeaning,
  VISEME_INDEX,
  VISEMES,
  type Viseme,
  type VrmVowel,
} from '@avatar-drive/core';

/**
 * Where a morph target takes its weight from: the mean of one or more channels of the rig's
 * `expression` (ARKit, {@link ARKIT_BLENDSHAPES} order) or `visemes` ({@link VISEMES} order).
 */
export interface RigChannel {
  kind: 'arkit' | 'viseme';
  /** Channel indices; the target's weight is their mean (e.g. `Blink` = both eye blinks). */
  indices: readonly number[];
}

/** One morph target of a mesh bound to its rig channel. */
export interface MorphBinding {
  /** The morph target's name as the model spells it. */
  target: string;
  /** Its index in the mesh's morph target list. */
  targetIndex: number;
  channel: RigChannel;
}

/** How a mesh's morph targets map onto the rig. */
export interface MorphMapping {
  bindings: MorphBinding[];
  /** Target names that match no rig channel (left at their rest weight). */
  unmatched: string[];
  /** ARKit blendshapes no target follows. */
  missingArkit: ArkitBlendshape[];
  /** Visemes no target follows. */
  missingVisemes: Viseme[];
}

const arkit = (...names: ArkitBlendshape[]): RigChannel => ({
  kind: 'arkit',
  indices: names.map((n) => ARKIT_INDEX[n]),
});
const viseme = (name: Viseme): RigChannel => ({ kind: 'viseme', indices: [VISEME_INDEX[name]] });

/** The viseme each VRM vowel preset follows (a morph follows one channel, not the vowel mix). */
const VOWEL_VISEME: Readonly<Record<VrmVowel, Viseme>> = { aa: 'aa', ih: 'I', ou: 'U', ee: 'E', oh: 'O' };

/** The rig channel of a name's meaning (core's {@link meaningOfTargetName}); look directions have none. */
function channelOf(meaning: TargetMeaning): RigChannel | null {
  switch (meaning.role) {
    case 'arkit':
      return arkit(meaning.channel);
    case 'viseme':
      return viseme(meaning.channel.slice('viseme_'.length) as Viseme);
    case 'vowel':
      return viseme(VOWEL_VISEME[meaning.vowel]);
    case 'blink':
      if (meaning.side === 'left') return arkit('eyeBlinkLeft');
      if (meaning.side === 'right') return arkit('eyeBlinkRight');
      return arkit('eyeBlinkLeft', 'eyeBlinkRight');
    case 'look':
      return null;
  }
}

/**
 * The rig channel a morph target follows, or null when it follows none.
 *
 * @example
 * resolveMorphTarget('blendShape1.jawOpen'); // { kind: 'arkit', indices: [17] }
 * resolveMorphTarget('viseme_aa');           // { kind: 'viseme', indices: [10] }
 * resolveMorphTarget('Blink');               // { kind: 'arkit', indices: [0, 7] }
 */
export function resolveMorphTarget(name: string): RigChannel | null {
  const meaning = meaningOfTargetName(name);
  if (meaning) return channelOf(meaning);
  // A two-sided smile some exporters add: both ARKit smiles.
  return /^mouth[_\-\s]?smile$/i.test(stripTargetNamePrefixes(name))
    ? arkit('mouthSmileLeft', 'mouthSmileRight')
    : null;
}

/**
 * Binds a mesh's morph targets to the rig. Accepts three.js `morphTargetDictionary` or a plain
 * list of names in target order (glTF `extras.targetNames`).
 *
 * @example
 * const mapping = mapMorphTargets(mesh.morphTargetDictionary ?? {});
 * if (mapping.missingArkit.length) console.warn(`avatar lacks ${mapping.missingArkit.join(', ')}`);
 * for (const b of mapping.bindings) mesh.morphTargetInfluences![b.targetIndex] = channelWeight(b.channel, frame);
 */
export function mapMorphTargets(targets: Readonly<Record<string, number>> | readonly string[]): MorphMapping {
  const entries: [string, number][] = Array.isArray(targets)
    ? (targets as readonly string[]).map((name, i) => [name, i])
    : Object.entries(targets as Record<string, number>).sort((a, b) => a[1] - b[1]);
  const bindings: MorphBinding[] = [];
  const unmatched: string[] = [];
  const seenArkit = new Set<number>();
  const seenVisemes = new Set<number>();
  for (const [target, targetIndex] of entries) {
    const channel = resolveMorphTarget(target);
    if (!channel) {
      unmatched.push(target);
      continue;
    }
    bindings.push({ target, targetIndex, channel });
    for (const i of channel.indices) (channel.kind === 'arkit' ? seenArkit : seenVisemes).add(i);
  }
  return {
    bindings,
    unmatched,
    missingArkit: ARKIT_BLENDSHAPES.filter((_, i) => !seenArkit.has(i)),
    missingVisemes: VISEMES.filter((_, i) => !seenVisemes.has(i)),
  };
}

/** A channel's weight in a frame: the mean of its indices in `expression` or `visemes`. */
export function channelWeight(
  channel: RigChannel,
  frame: { expression: ArrayLike<number>; visemes: ArrayLike<number> },
): number {
  const source = channel.kind === 'arkit' ? frame.expression : frame.visemes;
  let sum = 0;
  for (const i of channel.indices) sum += source[i] ?? 0;
  return channel.indices.length > 0 ? sum / channel.indices.length : 0;
}
