/**
 * @avatar-drive/token-server — the reference business server: LiveKit tokens for browsers and
 * Avatar Drive session tokens, as a fastify plugin and the `avatar-drive-token-server` bin.
 * @packageDocumentation
 */
export { type BinConfig, resolveBinConfig, USAGE } from './config.js';
export {
  checkParticipant,
  DEFAULT_AVATAR_IDENTITY,
  DEFAULT_RESERVED_IDENTITIES,
  DEFAULT_ROOM,
  defaultIdentity,
  generatedParticipant,
  isReservedIdentity,
  type Participant,
  type ParticipantHook,
  ParticipantRefused,
  referenceParticipant,
  type TokenRequestBody,
} from './participant.js';
export {
  type AvatarDriveSettings,
  LIVEKIT_TOKEN_TTL_SECONDS,
  type LiveKitServerApi,
  type LiveKitSettings,
  livekitServerApi,
  type TokenServerOptions,
  tokenServerPlugin,
} from './plugin.js';
export { type BuildTokenServerOptions, buildTokenServer } from './server.js';
