/**
 * Drive channels: the named, single-valued parts of a {@link DriveFrame} that an avatar can bind
 * (one name per viseme, per ARKit blendshape, and per pose field). Coverage reports and binding
 * plans speak in these names so they stay JSON and platform-neutral.
 */

import {
  ARKIT_BLENDSHAPES,
  ARKIT_INDEX,
  type ArkitBlendshape,
  type DriveFrame,
  VISEME_INDEX,
  VISEMES,
  type Viseme,
} from '../rig.js';

/** A viseme channel, spelled as Oculus / Ready Player Me morph targets are (`viseme_aa`). */
export type VisemeChannel = `viseme_${Viseme}`;

/** The pose fields of a drive frame, each driving a bone (or the whole model). */
export const POSE_CHANNELS = ['jawPose', 'rotation', 'neckPose', 'eyePose', 'translation'] as const;
/** A pose channel: `rotation` is the head, `eyePose` both eyes. */
export type PoseChannel = (typeof POSE_CHANNELS)[number];

/** One bindable part of a drive frame: an ARKit blendshape, a viseme or a pose. */
export type DriveChannel = ArkitBlendshape | VisemeChannel | PoseChannel;

/** The 15 viseme channels, in wire order. */
export const VISEME_CHANNELS: readonly VisemeChannel[] = Object.freeze(
  VISEMES.map((v) => `viseme_${v}` as VisemeChannel),
);

/** Every drive channel: visemes, then ARKit blendshapes, then poses. */
export const DRIVE_CHANNELS: readonly DriveChannel[] = Object.freeze([
  ...VISEME_CHANNELS,
  ...ARKIT_BLENDSHAPES,
  ...POSE_CHANNELS,
]);

const CHANNEL_SET = new Set<string>(DRIVE_CHANNELS);

/** Whether `name` is a drive channel name. */
export function isDriveChannel(name: unknown): name is DriveChannel {
  return typeof name === 'string' && CHANNEL_SET.has(name);
}

/** Whether a weight channel (viseme or ARKit) is part of the mouth. */
export function isMouthChannel(channel: DriveChannel): boolean {
  if ((POSE_CHANNELS as readonly string[]).includes(channel)) return false;
  if (channel.startsWith('viseme_')) return true;
  return /^(jaw|mouth)/.test(channel) || channel === 'cheekPuff' || channel === 'tongueOut';
}

/** Where a weight channel's value lives in a frame. */
export interface ChannelSlot {
  field: 'visemes' | 'expression';
  index: number;
}

/**
 * The frame slot of a weight channel (viseme or ARKit), or `undefined` for a pose channel.
 * Resolve once when binding, then read `frame[slot.field][slot.index]` every frame.
 */
export function channelSlot(channel: DriveChannel): ChannelSlot | undefined {
  if (channel.startsWith('viseme_')) {
    const index = VISEME_INDEX[channel.slice(7) as Viseme];
    return index === undefined ? undefined : { field: 'visemes', index };
  }
  const index = ARKIT_INDEX[channel as ArkitBlendshape];
  return index === undefined ? undefined : { field: 'expression', index };
}

/** A channel's weight in `frame` (0 for pose channels, which are not weights). */
export function channelValue(
  frame: Pick<DriveFrame, 'visemes' | 'expression'>,
  channel: DriveChannel,
): number {
  const slot = channelSlot(channel);
  return slot ? (frame[slot.field][slot.index] ?? 0) : 0;
}
