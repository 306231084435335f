/**
 * Output over the session's own WebSocket: animation frames go to the client, and playback
 * states come from the playback clock (the server's model of the client's playback: requests
 * play one after another in real time as their audio arrives).
 */
import { performance } from 'node:perf_hooks';
import { AnimationBytes, type DriveFrame, PlaybackState } from '@avatar-drive/core';
import { animationFrame } from '../socket/animation-frames.js';
import { PlaybackClock, type PlaybackEvent } from './playback-clock.js';
import {
  type InterruptReason,
  type OutputHost,
  type RequestState,
  type SessionOutput,
  sendPlaybackState,
} from './session-output.js';

export class SocketOutput implements SessionOutput {
  readonly clock: PlaybackClock;
  /** Frames are encoded into the socket write before {@link frames} returns. */
  readonly keepsFrames = false;
  readonly #host: OutputHost;
  readonly #animation: AnimationBytes;

  constructor(host: OutputHost, pauseTimeoutMs: number) {
    this.#host = host;
    this.#animation = new AnimationBytes(host.info.connectionId, host.info.avatarId);
    this.clock = new PlaybackClock((event) => this.#onPlayback(event), pauseTimeoutMs);
  }

  open(): undefined {
    return undefined;
  }

  audio(): void {
    // The client plays its own audio; only the animation goes back.
  }

  frames(request: RequestState, frames: readonly DriveFrame[], end: boolean, dueAt: number): void {
    const { sender, metrics } = this.#host;
    if (sender.rawFrames) sender.sendFrame(animationFrame(this.#animation, request.reqId, frames, end));
    else sender.sendBytes(this.#animation.encode(request.reqId, frames, end));
    metrics.recordFramesSent(frames.length);
    // Measured once written: the write is where a late frame's delay ends on this side.
    if (frames.length > 0) metrics.frameLateness.record(performance.now() - dueAt, frames.length);
  }

  cancel(request: RequestState, reason: InterruptReason): void {
    const { phase, outputDone } = request.playback;
    if ((phase === 'ended' || phase === 'interrupted') && (outputDone || request.cancelled)) return;
    this.#host.stop(request);
    if (!outputDone) this.#finalEnd(request.reqId);
    this.clock.interrupt(request.playback, reason);
  }

  /**
   * Every request's animation ends with exactly one `end = true` message, an interrupted one
   * too (empty, just before INTERRUPTED): clients without playback-state support, and relays
   * waiting for `end`, get their terminal signal (docs/protocol.md, "Interrupt, pause, resume").
   */
  #finalEnd(reqId: string): void {
    if (!this.#host.closed) this.#host.sender.sendBytes(this.#animation.encode(reqId, [], true));
  }

  pauseOrResume(op: 'pause' | 'resume', request: RequestState): void {
    if (op === 'pause') this.clock.pause();
    else this.clock.resume();
    this.clock.refresh();
    const phase = request.playback.phase;
    const state =
      phase === 'ended'
        ? PlaybackState.ENDED
        : phase === 'interrupted'
          ? PlaybackState.INTERRUPTED
          : this.clock.paused
            ? PlaybackState.PAUSED
            : PlaybackState.PLAYING;
    sendPlaybackState(this.#host, request.reqId, state, request.playback.playedMs, '');
  }

  close(): void {
    this.clock.dispose();
  }

  #onPlayback(event: PlaybackEvent): void {
    const { entry } = event;
    const host = this.#host;
    switch (event.kind) {
      case 'playing':
        sendPlaybackState(host, entry.reqId, PlaybackState.PLAYING, 0, '');
        return;
      case 'ended':
        sendPlaybackState(host, entry.reqId, PlaybackState.ENDED, entry.playedMs, '');
        return;
      case 'interrupted': {
        const request = host.request(entry.reqId);
        // pause_timeout comes from the clock: stop the request's output too.
        if (request && !request.cancelled) {
          host.stop(request);
          if (!entry.outputDone) this.#finalEnd(entry.reqId);
        }
        sendPlaybackState(host, entry.reqId, PlaybackState.INTERRUPTED, entry.playedMs, event.reason);
        return;
      }
    }
  }
}
