/**
 * The one seam between a drive session and where its output goes, chosen once at configure:
 * {@link SocketOutput} (animation over the session's WebSocket, playback states from the
 * session's playback clock) or {@link EgressOutput} (audio and animation into an RTC room,
 * playback states from the egress's real playout). The session never asks which one it has; each
 * output owns its own state, and reports to the session through one {@link OutputEvent} stream
 * (it never calls into the session).
 */
import type {
  AvatarErrorCode,
  DriveFrame,
  PlaybackState,
  PlaybackStateReason,
  wire,
} from '@avatar-drive/core';
import type { EgressRegistry } from '../../egress/registry.js';
import { egressKindOf } from '../../egress/registry.js';
import type { ServiceMetrics } from '../../metrics.js';
import type { WsSender } from '../socket/ws-sender.js';
import { EgressOutput } from './egress-output.js';
import type { PlaybackClock, PlaybackEntry, PlaybackEvent } from './playback-clock.js';
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

/** What an output reports to its session, in the order it happens (handled synchronously). */
export type OutputEvent =
  /**
   * No more output for `request` (interrupted, preempted, paused too long): the session marks it
   * cancelled and, if its audio is still arriving, resets the engine.
   */
  | { type: 'stopped'; request: RequestState }
  /** A ServerPlaybackState for the client; the session sends it (and logs a request's last one). */
  | {
      type: 'playback';
      reqId: string;
      state: PlaybackState;
      playedMs: number;
      reason: PlaybackStateReason | '';
    }
  /** The agent cleared the avatar's buffer (`lk.clear_buffer`): the session interrupts every request. */
  | { type: 'clear-buffer' }
  /** The output cannot go on: the session ends with this error. */
  | { type: 'failed'; code: AvatarErrorCode; message: string };

/** What an output is given by its session. */
export interface OutputContext {
  readonly info: DriveSessionInfo;
  readonly sender: WsSender;
  readonly metrics: ServiceMetrics;
  /**
   * The session's request timeline (received audio, finished output, pause timeout): the session
   * records into it and hands its events to {@link SessionOutput.timeline}; the output pauses,
   * resumes and interrupts it and decides what of it is reported.
   */
  readonly clock: PlaybackClock;
  /** Where the output's {@link OutputEvent}s go. */
  readonly report: (event: OutputEvent) => void;
}

export interface SessionOutput {
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
  /**
   * An event of the session's timeline ({@link OutputContext.clock}), with its request when the
   * session still remembers it.
   */
  timeline(event: PlaybackEvent, request: RequestState | undefined): void;
  /** Releases what the output holds (the RTC connection); it reports nothing after. */
  close(): void;
}

/**
 * The output a ClientConfigureSession asks for: an RTC egress when it names one, else the socket.
 * @throws AvatarError `invalidEgressConfig` for an egress type this server does not know.
 */
export function createSessionOutput(
  config: wire.ClientConfigureSession,
  context: OutputContext,
  egress: EgressRegistry,
): SessionOutput {
  const kind = egressKindOf(config.egressType);
  if (!kind) return new SocketOutput(context);
  return new EgressOutput(context, egress, kind, {
    connectionId: context.info.connectionId,
    avatarId: context.info.avatarId,
    sampleRate: config.sampleRate,
    livekit: config.livekitEgress,
    agora: config.agoraEgress,
    extraParams: config.extraParams,
  });
}
