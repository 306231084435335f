/**
 * Avatar coverage: which drive channels an avatar binds, to what, which are missing and how
 * they fall back. One pure planner serves everyone: the service reports coverage for an upload
 * from its glTF JSON ({@link describeAvatarCoverage}); renderers bind from the same plan
 * ({@link planAvatarDrive}) built from the objects they loaded, so what they report is what drives.
 * Platform-neutral: no three.js, no DOM.
 */

import {
  DRIVE_CHANNELS,
  type DriveChannel,
  isMouthChannel,
  type PoseChannel,
  VISEME_CHANNELS,
} from './avatar/channels.js';
import { type AvatarRigSources, type PoseBoneName, readRigSources } from './avatar/rig-sources.js';
import {
  type ChannelInput,
  meaningInputs,
  meaningOfTargetName,
  type TargetMeaning,
} from './avatar/target-names.js';
import { describeValue } from './describe.js';
import { AvatarError } from './errors.js';
import { ARKIT_BLENDSHAPES } from './rig.js';

export * from './avatar/channels.js';
export * from './avatar/rig-sources.js';
export * from './avatar/target-names.js';

/**
 * How an avatar's face is rigged:
 * - `vrm1` / `vrm0`: a VRM 1.0 (`VRMC_vrm`) or 0.x (`VRM`) model, driven through its expressions;
 * - `arkit+oculus-visemes`: ARKit-52 and Oculus viseme morphs (Ready Player Me, Avaturn);
 * - `arkit`: ARKit-named morph targets;
 * - `oculus-visemes`: Oculus viseme morphs only;
 * - `vowels`: plain glTF with vowel morphs (`A` `I` `U` `E` `O`, VRoid `Fcl_MTH_*`);
 * - `unrigged`: nothing the drive can move in the face.
 */
export type AvatarFormat =
  | 'vrm1'
  | 'vrm0'
  | 'arkit+oculus-visemes'
  | 'arkit'
  | 'oculus-visemes'
  | 'vowels'
  | 'unrigged';

/** What moves the mouth: ARKit mouth shapes, Oculus visemes, VRM vowels (from the visemes), or nothing. */
export type MouthSource = 'arkit' | 'visemes' | 'vowels' | 'none';

/** Something in the avatar a channel drives. */
export type DriveTarget =
  | { kind: 'morph'; mesh: string; target: string; index: number }
  | { kind: 'expression'; name: string }
  | { kind: 'bone'; bone: PoseBoneName; node: string }
  | { kind: 'lookAt'; type: 'bone' | 'expression' }
  | { kind: 'root' };

/** A weight target (morph or expression) and the channels whose weighted sum sets it (clamped to 0..1). */
export interface WeightDrive {
  target: Extract<DriveTarget, { kind: 'morph' | 'expression' }>;
  inputs: ChannelInput[];
}

/** A pose channel and what it turns (or moves, for `translation`). */
export interface PoseDrive {
  channel: PoseChannel;
  target: Extract<DriveTarget, { kind: 'bone' | 'lookAt' | 'root' }>;
}

/** A channel bound directly, and the targets it reaches (`weight` = its factor there). */
export interface BoundChannel {
  channel: DriveChannel;
  targets: { target: DriveTarget; weight: number }[];
}

/** How a channel without its own target still shows. */
export type FallbackVia =
  | 'arkit-mouth'
  | 'visemes'
  | 'vowels'
  | 'mouth-morphs'
  | 'head'
  | 'root'
  | 'eye-morphs'
  | 'eyes';

/** A channel with no target of its own, shown through others. */
export interface ChannelFallback {
  channel: DriveChannel;
  via: FallbackVia;
  /** One sentence for people. */
  note: string;
}

/** The coverage report of one avatar: JSON, the same from the service and from every client. */
export interface AvatarCoverage {
  format: AvatarFormat;
  mouth: MouthSource;
  /** Channels bound directly, in {@link DRIVE_CHANNELS} order. */
  bound: BoundChannel[];
  /** Channels shown through others. */
  fallbacks: ChannelFallback[];
  /** Channels with no effect on this avatar. */
  missing: DriveChannel[];
  /** Morph targets (`mesh/target`) and expressions (`expression:name`) that follow no channel. */
  unmatched: string[];
  /** The binding plan: every weight target and its inputs. */
  weights: WeightDrive[];
  /** The binding plan: every pose channel and what it turns. */
  poses: PoseDrive[];
  /** Totals: how many visemes, ARKit blendshapes and poses are bound directly. */
  counts: {
    visemes: { bound: number; total: number };
    arkit: { bound: number; total: number };
    poses: { bound: number; total: number };
  };
  /** Malformed parts of the file that were skipped. */
  warnings: string[];
}

