/**
 * The egress seam of a driving session: where a session's audio and drive frames go when the
 * client asked for them to be published into a real-time room (RTC mode) instead of being
 * returned over the ingress WebSocket.
 */
import type { AvatarError, DriveFrame } from '@avatar-drive/core';

/** The egress kinds of `ClientConfigureSession.egress_type` (wire enum EgressType). */
export type EgressKind = 'livekit' | 'agora';

/**
 * `LiveKitEgressConfig` of the wire protocol (a decoded `wire.LiveKitEgressConfig` fits as is).
 * `publisherId` is the avatar's identity in the room; the agent it speaks for goes in
 * `extraAttributes['lk.publish_on_behalf']` (or in the attributes of `apiToken`).
 */
export interface LiveKitEgressSettings {
  url: string;
  apiKey: string;
  apiSecret: string;
  roomName: string;
  publisherId: string;
  extraAttributes: { [key: string]: string };
  /** Seconds without audio after which the avatar leaves the room; 0 = the server's default. */
  idleTimeout: number;
  /** Preferred over `apiKey` + `apiSecret` when set. */
  apiToken: string;
}

/** `AgoraEgressConfig` of the wire protocol. */
export interface AgoraEgressSettings {
  channelName: string;
  token: string;
  uid: number;
  publisherId: string;
}

/** What a session hands to {@link EgressProvider.open}. */
export interface EgressOpenConfig {
  /** The session's connection id (copied into every `ServerResponseAnimation`). */
  connectionId: string;
  /** The avatar being driven (copied into every `ServerResponseAnimation`). */
  avatarId: string;
  /** Sample rate of the session's PCM (`ClientConfigureSession.sample_rate`). */
  sampleRate: number;
  livekit?: LiveKitEgressSettings | undefined;
  agora?: AgoraEgressSettings | undefined;
  /** `ClientConfigureSession.extra_params` (already size-checked); keys an egress acts on are in docs/protocol.md. */
  extraParams?: { [key: string]: string } | undefined;
}

/** Where playback stands, as `ServerPlaybackState` reports it. */
export type PlaybackStateName = 'idle' | 'playing' | 'paused';

/** A snapshot of playback, returned by the control calls so the session can acknowledge them. */
export interface PlaybackSnapshot {
  state: PlaybackStateName;
  /** The request being played (or paused); '' when idle. */
  reqId: string;
  /** Milliseconds of that request's audio that have left the avatar's audio track. */
  playedMs: number;
}

/** Lifecycle events of an {@link EgressSession}, in the order they happen for a request. */
export interface EgressEvents {
  /** The first audio of `reqId` is leaving the avatar's track. */
  playing: (event: { reqId: string }) => void;
  /** All audio of `reqId` has left the track (its end was pushed and nothing was cut). */
  ended: (event: { reqId: string; playedMs: number }) => void;
  /** `reqId` was stopped by {@link EgressSession.interrupt}; `playedMs` of it were heard. */
  interrupted: (event: { reqId: string; playedMs: number }) => void;
  /** No audio for the configured idle timeout: the avatar left the room and the session closed. */
  'idle-timeout': (event: { idleMs: number }) => void;
  /**
   * The agent asked the avatar to stop speaking (LiveKit `lk.clear_buffer`): the session
   * interrupts whatever plays or is queued, as a ClientInterrupt of the latest request would.
   */
  'clear-buffer': () => void;
  /** The egress failed (room lost, publish failed); the session closes after this. */
  error: (error: AvatarError) => void;
  /** The session closed (after {@link EgressSession.close}, an idle timeout or an error). */
  closed: () => void;
}

export type EgressEventName = keyof EgressEvents;

/** One open egress: the avatar present in the room, publishing what the session pushes. */
export interface EgressSession {
  readonly kind: EgressKind;
  /** True until the session closed. */
  readonly isOpen: boolean;
  /**
   * Queues PCM of request `reqId` for playback in real time. Requests play one after another,
   * in the order their first audio arrived. `end` marks the request's last audio.
   * `sampleRate` must be the session's rate.
   */
  pushAudio(pcm: Int16Array, sampleRate: number, reqId: string, end?: boolean): void;
  /** Queues drive frames of `reqId` (in index order); `end` marks its last frames. */
  pushFrames(frames: readonly DriveFrame[], reqId: string, end: boolean): void;
  /**
   * Stops `reqId` (or, when omitted, whatever plays) at once: queued audio is dropped, no more
   * frames are sent, and an `interrupted` event follows. A request that already ended or is
   * unknown is a no-op (returns the current snapshot).
   */
  interrupt(reqId?: string): PlaybackSnapshot;
  /** Holds playback where it is (audio stops at once); returns the state after the call. */
  pause(): PlaybackSnapshot;
  /** Continues from where {@link pause} stopped; returns the state after the call. */
  resume(): PlaybackSnapshot;
  /** The current playback snapshot. */
  snapshot(): PlaybackSnapshot;
  /** Leaves the room and releases everything; safe to call twice. */
  close(): Promise<void>;
  on<E extends EgressEventName>(event: E, listener: EgressEvents[E]): this;
  once<E extends EgressEventName>(event: E, listener: EgressEvents[E]): this;
  off<E extends EgressEventName>(event: E, listener: EgressEvents[E]): this;
}

/** Opens egress sessions of one kind. */
export interface EgressProvider {
  readonly kind: EgressKind;
  /**
   * Validates the configuration, joins the room and publishes the avatar's track.
   * Rejects with AvatarError `invalidEgressConfig` (bad or rejected configuration) or
   * `egressUnavailable` (the room server cannot be reached).
   */
  open(config: EgressOpenConfig): Promise<EgressSession>;
}
