/**
 * @avatar-drive/core — what every Avatar Drive package shares.
 * @packageDocumentation
 */

export * from './audio/convert.js';
export * from './audio/feed.js';
export * from './audio/kaiser.js';
export * from './audio/ogg-crc.js';
export * from './audio/prepare.js';
export * from './audio/resample.js';
export * from './audio/validate.js';
export * from './audio/wav.js';
export * from './audio-format.js';
export * from './avatar-coverage.js';
export * from './avatar-file-problems.js';
export * from './avatar-manifest.js';
export * from './close-codes.js';
export * from './environments.js';
export * from './errors.js';
export * as wire from './gen/driveningress/v2/driveningress_pb.js';
export {
  AudioFormat,
  EgressType,
  type Message,
  MessageSchema,
  MessageType,
  PlaybackState,
  type ServerError,
  type ServerResponseAnimation,
  ServerResponseAnimationSchema,
  TransportCompression,
} from './gen/driveningress/v2/driveningress_pb.js';
export * from './ingress/handshake.js';
export * from './ingress/http-errors.js';
export * from './ingress/upgrade-refusal.js';
export * from './ingress/web-socket.js';
export * from './lam/lam-archive.js';
export * from './lam/splat-ply.js';
export * from './lam/zip-reader.js';
export * from './lam/zip-writer.js';
export * from './random.js';
export * from './reconnect.js';
export * from './regions.js';
export * from './relay/encoder.js';
export * from './relay/events.js';
export * from './relay/format.js';
export * from './relay/sequencer.js';
export * from './rig.js';
export * from './rtc/avatar-participant.js';
export * from './rtc/packets.js';
export * from './session-token.js';
export * from './states.js';
export * from './typed-emitter.js';
export * from './wire/codec.js';
export * from './wire/extract.js';
export * from './wire/fast/audio-input.js';
export * from './wire/fast/response-animation.js';
export * from './wire/fast/scan-server-message.js';
export * from './wire/messages.js';
export * from './wire/server-error.js';
