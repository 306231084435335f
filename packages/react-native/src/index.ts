/**
 * @avatar-drive/react-native — the Avatar Drive SDK for iOS and Android: the spec's API shape with
 * the same names as the web SDK (`AvatarSDK.initialize`, `AvatarManager.load/clear/clearAll`,
 * an `<AvatarView>` whose ref holds the view and its `controller`), rendered with three.js on
 * expo-gl, played through react-native-audio-api, cached with expo-file-system.
 * @packageDocumentation
 */

export {
  AnimationMixer,
  type AnimationMixerOptions,
  type AssetStore,
  AvatarSDK,
  type AvatarSDKOptions,
  type ConfirmedSession,
  DrivingServiceMode,
  type LogLevel,
  MemoryAssetStore,
  type RenderTarget,
  type SdkConfig,
  type WebSocketFactory,
  type WebSocketLike,
} from '@avatar-drive/client-core';
export {
  AvatarError,
  type AvatarErrorCode,
  type ConnectionState,
  type ConversationState,
  Environment,
  type FeedPcmResult,
} from '@avatar-drive/core';
export { NativeAudioOutput } from './audio-output.js';
export {
  AvatarController,
  type AvatarControllerOptions,
  type ControllerHost,
  type PlaybackOutput,
  reactNativeWebSocket,
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
export { AvatarSurface, type AvatarViewOptions, type FrameSource } from './avatar-surface.js';
export { AvatarView, type AvatarViewHandle, type AvatarViewProps } from './avatar-view.js';
export { FileAssetStore, openFileAssetStore } from './file-asset-store.js';
export { createGlRenderer, type GlContext, type GlRendererOptions } from './gl-renderer.js';
export {
  type GltfPluginFactory,
  type JsImageTexturesOptions,
  jsImageTextures,
} from './gltf-image-textures.js';
export { type DecodedImage, decodeImage, type ImageLimits } from './image-decoding.js';
export {
  type MicrophoneFeed,
  type MicrophoneOptions,
  type MicrophoneTarget,
  startMicrophone,
} from './microphone.js';
