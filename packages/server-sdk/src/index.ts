/**
 * @avatar-drive/server-sdk — the Node SDK for your server: session tokens, AvatarSession (Host
 * and RTC mode) and the Host-mode relay. The browser end of the relay is `RelayClient` in
 * `@avatar-drive/client-core` (`@avatar-drive/server-sdk/relay-client` re-exports it, deprecated).
 * @packageDocumentation
 */

// Moved to core with the one ingress handshake; exported here as before.
export { httpErrorToAvatarError, redact, type ServiceErrorEntry } from '@avatar-drive/core';
export { MAX_AUDIO_CHUNK_BYTES } from './audio-turns.js';
export { AvatarSession } from './avatar-session.js';
export { backoffDelay, DEFAULT_RECONNECT, type ReconnectOptions } from './backoff.js';
export { CallbackQueue } from './callback-queue.js';
export {
  type AgoraEgressOptions,
  type EgressOptions,
  egressConfigure,
  type LiveKitEgressOptions,
} from './egress.js';
export { OggOpusWriter, type OpusFrameEncoder } from './ogg-opus-writer.js';
export { DEFAULT_OPUS_BITRATE, OPUS_SEND_RATES, type SendAudioFormat } from './opus-sending.js';
export * from './relay-events.js';
export { RelayStream, type RelayStreamEvents } from './relay-stream.js';
export {
  createSessionMachine,
  SESSION_TRANSITIONS,
  type SessionState,
  type SessionTrigger,
} from './session-state.js';
export {
  type CreateSessionTokenOptions,
  createSessionToken,
  DEFAULT_TOKEN_TTL_SECONDS,
  MAX_TOKEN_TTL_SECONDS,
  mintSessionToken,
  requestSessionToken,
  resolveExpiry,
  type SessionTokenInfo,
} from './session-token.js';
export type {
  AvatarSessionCallbacks,
  AvatarSessionOptions,
  ConnectionAttempt,
  PlaybackStateInfo,
  SessionCloseEvent,
} from './session-types.js';
