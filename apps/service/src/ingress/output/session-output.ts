/**
 * The one seam between a drive session and where its output goes, chosen once at configure:
 * {@link SocketOutput} (animation over the session's WebSocket, playback states from the
 * session's playback clock) or {@link EgressOutput} (audio and animation into an RTC room,
 * playback states from the egress's real playout). The session itself never asks which one it
 * has; each output owns its own state.
 */
import {
  type AvatarErrorCode,
  type DriveFrame,
  PlaybackState,
  type PlaybackStateReason,
  playbackStateMessage,
  type wire,
} from '@avatar-drive/core';
import type { EgressRegistry } from '../../egress/registry.js';
import { egressKindOf } from '../../egress/registry.js';
import type { ServiceMetrics } from '../../metrics.js';
import type { WsSender } from '../socket/ws-sender.js';
import { EgressOutput } from './egress-output.js';
import type { PlaybackClock, PlaybackEntry } from './playback-clock.js';
import { SocketOutput } from './socket-output.js';

export type InterruptReason = 'explicit' | 'preempted' | 'pause_timeout';

/** What a session knows of one request (utterance), whatever its output. */
export interface RequestState {
  readonly reqId: string;
  readonly seq: number;
  /** No more output for it: interrupted, preempted or timed out. */
  cancelled: boolean;
  readonly playback: PlaybackEntry;
  /** From the request's `trace_context` (W3C traceparent), logged with every line about it. */
  traceId?: string;
}

/** Identifies a session in logs and messages. */
export interface DriveSessionInfo {
  connectionId: string;
  appId: string;
  avatarId: string;
  /** The client's address (proxy-aware), for logs. */
  client?: string;
}

/** What an output may use of its session. */
export interface OutputHost {
  readonly info: DriveSessionInfo;
  readonly sender: WsSender;
  readonly metrics: ServiceMetrics;
  /** True once the session has ended. */
  readonly closed: boolean;
  /** The request with this req_id, if the connection still remembers it. */
  request(reqId: string): RequestState | undefined;
  /** Marks `request` cancelled; if it is the utterance in progress, resets the engine. */
  stop(request: RequestState): void;
  /** Logs a request's final playback state (with its trace id). */
  logRequestEnd(reqId: string, state: string, playedMs: number): void;
  /** Interrupts every request still playing or queued (the agent's `lk.clear_buffer`). */
  interruptAll(): void;
  /** Ends the session with a ServerError. */
  fail(code: AvatarErrorCode, message: string, reqId?: string): void;
}

export interface SessionOutput {
  /**
   * The request timeline (received audio, finished output, pause timeout); the session records
   * into it, the output decides what of it is reported.
   */
  readonly clock: PlaybackClock;
  /**
   * True when {@link frames} keeps the frames it is given after it returns (an RTC playout
   * queue); false when it is done with them by then (encoded and written), so that the engine
   * may write later frames into them.
   */
  readonly keepsFrames: boolean;
  /**
   * Starts the output. Undefined when it is ready at once; else a promise that resolves once it
   * is (RTC: the avatar is in the room) — the session confirms only then.
   */
  open(): Promise<void> | undefined;
  /** One audio chunk of `request` (empty with `end` on the last). */
  audio(request: RequestState, pcm: Int16Array, end: boolean): void;
  /**
   * Frames of `request` from the engine; `end` on its last call. `dueAt` (`performance.now()`
   * clock): when they were due at the request's pace ({@link PlaybackClock.received}), for the
   * frame-lateness meter.
   */
  frames(request: RequestState, frames: readonly DriveFrame[], end: boolean, dueAt: number): void;
  /** Stops the output of `request` at once; exactly one INTERRUPTED follows, if any is due. */
  cancel(request: RequestState, reason: InterruptReason): void;
  /** Pauses or resumes playback; answers with one ServerPlaybackState for `request`. */
  pauseOrResume(op: 'pause' | 'resume', request: RequestState): void;
  /** Releases what the output holds (timers, the RTC connection). */
  close(): void;
}

/** Options of {@link createSessionOutput}. */
export interface OutputOptions {
  egress: EgressRegistry;
  pauseTimeoutMs: number;
}

/**
 * The output a ClientConfigureSession asks for: an RTC egress when it names one, else the socket.
 * @throws AvatarError `invalidEgressConfig` for an egress type this server does not know.
 */
export function createSessionOutput(
  config: wire.ClientConfigureSession,
  host: OutputHost,
  options: OutputOptions,
): SessionOutput {
  const kind = egressKindOf(config.egressType);
  if (!kind) return new SocketOutput(host, options.pauseTimeoutMs);
  return new EgressOutput(host, options.egress, options.pauseTimeoutMs, kind, {
    connectionId: host.info.connectionId,
    avatarId: host.info.avatarId,
    sampleRate: config.sampleRate,
    livekit: config.livekitEgress,
    agora: config.agoraEgress,
    extraParams: config.extraParams,
  });
}

/** Sends one ServerPlaybackState, unless the session has ended. */
export function sendPlaybackState(
  host: OutputHost,
  reqId: string,
  state: PlaybackState,
  playedMs: number,
  reason: PlaybackStateReason | '',
): void {
  if (host.closed) return;
  if (state === PlaybackState.ENDED || state === PlaybackState.INTERRUPTED) {
    host.logRequestEnd(reqId, PlaybackState[state]!.toLowerCase(), playedMs);
  }
  host.sender.send(
    playbackStateMessage({
      connectionId: host.info.connectionId,
      reqId,
      state,
      playedMs: Math.max(0, Math.round(playedMs)),
      reason,
    }),
  );
}
