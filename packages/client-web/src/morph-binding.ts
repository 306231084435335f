/**
 * Morph-target names → rig channels, so any glTF avatar follows the `arkit-52` rig: ARKit names
 * in common spellings (`jawOpen`, `JawOpen`, `blendShape1.jawOpen`, `eyeBlink_L`), Oculus
 * visemes (`viseme_aa`, `viseme_PP` …) and VRM presets (`A` `I` `U` `E` `O`, `Blink`,
 * `Blink_L`/`Blink_R`). Pure: no three.js.
 */
import {
  ARKIT_BLENDSHAPES,
  ARKIT_INDEX,
  type ArkitBlendshape,
  type DriveFrame,
  VISEMES,
} from '@avatar-drive/core';

/** Which frame values drive a morph target: the mean of some expression or viseme channels. */
export interface RigChannel {
  kind: 'arkit' | 'viseme';
  indices: readonly number[];
}

const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const ARKIT_BY_KEY = new Map<string, number>(ARKIT_BLENDSHAPES.map((n, i) => [norm(n), i]));
const VISEME_BY_KEY = new Map<string, number>(VISEMES.map((n, i) => [norm(n), i]));
const arkit = (...names: ArkitBlendshape[]): RigChannel => ({
  kind: 'arkit',
  indices: names.map((n) => ARKIT_INDEX[n]),
});
const viseme = (name: string): RigChannel => ({ kind: 'viseme', indices: [VISEME_BY_KEY.get(norm(name))!] });

const VRM_PRESETS = new Map<string, RigChannel>([
  ['a', viseme('aa')],
  ['aa', viseme('aa')],
  ['i', viseme('I')],
  ['ih', viseme('I')],
  ['u', viseme('U')],
  ['ou', viseme('U')],
  ['e', viseme('E')],
  ['ee', viseme('E')],
  ['o', viseme('O')],
  ['oh', viseme('O')],
  ['blink', arkit('eyeBlinkLeft', 'eyeBlinkRight')],
  ['blinkl', arkit('eyeBlinkLeft')],
  ['blinkleft', arkit('eyeBlinkLeft')],
  ['blinkr', arkit('eyeBlinkRight')],
  ['blinkright', arkit('eyeBlinkRight')],
]);

/**
 * The rig channel a morph target named `name` follows, or `null` when it matches none.
 * @example resolveMorphTarget('viseme_aa') // { kind: 'viseme', indices: [10] }
 */
export function resolveMorphTarget(name: string): RigChannel | null {
  // Drop mesh prefixes like "blendShape1." or "Face:".
  const bare = name.slice(Math.max(name.lastIndexOf('.'), name.lastIndexOf(':')) + 1);
  const visemeMatch = /^viseme[_-]?(.+)$/i.exec(bare);
  if (visemeMatch) {
    const index = VISEME_BY_KEY.get(norm(visemeMatch[1]!));
    return index === undefined ? null : { kind: 'viseme', indices: [index] };
  }
  // eyeBlink_L / eyeBlink_R → eyeBlinkLeft / eyeBlinkRight.
  const sided = bare.replace(/[_-]?L$/, 'Left').replace(/[_-]?R$/, 'Right');
  for (const candidate of [bare, sided]) {
    const index = ARKIT_BY_KEY.get(norm(candidate));
    if (index !== undefined) return { kind: 'arkit', indices: [index] };
  }
  return VRM_PRESETS.get(norm(bare)) ?? null;
}

/** The weight a channel has in `frame` (mean of its indices, clamped to 0..1). */
export function channelWeight(channel: RigChannel, frame: DriveFrame): number {
  const source = channel.kind === 'arkit' ? frame.expression : frame.visemes;
  let sum = 0;
  for (const i of channel.indices) sum += source[i] ?? 0;
  const value = sum / channel.indices.length;
  return Math.min(1, Math.max(0, value));
}

/** How a set of morph-target names maps onto the rig. */
export interface MorphMapping {
  /** Target index → channel, for every target that matched. */
  bindings: Array<{ name: string; targetIndex: number; channel: RigChannel }>;
  /** ARKit blendshapes that no target follows. */
  missingArkit: ArkitBlendshape[];
  /** Whether any target is an Oculus/VRM viseme. */
  hasVisemes: boolean;
}

/** Maps a mesh's `morphTargetDictionary` (name → index) onto the rig. */
export function mapMorphTargets(dictionary: Readonly<Record<string, number>>): MorphMapping {
  const bindings: MorphMapping['bindings'] = [];
  const covered = new Set<number>();
  let hasVisemes = false;
  for (const [name, targetIndex] of Object.entries(dictionary)) {
    const channel = resolveMorphTarget(name);
    if (!channel) continue;
    bindings.push({ name, targetIndex, channel });
    if (channel.kind === 'arkit') for (const i of channel.indices) covered.add(i);
    else hasVisemes = true;
  }
  const missingArkit = ARKIT_BLENDSHAPES.filter((_, i) => !covered.has(i));
  return { bindings, missingArkit, hasVisemes };
}
