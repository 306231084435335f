/**
 * @avatar-drive/client-core — the platform-neutral half of the Avatar Drive client SDKs:
 * configuration, the controller and its state machines, the ingress connection under the shared
 * reconnect policy, the audio-clock playback scheduler, Host-mode yield rules, ordered callbacks.
 * A platform package (client-web, react-native) implements four small interfaces:
 * {@link PlaybackOutput} (audio with a clock), {@link RenderTarget} (its view, which takes drive
 * frames from `controller.frameForRender()`), {@link WebSocketFactory} and {@link AssetStore},
 * and may offer a {@link LocalEngine} for `drivingServiceMode: 'local'` (the engine on the device).
 * Each mode is a {@link DriveSource} (ingress, local, relay); {@link RelayClient} is the browser
 * end of Host mode's relay.
 * @packageDocumentation
 */

export {
  AvatarError,
  type AvatarErrorCode,
  type ConnectionState,
  type ConversationState,
  Environment,
  type RelayControl,
} from '@avatar-drive/core';
export { AnimationMixer, type AnimationMixerOptions, mixerSeed } from './animation-mixer.js';
export { type AssetStore, MemoryAssetStore } from './asset-store.js';
export { AvatarController, type AvatarControllerOptions } from './avatar-controller.js';
export {
  Avatar,
  type AvatarAsset,
  type AvatarCameraFraming,
  type AvatarManagerApi,
  type AvatarManifest,
  createAvatarManager,
  type LoadProgress,
} from './avatar-manager.js';
export { EventQueue } from './event-queue.js';
export {
  type ConfirmedSession,
  IngressConnection,
  type IngressConnectionOptions,
  type WebSocketFactory,
  type WebSocketLike,
} from './ingress-connection.js';
export type { LocalEngine, LocalEngineEvents, LocalEngineFactory } from './local-engine.js';
export { isLogLevel, LOG_LEVELS, Logger, type LogLevel, logger } from './logger.js';
export type { ControllerHost, PlaybackOutput, RenderTarget, SyncStats } from './platform-seams.js';
export {
  type AudioSink,
  lerpFrame,
  type PlaybackOptions,
  type PlaybackSample,
  PlaybackScheduler,
} from './playback-scheduler.js';
export {
  AvatarSDK,
  type AvatarSDKOptions,
  DEFAULT_AUDIO_FORMAT,
  DrivingServiceMode,
  requireConfig,
  type SdkConfig,
} from './sdk.js';
export { createDriveSource } from './sources/create-drive-source.js';
export type {
  DriveSource,
  DriveSourceContext,
  DriveSourceEvents,
  DriveSourceOptions,
} from './sources/drive-source.js';
export { IngressSource } from './sources/ingress-source.js';
export { LocalSource } from './sources/local-source.js';
export { PcmSource } from './sources/pcm-source.js';
export { RelayClient, type RelayClientOptions, type RelayTarget } from './sources/relay-client.js';
export { RelaySource } from './sources/relay-source.js';
