/**
 * The seam between the plugin and the driving service: one RTC-mode session that takes the
 * agent's speech and reports its playback. `@avatar-drive/server-sdk`'s AvatarSession with
 * LiveKit egress options is the production implementation; anything with this shape works.
 */
import type { AvatarError } from '@avatar-drive/core';

/** Where the service publishes the avatar (the wire's `LiveKitEgressConfig`). */
export interface LiveKitEgressTarget {
  /** The LiveKit server URL the service joins. */
  url: string;
  /** Join token for the avatar participant: kind agent, `lk.publish_on_behalf` = the agent. */
  apiToken: string;
  roomName: string;
  /** The avatar participant's identity (the token's identity). */
  publisherId: string;
  /** More participant attributes for the avatar. */
  extraAttributes: Record<string, string>;
}

/** What {@link DrivingConnectionFactory} is asked to open. */
export interface DrivingConnectionConfig {
  /** Sample rate of the PCM that will be sent (the TTS output's, or the nearest supported). */
  sampleRate: number;
  livekit: LiveKitEgressTarget;
}

/** Playback events of a driving session, per request (one request = one agent speech segment). */
export interface DrivingConnectionEvents {
  /** The request's first audio plays in the room. */
  playing: (event: { reqId: string }) => void;
  /** All of the request's audio has played. */
  ended: (event: { reqId: string; playedMs: number }) => void;
  /** The request was interrupted after `playedMs` of it played. */
  interrupted: (event: { reqId: string; playedMs: number }) => void;
  /** The session failed and closed. */
  error: (error: AvatarError) => void;
}

/** An open RTC-mode driving session. */
export interface DrivingConnection {
  /** Sends mono s16 PCM of `reqId` at the configured rate; `end` marks its last chunk. */
  sendAudio(pcm: Int16Array, reqId: string, end: boolean): void;
  /** Stops `reqId` at once (audio and animation). */
  interrupt(reqId: string): void;
  /** Ends the session; the avatar leaves the room. */
  close(): Promise<void>;
  on<E extends keyof DrivingConnectionEvents>(event: E, listener: DrivingConnectionEvents[E]): unknown;
  off<E extends keyof DrivingConnectionEvents>(event: E, listener: DrivingConnectionEvents[E]): unknown;
}

/** Opens a {@link DrivingConnection}; rejects with an `AvatarError`. */
export type DrivingConnectionFactory = (config: DrivingConnectionConfig) => Promise<DrivingConnection>;
