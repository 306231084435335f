/**
 * The public shapes of an {@link AvatarSession}: its options and callbacks, and what they
 * receive. Kept apart from the class so each job's module can name them without the session.
 */
import type { AvatarError, RegionEndpoints } from '@avatar-drive/core';
import type { ReconnectOptions } from './backoff.js';
import type { EgressOptions } from './egress.js';
import type { SendAudioFormat } from './opus-sending.js';
import type { SessionState } from './session-state.js';

/** A playback state the service reported (`ServerPlaybackState`). */
export interface PlaybackStateInfo {
  reqId: string;
  state: 'playing' | 'paused' | 'ended' | 'interrupted';
  /** Milliseconds of the request's audio played so far. */
  playedMs: number;
  /** `explicit`, `preempted`, `pause_timeout`, or empty. */
  reason: string;
}

/** What `onClose` receives. */
export interface SessionCloseEvent {
  /** WebSocket close code (1000 after `close()`). */
  code: number;
  reason: string;
  /** Why the session ended, unless `close()` ended it. */
  error?: AvatarError;
}

/** One connection attempt (for diagnostics and tests). */
export interface ConnectionAttempt {
  region: string;
  ingressUrl: string;
  /** Milliseconds since the epoch when the attempt started. */
  startedAt: number;
  /** The failure, if the attempt failed. */
  error?: AvatarError;
}

/** The callbacks of an {@link AvatarSession}. */
export interface AvatarSessionCallbacks {
  /** Host mode: the relay audio message for a chunk you sent (core relay format, for `yieldAudioData`). */
  onAudio?: (
    encoded: Uint8Array,
    info: { conversationId: string; last: boolean; sampleRate: number },
  ) => unknown;
  /** Host mode: a relay animation message (for `yieldFramesData`); `isLast` closes the conversation's animation. */
  onFrames?: (encoded: Uint8Array, isLast: boolean, info: { conversationId: string }) => unknown;
  /** The service's playback states (playing, paused, ended, interrupted). */
  onPlaybackState?: (state: PlaybackStateInfo) => unknown;
  /** Every error: `code`, `phase`, `retryable`, `closeCode`. Retryable drops are followed by a reconnect. */
  onError?: (error: AvatarError) => unknown;
  /** Exactly once, when the session is over. */
  onClose?: (event: SessionCloseEvent) => unknown;
  /** Every connection state change. */
  onStateChange?: (to: SessionState, from: SessionState) => unknown;
}

/** Options of {@link AvatarSession}. */
export interface AvatarSessionOptions extends AvatarSessionCallbacks {
  /** The avatar to drive. */
  avatarId: string;
  /** Your app ID (public). */
  appId: string;
  /** Your API key (server-side only): a fresh session token is minted for every connection attempt. */
  apiKey?: string;
  /**
   * A session token, or a function returning one per connection attempt (tokens are single-use:
   * a static string allows one connection, so reconnecting needs `apiKey` or a function).
   */
  sessionToken?: string | (() => string | Promise<string>);
  /** Primary region (default `ap-northeast`). */
  region?: string;
  /** Backup region for a retryable connect failure; default the other built-in region; `null` for none. */
  backupRegion?: string | null;
  /** Your own region map (replaces/extends the built-in defaults). */
  regions?: Readonly<Record<string, RegionEndpoints>>;
  /** Explicit URLs (win over `region`); a missing one is derived from the other. */
  consoleUrl?: string;
  ingressUrl?: string;
  /** Sample rate of the PCM you pass to `sendAudio`. */
  sampleRate: number;
  /**
   * Resample `sendAudio` input before sending: `true` to the nearest supported rate at or above
   * `sampleRate`, or `{ to: rate }`. Without it, `sampleRate` must be supported.
   */
  resample?: boolean | { to: number };
  /**
   * What goes to the service: `'pcm_s16le'` (default), or `'ogg_opus'` — the SDK encodes each
   * turn to one Ogg Opus stream (needs the optional peer dependency `@evan/opus`; the sent rate
   * must be 8000, 16000, 24000 or 48000 Hz). `sendAudio` still takes PCM, and a Host-mode relay
   * still carries PCM to the browser.
   */
  audioFormat?: SendAudioFormat;
  /** Opus bitrate in bit/s with `audioFormat: 'ogg_opus'` (default 24000). */
  opusBitrate?: number;
  /** RTC mode: where the service publishes the avatar. Without it: Host mode. */
  egress?: EgressOptions;
  /** Retry policy; `false` for a single attempt and no reconnect. */
  reconnect?: ReconnectOptions | false;
  /** Upgrade + confirmation deadline per attempt, ms (default 10000). */
  connectTimeoutMs?: number;
  /** Lifetime of tokens minted with `apiKey`, seconds (default 600). */
  tokenTtlSeconds?: number;
  /** Deadline for the service's answer to pause()/resume(), ms (default 5000). */
  ackTimeoutMs?: number;
}
