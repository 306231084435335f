/**
 * @avatar-drive/client-web — the Avatar Drive browser SDK: load avatars, render them with
 * three.js, drive them from speech audio in sync with WebAudio playback.
 * @packageDocumentation
 */

/** Morph-target name mapping (from `@avatar-drive/avatars`), re-exported for custom renderers. */
export {
  channelWeight,
  type MorphMapping,
  mapMorphTargets,
  type RigChannel,
  resolveMorphTarget,
} from '@avatar-drive/avatars';
export {
  type AudioSink,
  AvatarSDK,
  type AvatarSDKOptions,
  type ConfirmedSession,
  DrivingServiceMode,
  EventQueue,
  IngressConnection,
  type IngressConnectionOptions,
  type LocalEngine,
  type LocalEngineEvents,
  type LocalEngineFactory,
  Logger,
  type LogLevel,
  lerpFrame,
  type PlaybackOptions,
  type PlaybackSample,
  PlaybackScheduler,
  type RenderTarget,
  type SdkConfig,
  type WebSocketFactory,
  type WebSocketLike,
} from '@avatar-drive/client-core';
export {
  type AvatarCoverage,
  AvatarError,
  type AvatarErrorCode,
  type AvatarFormat,
  type BoundChannel,
  type ChannelFallback,
  type ConnectionState,
  type ConversationState,
  type DriveChannel,
  type DriveTarget,
  describeAvatarCoverage,
  Environment,
  type FeedPcmResult,
  type MouthSource,
  type PcmInput,
} from '@avatar-drive/core';
export { AnimationMixer, type AnimationMixerOptions } from './animation-mixer.js';
export { type AssetStore, openAssetStore } from './asset-cache.js';
export { type AudioFeed, type AudioFeedTarget, type FeedAudioOptions, feedAudio } from './audio-feed.js';
export {
  AvatarController,
  type AvatarControllerOptions,
  type ControllerHost,
  type PlaybackOutput,
  type SyncStats,
} from './avatar-controller.js';
export {
  Avatar,
  type AvatarAsset,
  type AvatarCameraFraming,
  AvatarManager,
  type AvatarManifest,
  type LoadProgress,
} from './avatar-manager.js';
export { AvatarView, type AvatarViewOptions, type FrameSource } from './avatar-view.js';
export { type LocalEngineOptions, WorkerEngine } from './local/worker-engine.js';
export { detectRenderer, LOW_END_VIEW_OPTIONS, type RendererInfo } from './renderer-info.js';
export { WebAudioSink } from './web-audio-sink.js';
