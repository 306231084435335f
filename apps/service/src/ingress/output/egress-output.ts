/**
 * Output into an RTC room through an egress (LiveKit, Agora): the session's audio and its
 * animation go to the egress, which publishes the avatar. Playback states come from the egress's
 * real playout (when audio leaves the avatar's track), not from the clock: each request gets
 * PLAYING, then either one ServerResponseAnimation with end=true and no keyframes plus ENDED, or
 * INTERRUPTED. The session's clock only keeps the pause timeout.
 */
import { AnimationBytes, type DriveFrame, PlaybackState, type PlaybackStateReason } from '@avatar-drive/core';
import type { EgressRegistry } from '../../egress/registry.js';
import type { EgressKind, EgressOpenConfig, EgressSession } from '../../egress/types.js';
import type { PlaybackEvent } from './playback-clock.js';
import type { InterruptReason, OutputContext, RequestState, SessionOutput } from './session-output.js';

/** Where a request stands in the egress (its real playout). */
interface EgressRequestState {
  phase?: 'playing' | 'ended' | 'interrupted';
  playedMs?: number;
  interruptReason?: InterruptReason;
}

export class EgressOutput implements SessionOutput {
  /** The egress queues frames for its playout clock. */
  readonly keepsFrames = true;
  readonly #context: OutputContext;
  readonly #registry: EgressRegistry;
  readonly #kind: EgressKind;
  readonly #config: EgressOpenConfig;
  readonly #animation: AnimationBytes;
  /** RTC-only state per request, kept as long as the session remembers the request. */
  readonly #requests = new WeakMap<RequestState, EgressRequestState>();
  /** Requests handed to the egress that it has not reported finished, by req_id (its events name them so). */
  readonly #inEgress = new Map<string, RequestState>();
  #egress: EgressSession | undefined;
  #closed = false;

  constructor(context: OutputContext, registry: EgressRegistry, kind: EgressKind, config: EgressOpenConfig) {
    this.#context = context;
    this.#registry = registry;
    this.#kind = kind;
    this.#config = config;
    this.#animation = new AnimationBytes(context.info.connectionId, context.info.avatarId);
  }

  /** Connects the avatar to the room; the session confirms once it is in. */
  open(): Promise<void> {
    return this.#registry.open(this.#kind, this.#config).then((egress) => {
      if (this.#closed) {
        void egress.close();
        return;
      }
      this.#attach(egress);
    });
  }

  audio(request: RequestState, pcm: Int16Array, end: boolean): void {
    if (pcm.length === 0 && !end) return;
    this.#inEgress.set(request.reqId, request);
    this.#egress!.pushAudio(pcm, this.#config.sampleRate, request.reqId, end);
  }

  frames(request: RequestState, frames: readonly DriveFrame[], end: boolean): void {
    this.#egress!.pushFrames(frames, request.reqId, end);
  }

  /** Stops the request's egress output at once; exactly one INTERRUPTED follows. */
  cancel(request: RequestState, reason: InterruptReason): void {
    const state = this.#state(request);
    if (request.cancelled || state.phase === 'ended' || state.phase === 'interrupted') return;
    this.#context.report({ type: 'stopped', request });
    state.interruptReason = reason;
    // Bookkeeping only: in RTC mode the clock's events are not reported.
    this.#context.clock.interrupt(request.playback, reason);
    // The egress reports requests it holds (its 'interrupted' listener runs synchronously, below);
    // one it never queued is reported here.
    this.#egress?.interrupt(request.reqId);
    if ((state.phase as EgressRequestState['phase']) !== 'interrupted') {
      state.phase = 'interrupted';
      this.#inEgress.delete(request.reqId);
      this.#finalEnd(request.reqId);
      this.#playback(request.reqId, PlaybackState.INTERRUPTED, 0, reason);
    }
  }

  pauseOrResume(op: 'pause' | 'resume', request: RequestState): void {
    // The clock keeps the pause timeout; the state reported is the egress's.
    const { clock } = this.#context;
    if (op === 'pause') clock.pause();
    else clock.resume();
    const egress = this.#egress!;
    const snap = op === 'pause' ? egress.pause() : egress.resume();
    const { phase, playedMs } = this.#state(request);
    const state =
      phase === 'ended'
        ? PlaybackState.ENDED
        : phase === 'interrupted'
          ? PlaybackState.INTERRUPTED
          : snap.state === 'paused'
            ? PlaybackState.PAUSED
            : PlaybackState.PLAYING;
    const played = snap.reqId === request.reqId ? snap.playedMs : (playedMs ?? 0);
    this.#playback(request.reqId, state, played, '');
  }

  timeline(event: PlaybackEvent, request: RequestState | undefined): void {
    // Only the clock's pause timeout acts here; the egress reports the playout.
    if (event.kind !== 'interrupted' || event.reason !== 'pause_timeout') return;
    if (request) this.cancel(request, 'pause_timeout');
  }

  close(): void {
    this.#closed = true;
    this.#inEgress.clear();
    void this.#egress?.close().catch(() => undefined);
  }

  #state(request: RequestState): EgressRequestState {
    let state = this.#requests.get(request);
    if (!state) {
      state = {};
      this.#requests.set(request, state);
    }
    return state;
  }

  #attach(egress: EgressSession): void {
    this.#egress = egress;
    const report = this.#context.report;
    egress.on('playing', ({ reqId }) => {
      const request = this.#inEgress.get(reqId);
      if (request) this.#state(request).phase = 'playing';
      this.#playback(reqId, PlaybackState.PLAYING, 0, '');
    });
    egress.on('ended', ({ reqId, playedMs }) => {
      const request = this.#inEgress.get(reqId);
      this.#inEgress.delete(reqId);
      if (request) Object.assign(this.#state(request), { phase: 'ended', playedMs });
      this.#finalEnd(reqId);
      this.#playback(reqId, PlaybackState.ENDED, playedMs, '');
    });
    egress.on('interrupted', ({ reqId, playedMs }) => {
      const request = this.#inEgress.get(reqId);
      this.#inEgress.delete(reqId);
      const state = request && Object.assign(this.#state(request), { phase: 'interrupted', playedMs });
      if (request && !request.cancelled) report({ type: 'stopped', request });
      this.#finalEnd(reqId); // an interrupted request gets its one end marker too
      this.#playback(reqId, PlaybackState.INTERRUPTED, playedMs, state?.interruptReason ?? 'explicit');
    });
    // The agent's lk.clear_buffer: stop everything, as a ClientInterrupt of the latest request would.
    egress.on('clear-buffer', () => report({ type: 'clear-buffer' }));
    egress.on('idle-timeout', ({ idleMs }) =>
      report({
        type: 'failed',
        code: 'idleTimeout',
        message: `No audio for ${Math.round(idleMs / 1000)} s, so the avatar left the room. Open a new session when there is audio to send.`,
      }),
    );
    egress.on('error', (error) => report({ type: 'failed', code: error.code, message: error.message }));
  }

  /** The request's one end marker on the WebSocket (keyframes went to the room). */
  #finalEnd(reqId: string): void {
    if (!this.#closed) this.#context.sender.sendBytes(this.#animation.encode(reqId, [], true));
  }

  #playback(reqId: string, state: PlaybackState, playedMs: number, reason: PlaybackStateReason | ''): void {
    this.#context.report({ type: 'playback', reqId, state, playedMs, reason });
  }
}
