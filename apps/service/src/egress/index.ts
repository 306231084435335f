/**
 * RTC-mode egress of the driving service: providers by kind, the LiveKit provider, and the
 * packets the avatar participant sends next to its audio track (codec in @avatar-drive/core).
 */
export * from './livekit-config.js';
export * from './livekit-egress.js';
export * from './playout.js';
export * from './registry.js';
export type * from './types.js';
