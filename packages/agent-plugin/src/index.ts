/**
 * @avatar-drive/agent-plugin — an Avatar Drive avatar for LiveKit Agents (Node): the agent's
 * TTS audio drives an avatar that the service publishes into the room.
 * @packageDocumentation
 */
export { AvatarDriveAudioOutput, type AvatarDriveAudioOutputOptions } from './audio-output.js';
export { AVATAR_AUDIO_TRACK, AvatarSession, type AvatarSessionOptions } from './avatar-session.js';
export type {
  DrivingConnection,
  DrivingConnectionConfig,
  DrivingConnectionEvents,
  DrivingConnectionFactory,
  LiveKitEgressTarget,
} from './connection.js';
export {
  type AvatarPlaybackFinished,
  type AvatarPlaybackListener,
  type ClearBufferResult,
  clearAvatarBuffer,
  parsePlaybackFinished,
  RPC_CLEAR_BUFFER,
  RPC_PLAYBACK_FINISHED,
  RPC_PLAYBACK_STARTED,
  registerPlaybackRpc,
} from './playback-rpc.js';
export { drivingConnectionFromAvatarSession, type RtcAvatarSessionLike } from './server-sdk-connection.js';
export { type AvatarTokenOptions, mintAvatarToken, PUBLISH_ON_BEHALF_ATTRIBUTE } from './token.js';
