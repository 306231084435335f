/**
 * @avatar-drive/core — what every Avatar Drive package shares.
 * @packageDocumentation
 */

export * from './audio/convert.js';
export * from './audio/prepare.js';
export * from './audio/resample.js';
export * from './audio/validate.js';
export * from './audio/wav.js';
export * from './audio-format.js';
export * from './errors.js';
export * as wire from './gen/driveningress/v2/driveningress_pb.js';
export * from './regions.js';
export * from './rig.js';
export * from './states.js';
