/**
 * Output over the session's own WebSocket: animation frames go to the client, and playback
 * states come from the session's playback clock (the server's model of the client's playback:
 * requests play one after another in real time as their audio arrives).
 */
import { performance } from 'node:perf_hooks';
import { AnimationBytes, type DriveFrame, PlaybackState, type PlaybackStateReason } from '@avatar-drive/core';
import { animationFrame } from '../socket/animation-frames.js';
import type { PlaybackEvent } from './playback-clock.js';
import type { InterruptReason, OutputContext, RequestState, SessionOutput } from './session-output.js';

export class SocketOutput implements SessionOutput {
  /** Frames are encoded into the socket write before {@link frames} returns. */
  readonly keepsFrames = false;
  readonly #context: OutputContext;
  readonly #animation: AnimationBytes;
  #closed = false;

  constructor(context: OutputContext) {
    this.#context = context;
    this.#animation = new AnimationBytes(context.info.connectionId, context.info.avatarId);
  }

  open(): undefined {
    return undefined;
  }

  audio(): void {
    // The client plays its own audio; only the animation goes back.
  }

  frames(request: RequestState, frames: readonly DriveFrame[], end: boolean, dueAt: number): void {
    const { sender, metrics } = this.#context;
    if (sender.rawFrames) sender.sendFrame(animationFrame(this.#animation, request.reqId, frames, end));
    else sender.sendBytes(this.#animation.encode(request.reqId, frames, end));
    metrics.recordFramesSent(frames.length);
    // Measured once written: the write is where a late frame's delay ends on this side.
    if (frames.length > 0) metrics.frameLateness.record(performance.now() - dueAt, frames.length);
  }

  cancel(request: RequestState, reason: InterruptReason): void {
    const { phase, outputDone } = request.playback;
    if ((phase === 'ended' || phase === 'interrupted') && (outputDone || request.cancelled)) return;
    this.#context.report({ type: 'stopped', request });
    if (!outputDone) this.#finalEnd(request.reqId);
    // The clock reports the INTERRUPTED (timeline, below).
    this.#context.clock.interrupt(request.playback, reason);
  }

  /**
   * Every request's animation ends with exactly one `end = true` message, an interrupted one
   * too (empty, just before INTERRUPTED): clients without playback-state support, and relays
   * waiting for `end`, get their terminal signal (docs/protocol.md, "Interrupt, pause, resume").
   */
  #finalEnd(reqId: string): void {
    if (!this.#closed) this.#context.sender.sendBytes(this.#animation.encode(reqId, [], true));
  }

  pauseOrResume(op: 'pause' | 'resume', request: RequestState): void {
    const { clock } = this.#context;
    if (op === 'pause') clock.pause();
    else clock.resume();
    clock.refresh();
    const phase = request.playback.phase;
    const state =
      phase === 'ended'
        ? PlaybackState.ENDED
        : phase === 'interrupted'
          ? PlaybackState.INTERRUPTED
          : clock.paused
            ? PlaybackState.PAUSED
            : PlaybackState.PLAYING;
    this.#playback(request.reqId, state, request.playback.playedMs, '');
  }

  timeline(event: PlaybackEvent, request: RequestState | undefined): void {
    const { entry } = event;
    switch (event.kind) {
      case 'playing':
        this.#playback(entry.reqId, PlaybackState.PLAYING, 0, '');
        return;
      case 'ended':
        this.#playback(entry.reqId, PlaybackState.ENDED, entry.playedMs, '');
        return;
      case 'interrupted':
        // pause_timeout comes from the clock: stop the request's output too.
        if (request && !request.cancelled) {
          this.#context.report({ type: 'stopped', request });
          if (!entry.outputDone) this.#finalEnd(entry.reqId);
        }
        this.#playback(entry.reqId, PlaybackState.INTERRUPTED, entry.playedMs, event.reason);
        return;
    }
  }

  close(): void {
    this.#closed = true;
  }

  #playback(reqId: string, state: PlaybackState, playedMs: number, reason: PlaybackStateReason | ''): void {
    this.#context.report({ type: 'playback', reqId, state, playedMs, reason });
  }
}