interface Candidate {
  target: WeightDrive['target'];
  meaning: TargetMeaning;
}

const MAX_UNMATCHED = 200;

/**
 * Plans how a drive frame moves an avatar, from what it offers ({@link AvatarRigSources}), and
 * reports coverage. Rules, so nothing is driven twice:
 * - the mouth follows ARKit shapes when `jawOpen` is bound, else Oculus visemes, else VRM vowels
 *   (each viseme opening the vowels of {@link VISEME_TO_VOWELS});
 * - blinks follow ARKit-named blink morphs, else sided blinks (`blinkLeft`/`blinkRight`), else
 *   the two-eyed `blink` at the mean of both;
 * - a pose without its bone falls back: head to the whole model, neck to the head, jaw to the
 *   mouth morphs, eyes to the ARKit eye-look morphs.
 */
export function planAvatarDrive(sources: AvatarRigSources): AvatarCoverage {
  const unmatched: string[] = [];
  const candidates: Candidate[] = [];
  const noteUnmatched = (name: string): void => {
    if (unmatched.length < MAX_UNMATCHED) unmatched.push(name);
  };
  for (const mesh of sources.meshes) {
    const owned = new Set(mesh.owned ?? []);
    mesh.targets.forEach((name, index) => {
      if (owned.has(index)) return;
      const meaning = name ? meaningOfTargetName(name) : undefined;
      // Look directions are the lookAt's to move; a bare morph of that name stays at rest.
      if (!meaning || meaning.role === 'look') noteUnmatched(`${mesh.name}/${name || `#${index}`}`);
      else candidates.push({ target: { kind: 'morph', mesh: mesh.name, target: name, index }, meaning });
    });
  }
  for (const expression of sources.expressions) {
    const meaning = expression.bindsSomething
      ? meaningOfExpression(expression.name, expression.preset)
      : undefined;
    if (!meaning) noteUnmatched(`expression:${expression.name}`);
    else if (meaning.role !== 'look')
      candidates.push({ target: { kind: 'expression', name: expression.name }, meaning });
  }

  const mouth = chooseMouth(candidates);
  const kept = candidates.filter((c) => keepForMouth(c.meaning, mouth));
  const weights = keepBlinkTier(kept).map((c) => ({ target: c.target, inputs: meaningInputs(c.meaning) }));

  const poses = planPoses(sources);
  const byChannel = new Map<DriveChannel, BoundChannel['targets']>();
  for (const w of weights)
    for (const input of w.inputs) {
      const targets = byChannel.get(input.channel) ?? [];
      targets.push({ target: w.target, weight: input.weight });
      byChannel.set(input.channel, targets);
    }
  const poseFallback = new Map<PoseChannel, ChannelFallback>();
  for (const p of poses.direct) byChannel.set(p.channel, [{ target: p.target, weight: 1 }]);
  for (const f of poses.fallbacks) poseFallback.set(f.channel as PoseChannel, f);

  const bound: BoundChannel[] = [];
  const fallbacks: ChannelFallback[] = [];
  const missing: DriveChannel[] = [];
  const eyesTurn = byChannel.has('eyePose');
  const eyeMorphs = ARKIT_BLENDSHAPES.some((n) => n.startsWith('eyeLook') && byChannel.has(n));
  for (const channel of DRIVE_CHANNELS) {
    const targets = byChannel.get(channel);
    if (targets) {
      bound.push({ channel, targets });
      continue;
    }
    let fallback = poseFallback.get(channel as PoseChannel) ?? weightFallback(channel, mouth, eyesTurn);
    // Pose fallbacks onto morphs hold only when those morphs bound.
    if (fallback?.via === 'mouth-morphs' && mouth === 'none') fallback = undefined;
    if (fallback?.via === 'eye-morphs' && !eyeMorphs) fallback = undefined;
    if (fallback) fallbacks.push(fallback);
    else missing.push(channel);
  }

  const boundSet = new Set(bound.map((b) => b.channel));
  const count = (channels: readonly DriveChannel[]) => ({
    bound: channels.filter((c) => boundSet.has(c)).length,
    total: channels.length,
  });
  return {
    format: formatOf(sources, candidates, mouth),
    mouth,
    bound,
    fallbacks,
    missing,
    unmatched,
    weights,
    poses: [...poses.direct, ...poses.viaFallback],
    counts: {
      visemes: count(VISEME_CHANNELS),
      arkit: count(ARKIT_BLENDSHAPES),
      poses: count(['jawPose', 'rotation', 'neckPose', 'eyePose', 'translation']),
    },
    warnings: [...sources.warnings],
  };
}

/**
 * The coverage report of a glTF / VRM avatar from its parsed JSON document (a `.gltf` file, or
 * the JSON chunk of a `.glb` / `.vrm`), without loading geometry. Malformed parts are skipped
 * and listed in `warnings`; it does not validate the file.
 *
 * @throws AvatarError `invalidRequest` when `gltf` is not a JSON object.
 * @example
 * const coverage = describeAvatarCoverage(JSON.parse(jsonChunkText));
 * if (coverage.mouth === 'none') console.warn('this avatar will not move its mouth');
 * console.log(coverage.format, coverage.counts.visemes, coverage.missing);
 */
export function describeAvatarCoverage(gltf: unknown): AvatarCoverage {
  if (typeof gltf !== 'object' || gltf === null || Array.isArray(gltf)) {
    throw new AvatarError(
      'invalidRequest',
      `describeAvatarCoverage() takes a parsed glTF JSON document (an object), got ${describeValue(gltf)}.`,
    );
  }
  return planAvatarDrive(readRigSources(gltf as Record<string, unknown>));
}

function meaningOfExpression(name: string, preset: boolean): TargetMeaning | undefined {
  if (!preset) return meaningOfTargetName(name);
  switch (name) {
    case 'aa':
    case 'ih':
    case 'ou':
    case 'ee':
    case 'oh':
      return { role: 'vowel', vowel: name };
    case 'blink':
      return { role: 'blink', side: 'both' };
    case 'blinkLeft':
      return { role: 'blink', side: 'left' };
    case 'blinkRight':
      return { role: 'blink', side: 'right' };
    case 'lookUp':
    case 'lookDown':
    case 'lookLeft':
    case 'lookRight':
      return { role: 'look', direction: name.slice(4).toLowerCase() as 'up' | 'down' | 'left' | 'right' };
    default:
      // Emotions (happy, angry, sad, relaxed, surprised) and neutral: the drive has no channel for them.
      return undefined;
  }
}

function chooseMouth(candidates: readonly Candidate[]): MouthSource {
  if (candidates.some((c) => c.meaning.role === 'arkit' && c.meaning.channel === 'jawOpen')) return 'arkit';
  if (candidates.some((c) => c.meaning.role === 'viseme')) return 'visemes';
  if (candidates.some((c) => c.meaning.role === 'vowel')) return 'vowels';
  return 'none';
}

function keepForMouth(meaning: TargetMeaning, mouth: MouthSource): boolean {
  if (meaning.role === 'viseme') return mouth === 'visemes';
  if (meaning.role === 'vowel') return mouth === 'vowels';
  return true;
}

/** Keeps only the most specific blink targets present, so no eyelid closes twice. */
function keepBlinkTier(candidates: readonly Candidate[]): Candidate[] {
  const isArkitBlink = (m: TargetMeaning) =>
    m.role === 'arkit' && (m.channel === 'eyeBlinkLeft' || m.channel === 'eyeBlinkRight');
  const hasArkit = candidates.some((c) => isArkitBlink(c.meaning));
  const sides = new Set(
    candidates.flatMap((c) =>
      c.meaning.role === 'blink' && c.meaning.side !== 'both' ? [c.meaning.side] : [],
    ),
  );
  const hasSided = sides.has('left') && sides.has('right');
  return candidates.filter((c) => {
    if (c.meaning.role !== 'blink') return true;
    if (hasArkit) return false;
    return c.meaning.side === 'both' ? !hasSided : true;
  });
}

function planPoses(sources: AvatarRigSources): {
  direct: PoseDrive[];
  viaFallback: PoseDrive[];
  fallbacks: ChannelFallback[];
} {
  const { bones } = sources;
  const direct: PoseDrive[] = [];
  const viaFallback: PoseDrive[] = [];
  const fallbacks: ChannelFallback[] = [];
  const bone = (name: PoseBoneName): PoseDrive['target'] | undefined =>
    bones[name] ? { kind: 'bone', bone: name, node: bones[name]! } : undefined;
  const head = bone('head');
  if (head) direct.push({ channel: 'rotation', target: head });
  else {
    viaFallback.push({ channel: 'rotation', target: { kind: 'root' } });
    fallbacks.push({
      channel: 'rotation',
      via: 'root',
      note: 'No head bone: the whole model turns with the head.',
    });
  }
  const neck = bone('neck');
  if (neck) direct.push({ channel: 'neckPose', target: neck });
  else if (head) {
    viaFallback.push({ channel: 'neckPose', target: head });
    fallbacks.push({
      channel: 'neckPose',
      via: 'head',
      note: 'No neck bone: the head bone also takes the neck turn.',
    });
  } else {
    viaFallback.push({ channel: 'neckPose', target: { kind: 'root' } });
    fallbacks.push({
      channel: 'neckPose',
      via: 'root',
      note: 'No neck bone: the whole model turns with the neck.',
    });
  }
  const jaw = bone('jaw');
  if (jaw) direct.push({ channel: 'jawPose', target: jaw });
  else
    fallbacks.push({
      channel: 'jawPose',
      via: 'mouth-morphs',
      note: 'No jaw bone: the mouth opens through its morphs or expressions only.',
    });
  const leftEye = bone('leftEye');
  const rightEye = bone('rightEye');
  if (sources.lookAt) direct.push({ channel: 'eyePose', target: { kind: 'lookAt', type: sources.lookAt } });
  else if (leftEye || rightEye) {
    if (leftEye) direct.push({ channel: 'eyePose', target: leftEye });
    if (rightEye) direct.push({ channel: 'eyePose', target: rightEye });
  } else
    fallbacks.push({
      channel: 'eyePose',
      via: 'eye-morphs',
      note: 'No eye bones: the eyes turn through eyeLook morphs.',
    });
  direct.push({ channel: 'translation', target: { kind: 'root' } });
  return { direct, viaFallback, fallbacks };
}

function weightFallback(
  channel: DriveChannel,
  mouth: MouthSource,
  eyesTurn: boolean,
): ChannelFallback | undefined {
  if (isMouthChannel(channel)) {
    if (channel.startsWith('viseme_')) {
      if (mouth === 'arkit')
        return { channel, via: 'arkit-mouth', note: 'The frame’s ARKit mouth shapes carry this viseme.' };
      if (mouth === 'vowels')
        return { channel, via: 'vowels', note: 'A closed mouth: no vowel opens for this viseme.' };
      return undefined;
    }
    if (mouth === 'visemes')
      return {
        channel,
        via: 'visemes',
        note: 'The visemes carry the mouth; this ARKit shape is not separate.',
      };
    if (mouth === 'vowels')
      return {
        channel,
        via: 'vowels',
        note: 'The VRM vowels carry the mouth; this ARKit shape is not separate.',
      };
    return undefined;
  }
  if (channel.startsWith('eyeLook') && eyesTurn)
    return { channel, via: 'eyes', note: 'The eyes turn from eyePose instead of eyeLook morphs.' };
  return undefined;
}

function formatOf(
  sources: AvatarRigSources,
  candidates: readonly Candidate[],
  mouth: MouthSource,
): AvatarFormat {
  if (sources.kind !== 'gltf') return sources.kind;
  const arkit = candidates.some((c) => c.meaning.role === 'arkit');
  const visemes = candidates.some((c) => c.meaning.role === 'viseme');
  if (arkit && visemes) return 'arkit+oculus-visemes';
  if (arkit) return 'arkit';
  if (visemes) return 'oculus-visemes';
  if (mouth === 'vowels') return 'vowels';
  return 'unrigged';
}
