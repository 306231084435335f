/**
 * @avatar-drive/rtc-player — Avatar Drive's RTC mode in the browser: the avatar's audio plays as
 * a native WebRTC track and its animation drives an AvatarView in step with that track.
 * @packageDocumentation
 */
export {
  AvatarPlayer,
  type AvatarPlayerEvents,
  type AvatarPlayerOptions,
  type PlayerLogLevel,
  type StallInfo,
  type SyncStats,
} from './avatar-player.js';
export {
  ClockOffsetEstimator,
  type JitterStatsSample,
  jitterSampleFromStats,
  PlayoutDelayEstimator,
} from './clock.js';
export { TypedEmitter } from './emitter.js';
export { FrameTimeline, type TimelineSample } from './frame-timeline.js';
export { LiveKitProvider, type LiveKitProviderOptions } from './livekit-provider.js';
export type {
  AvatarAudioReceiver,
  RtcConnectConfig,
  RtcConnectionState,
  RtcProvider,
  RtcProviderEvents,
} from './provider.js';
export { SpeechEnvelope } from './speech-envelope.js';
export { StallDetector, type StallObservation } from './stall-detector.js';
export { type FetchRtcTokenOptions, fetchRtcToken, type RtcTokenResponse } from './token-request.js';
