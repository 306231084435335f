/**
 * @avatar-drive/core — what every Avatar Drive package shares.
 * @packageDocumentation
 */
export * from './audio-format.js';
export * from './errors.js';
export * as wire from './gen/driveningress/v2/driveningress_pb.js';
export * from './rig.js';
