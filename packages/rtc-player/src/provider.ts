/**
 * The seam between {@link AvatarPlayer} and a real-time room: what a provider (LiveKit today)
 * must offer so the player can play the avatar's audio natively and align its animation.
 */
import type { AvatarError } from '@avatar-drive/core';

/** Where a provider's connection to its room stands. */
/**
 * `failed`: the last connect() (or the provider's own reconnection) failed; connect() or
 * reconnect() may be called again.
 */
export type RtcConnectionState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'failed';

/** What {@link RtcProvider.connect} needs. */
export interface RtcConnectConfig {
  /** The room server's WebSocket URL (`ws://` or `wss://`). */
  url: string;
  /** A join token for this user, minted by your server (never an API key). */
  token: string;
  /** The room the token is for; checked after joining when given. */
  roomName?: string;
}

/** The avatar's audio track as the player needs it: its receiver's stats. */
export interface AvatarAudioReceiver {
  /** Identity of the avatar participant. */
  readonly participantId: string;
  /** The `RTCRtpReceiver` stats of the track (inbound-rtp carries the jitter-buffer counters). */
  getStats(): Promise<RTCStatsReport>;
}

/** Typed events of an {@link RtcProvider}. */
export interface RtcProviderEvents {
  /** Joined the room (also after a successful reconnection). */
  connected: () => void;
  /** Left the room; `reason` is the provider's reason name. */
  disconnected: (reason: string) => void;
  /** Something failed (connecting, publishing, a malformed packet). */
  error: (error: AvatarError) => void;
  /** The connection state changed. */
  connectionStateChanged: (state: RtcConnectionState) => void;
  /** The avatar's audio track started playing here (`undefined`: it went away). */
  avatarAudio: (receiver: AvatarAudioReceiver | undefined) => void;
  /** A frame packet from the avatar participant (`arrivalMs`: `performance.timeOrigin + now()`). */
  framePacket: (bytes: Uint8Array, arrivalMs: number) => void;
  /** A control message from the avatar participant. */
  controlMessage: (bytes: Uint8Array) => void;
}

/** A real-time room connection that plays the avatar's audio and hands over its data. */
export interface RtcProvider {
  /** True while connected. */
  readonly isConnected: boolean;
  /** Joins the room; rejects with an `AvatarError`. */
  connect(config: RtcConnectConfig): Promise<void>;
  /** Leaves the room; safe to call when not connected. */
  disconnect(): Promise<void>;
  /** Leaves and joins again with the last {@link connect} config. */
  reconnect(): Promise<void>;
  /** The current connection state. */
  getConnectionState(): RtcConnectionState;
  /** Publishes the user's microphone. */
  startPublishing(): Promise<void>;
  /** Stops publishing the microphone. */
  stopPublishing(): Promise<void>;
  /** Publishes an audio track of your own (e.g. processed microphone audio). */
  publishAudio(track: MediaStreamTrack): Promise<void>;
  /** Unpublishes the track given to {@link publishAudio}. */
  unpublishAudio(): Promise<void>;
  on<E extends keyof RtcProviderEvents>(event: E, listener: RtcProviderEvents[E]): this;
  off<E extends keyof RtcProviderEvents>(event: E, listener: RtcProviderEvents[E]): this;
}
