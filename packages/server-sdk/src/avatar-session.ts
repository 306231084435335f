/**
 * AvatarSession: one driveningress.v2 connection from your server, single-use.
 *
 * Host mode (no egress): the PCM you send and the animation the service returns come back as
 * relay messages (`onAudio`, `onFrames`, or {@link AvatarSession.relay}) for your own transport
 * to the browser. RTC mode (`egress`): the service publishes the avatar into a LiveKit room or
 * an Agora channel; you still send audio and control playback here.
 *
 * Callbacks are delivered in order, one at a time (a callback returning a promise holds the
 * next one back); a callback that throws is reported through `onError` and delivery goes on.
 *
 * A façade over one module per job (options, tokens, connecting, turns, Host relay, playback
 * acks); what stays here is the connection's state machine and the order of callbacks.
 */
import {
  AvatarError,
  assertPcmChunk,
  audioInputMessage,
  CloseCode,
  interruptMessage,
  isRetryableCloseCode,
  type Message,
  pauseMessage,
  type ResolvedEndpoint,
  resumeMessage,
  type StateMachine,
  serverErrorToAvatarError,
  shouldReconnectAfterDrop,
} from '@avatar-drive/core';
import { AudioTurns, sendPieces } from './audio-turns.js';
import { CallbackQueue } from './callback-queue.js';
import { HostRelay } from './host-relay.js';
import { type Ingress, IngressConnector, toAvatarError } from './ingress-connector.js';
import { OpusSender } from './opus-sending.js';
import { PlaybackAcks, type PlaybackOp, playbackStateInfo } from './playback-control.js';
import type { RelayControl } from './relay-events.js';
import type { RelayStream } from './relay-stream.js';
import { ServerErrorHold } from './server-error-hold.js';
import { type ResolvedSessionOptions, resolveSessionOptions } from './session-options.js';
import {
  createSessionMachine,
  notConnectedError,
  type SessionState,
  type SessionTrigger,
} from './session-state.js';
import type {
  AvatarSessionCallbacks,
  AvatarSessionOptions,
  ConnectionAttempt,
  PlaybackStateInfo,
  SessionCloseEvent,
} from './session-types.js';
import { TokenSource } from './token-source.js';

/**
 * One connection to the driving service (single-use: after `close()` make a new one).
 *
 * @example
 * ```ts
 * const session = new AvatarSession({
 *   avatarId: 'mika', appId: 'app_…', apiKey: process.env.AVATAR_DRIVE_API_KEY, sampleRate: 16000,
 *   onAudio: (msg) => browser.send(msg), onFrames: (msg) => browser.send(msg),
 * });
 * await session.start();
 * session.sendAudio(pcmChunk);
 * session.sendAudio(lastChunk, true);
 * ```
 */
export class AvatarSession implements AvatarSessionCallbacks {
  onAudio?: AvatarSessionCallbacks['onAudio'];
  onFrames?: AvatarSessionCallbacks['onFrames'];
  onPlaybackState?: AvatarSessionCallbacks['onPlaybackState'];
  onError?: AvatarSessionCallbacks['onError'];
  onClose?: AvatarSessionCallbacks['onClose'];
  onStateChange?: AvatarSessionCallbacks['onStateChange'];

  readonly #resolved: ResolvedSessionOptions;
  readonly #machine: StateMachine<SessionState, SessionTrigger>;
  readonly #queue: CallbackQueue;
  readonly #connector: IngressConnector;
  readonly #relay: HostRelay;
  readonly #turns: AudioTurns;
  readonly #acks: PlaybackAcks;
  #socket: Ingress | undefined;
  #endpoint: ResolvedEndpoint | undefined;
  /** A ServerError waiting for the close that may follow it (to report both as one). */
  readonly #heldError = new ServerErrorHold((error) => this.#deliverError(error));
  #closeEvent: SessionCloseEvent | undefined;
  #closedPromise: Promise<SessionCloseEvent>;
  #resolveClosed!: (event: SessionCloseEvent) => void;

  /** @throws AvatarError `invalidRequest`, `unsupportedSampleRate`, `invalidEgressConfig` for bad options. */
  constructor(options: AvatarSessionOptions) {
    const resolved = resolveSessionOptions(options);
    this.#resolved = resolved;
    this.#connector = new IngressConnector({
      endpoints: resolved.endpoints,
      reconnect: resolved.reconnect,
      appId: options.appId,
      avatarId: options.avatarId,
      configure: resolved.configure,
      timeoutMs: options.connectTimeoutMs ?? 10_000,
      tokens: new TokenSource({ ...options }),
    });
    this.#turns = new AudioTurns(resolved.inputRate, resolved.sampleRate);
    this.#acks = new PlaybackAcks(options.ackTimeoutMs ?? 5000);
    this.#relay = new HostRelay((error) => this.#reportCallbackError('relay event listener', error));

    this.onAudio = options.onAudio;
    this.onFrames = options.onFrames;
    this.onPlaybackState = options.onPlaybackState;
    this.onError = options.onError;
    this.onClose = options.onClose;
    this.onStateChange = options.onStateChange;
    this.#queue = new CallbackQueue((name, error) => this.#reportCallbackError(name, error));
    this.#machine = createSessionMachine();
    this.#machine.onChange((to, from) =>
      this.#deliver('onStateChange', () => this.onStateChange?.(to, from)),
    );
    this.#closedPromise = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  /** The connection state. */
  get state(): SessionState {
    return this.#machine.state;
  }

  /** The service's id for the current connection (changes after a reconnect). */
  get connectionId(): string | undefined {
    return this.#socket?.connectionId;
  }

  /** Region (or `custom`) of the current connection. */
  get region(): string | undefined {
    return this.#endpoint?.region;
  }

  /** Capabilities the service confirmed (`playback_control`, `playback_state`). */
  get capabilities(): readonly string[] {
    return this.#socket?.capabilities ?? [];
  }

  /** Rate of the audio sent to the service (after resampling). */
  get sampleRate(): number {
    return this.#resolved.sampleRate;
  }

  /** Every connection attempt so far, in order. */
  get attempts(): readonly ConnectionAttempt[] {
    return this.#connector.attempts;
  }

  /** Bytes queued on the WebSocket and not yet sent (watch it to pace a fast audio source). */
  get bufferedAmount(): number {
    return this.#socket?.socket.bufferedAmount ?? 0;
  }

  /** Callbacks queued and not yet delivered. */
  get pendingCallbacks(): number {
    return this.#queue.pending;
  }

  /** Resolves once the session is closed and `onClose` was delivered. */
  get closed(): Promise<SessionCloseEvent> {
    return this.#closedPromise;
  }

  /** Resolves when every callback queued so far has been delivered. */
  flushCallbacks(): Promise<void> {
    return this.#queue.idle();
  }

  /**
   * A new relay stream: every relay event from now on (audio and animation messages, control),
   * in order. Host mode only.
   * @throws AvatarError `invalidState` in RTC mode or after the session closed.
   */
  relay(): RelayStream {
    if (!this.#resolved.hostMode) {
      throw new AvatarError(
        'invalidState',
        'relay() is for Host mode; with egress the service publishes to the room itself.',
      );
    }
    if (this.state === 'closed')
      throw new AvatarError('invalidState', 'The session is closed; create a new AvatarSession.');
    return this.#relay.open();
  }

  /**
   * Connects (minting a token with `apiKey` when given), configures the session and resolves
   * with the connection id. A retryable failure moves to the backup region, then retries with
   * backoff; a 40xx failure (auth, quota, bad request) is final at once.
   * @throws AvatarError the connection failure (also reported through `onError`, then `onClose`).
   */
  async start(): Promise<string> {
    if (this.state !== 'idle') {
      throw new AvatarError(
        'invalidState',
        `start() can be called once (the session is ${this.state}). AvatarSession is single-use: create a new one.`,
      );
    }
    this.#machine.apply('start');
    try {
      const { opusBitrate, sampleRate } = this.#resolved;
      if (opusBitrate !== undefined) this.#turns.opus = await OpusSender.load(sampleRate, opusBitrate);
      const connectionId = await this.#connect();
      this.#machine.apply('open');
      return connectionId;
    } catch (error) {
      const e = toAvatarError(error, 'connect');
      // Re-read: close() may have run while connecting.
      const state: SessionState = this.#machine.state;
      if (state === 'connecting') {
        this.#machine.apply('fail');
        this.#deliverError(e);
        this.#finish({ code: e.closeCode ?? CloseCode.Abnormal, reason: e.code, error: e });
      } else if (state === 'closing') {
        this.#finishClosing(CloseCode.Normal, 'client closed');
      }
      throw e;
    }
  }

  /**
   * Sends one chunk of mono s16le PCM at `sampleRate` (resampled when configured). Chunks share
   * a request id (one turn) until one is sent with `end = true`; returns that id (the relay's
   * conversation id).
   *
   * After {@link interrupt} (or the service interrupting the turn, or the connection dropping)
   * the rest of that turn is **dropped**: nothing is sent or relayed, and the interrupted id is
   * returned, until the turn is over — its `end = true` chunk (dropped too), or
   * {@link startTurn}. So a TTS stream that keeps running after a barge-in cannot start speaking
   * again; call `startTurn()` when the agent's next reply begins.
   * @throws AvatarError `invalidAudio` for a bad chunk, `invalidState` unless connected.
   */
  sendAudio(pcm: Int16Array | Uint8Array | ArrayBuffer, end = false): string {
    const samples = assertPcmChunk(pcm);
    const socket = this.#requireConnected('sendAudio()');
    const chunk = this.#turns.next(samples, end);
    if (chunk.dropped) return chunk.reqId;
    const { reqId, pcm: bytes, ogg } = chunk;
    const toService = (piece: Uint8Array, last: boolean) =>
      socket.send(audioInputMessage({ reqId, audio: piece, end: last }));
    if (ogg) {
      // Ogg Opus to the service; the relay still gets the PCM.
      sendPieces(ogg, end, toService);
      if (this.#resolved.hostMode)
        sendPieces(bytes, end, (piece, last) => this.#emitAudio(reqId, piece, last));
      return reqId;
    }
    sendPieces(bytes, end, (piece, last) => {
      toService(piece, last);
      if (this.#resolved.hostMode) this.#emitAudio(reqId, piece, last);
    });
    return reqId;
  }

  /**
   * Stops the latest request's output at once (the service stops it; the relay tells the
   * browser). Returns the interrupted request id, or `undefined` when nothing was sent yet.
   * When that turn was still open (no `end = true` chunk yet), its further `sendAudio` chunks
   * are dropped until its end chunk or {@link startTurn}.
   * @throws AvatarError `invalidState` unless connected.
   */
  interrupt(): string | undefined {
    const socket = this.#requireConnected('interrupt()');
    const reqId = this.#turns.latest;
    if (reqId === undefined) return undefined;
    socket.send(interruptMessage(reqId));
    this.#turns.dropRest(reqId);
    this.#turns.finish(reqId);
    this.#emitControl({ type: 'interrupt', conversationId: reqId });
    return reqId;
  }

  /**
   * Begins a new turn (the agent's next reply): the next `sendAudio` chunk starts a new request
   * even if the previous turn was interrupted before its end chunk. A turn still open and not
   * interrupted is ended first (an empty end chunk: it plays to its end). Call it at the start
   * of every reply; it is never wrong to.
   * @throws AvatarError `invalidState` when a turn must be ended and the session is not connected.
   */
  startTurn(): void {
    if (this.#turns.startTurn()) this.sendAudio(new Int16Array(0), true);
  }

  /** True while `sendAudio` drops the rest of an interrupted turn (until its end chunk or `startTurn()`). */
  get turnInterrupted(): boolean {
    return this.#turns.interrupted;
  }

  /**
   * Pauses the latest request; resolves with the state the service reports after it (PAUSED,
   * or ENDED / INTERRUPTED when it had already finished).
   * @throws AvatarError `invalidState` unless connected with a request sent, or when the service
   *   does not support playback control.
   */
  pause(): Promise<PlaybackStateInfo> {
    return this.#playbackControl('pause');
  }

  /** Resumes after {@link pause}; resolves with the state after it (PLAYING, ENDED or INTERRUPTED). */
  resume(): Promise<PlaybackStateInfo> {
    return this.#playbackControl('resume');
  }

  /**
   * Closes the session (code 1000). Resolves once closed and `onClose` was delivered. Safe to
   * call more than once and in any state.
   */
  async close(): Promise<SessionCloseEvent> {
    const state = this.state;
    if (state === 'closed' || state === 'closing') return this.#closedPromise;
    if (state === 'idle') {
      this.#machine.apply('closed');
      this.#finish({ code: CloseCode.Normal, reason: 'closed before start' });
      return this.#closedPromise;
    }
    this.#machine.apply('close');
    this.#connector.wake();
    const socket = this.#socket;
    if (socket?.open) {
      socket.close(CloseCode.Normal, 'client closed');
    } else if (state === 'connected') {
      this.#finishClosing(CloseCode.Normal, 'client closed');
    }
    // connecting / reconnecting: the connect loop sees `closing` and finishes.
    return this.#closedPromise;
  }

  // ----------------------------------------------------------------- connect

  #connect(): Promise<string> {
    return this.#connector.connect('connect', {
      checkStopped: () => {
        if (this.state === 'closing' || this.state === 'closed') {
          throw new AvatarError('connectionClosed', 'close() was called while connecting.', {
            phase: 'connect',
            retryable: false,
          });
        }
      },
      current: () => this.#socket,
      onMessage: (message, raw) => this.#onMessage(message, raw),
      onBadFrame: (error) =>
        this.#deliverError(new AvatarError(error.code, error.message, { phase: 'stream', cause: error })),
      onClose: (code, reason) => this.#onClose(code, reason),
      onConnected: (channel, endpoint) => {
        this.#socket = channel;
        this.#endpoint = endpoint;
      },
    });
  }

  async #reconnectAfterDrop(): Promise<void> {
    try {
      await this.#connect();
      this.#machine.apply('open');
    } catch (error) {
      const e = toAvatarError(error, 'connect');
      if (this.state === 'closing') {
        this.#finishClosing(CloseCode.Normal, 'client closed');
        return;
      }
      if (this.state !== 'reconnecting') return;
      this.#machine.apply('fail');
      this.#deliverError(e);
      this.#finish({ code: e.closeCode ?? CloseCode.Abnormal, reason: e.code, error: e });
    }
  }

  // ----------------------------------------------------------------- traffic

  #onMessage(message: Message, raw: Uint8Array): void {
    this.#heldError.flush();
    const data = message.data;
    switch (data.case) {
      case 'serverResponseAnimation': {
        const { reqId, end } = data.value;
        if (!this.#resolved.hostMode || this.#turns.isFinished(reqId)) return; // interrupted: drop late output
        if (end) this.#turns.finish(reqId);
        let encoded: Uint8Array;
        try {
          encoded = this.#relay.animation(raw, data.value);
        } catch (error) {
          this.#deliverError(toAvatarError(error, 'stream'));
          return;
        }
        this.#deliver('onFrames', () => this.onFrames?.(encoded, end, { conversationId: reqId }));
        return;
      }
      case 'serverPlaybackState': {
        const info = playbackStateInfo(data.value);
        if (info.state === 'interrupted' && !this.#turns.isFinished(info.reqId)) {
          // The service stopped it (preempted, pause_timeout): the browser must stop too.
          this.#turns.dropRest(info.reqId);
          this.#turns.finish(info.reqId);
          this.#emitControl({ type: 'interrupt', conversationId: info.reqId });
        }
        this.#acks.settle(info);
        this.#deliver('onPlaybackState', () => this.onPlaybackState?.(info));
        return;
      }
      case 'serverError': {
        const error = serverErrorToAvatarError(data.value, 'stream');
        this.#acks.rejectRequest(data.value.reqId, error);
        this.#heldError.hold(error);
        return;
      }
      default:
        this.#deliverError(
          new AvatarError(
            'protocolError',
            `The service sent an unexpected ${data.case ?? 'empty'} message mid-session; ignored.`,
            { phase: 'stream' },
          ),
        );
    }
  }

  #onClose(code: number, reason: string): void {
    this.#socket = undefined;
    this.#acks.rejectAll(
      new AvatarError('connectionClosed', `The connection closed (${code}) before the service answered.`, {
        phase: 'stream',
      }),
    );
    if (this.state === 'closing') {
      this.#finishClosing(code, reason);
      return;
    }
    const serverError = this.#heldError.claim(code);
    const error = serverError
      ? new AvatarError(serverError.code, serverError.message, {
          phase: 'stream',
          closeCode: code,
          retryable: isRetryableCloseCode(code),
          ...(serverError.details && { details: serverError.details }),
        })
      : AvatarError.fromClose(code, reason, 'stream');
    // The request in flight is lost with the connection: the browser must stop it.
    const inFlight = this.#turns.lost();
    if (inFlight !== undefined && !this.#turns.isFinished(inFlight)) {
      this.#turns.finish(inFlight);
      this.#emitControl({ type: 'interrupt', conversationId: inFlight });
    }
    if (shouldReconnectAfterDrop(error, this.#resolved.reconnect.afterDrop)) {
      this.#machine.apply('drop');
      this.#deliverError(error);
      void this.#reconnectAfterDrop();
      return;
    }
    this.#machine.apply('fail');
    this.#deliverError(error);
    this.#finish({ code, reason, error });
  }

  #finishClosing(code: number, reason: string): void {
    if (this.state !== 'closing') return;
    this.#machine.apply('closed');
    this.#finish({ code, reason });
  }

  /** Ends the session once: pending acks fail, relay streams end, `onClose` is queued. */
  #finish(event: SessionCloseEvent): void {
    if (this.#closeEvent) return;
    this.#heldError.flush();
    this.#closeEvent = event;
    this.#socket = undefined;
    this.#acks.rejectAll(
      new AvatarError('connectionClosed', 'The session closed before the service answered.', {
        phase: 'close',
      }),
    );
    this.#emitControl({ type: 'end', reason: event.error ? event.error.code : 'closed' });
    this.#relay.end();
    this.#deliver('onClose', () => this.onClose?.(event));
    void this.#queue.idle().then(() => this.#resolveClosed(event));
  }

  // ---------------------------------------------------------------- playback

  #playbackControl(op: PlaybackOp): Promise<PlaybackStateInfo> {
    try {
      const socket = this.#requireConnected(`${op}()`);
      return this.#acks.request(op, socket.capabilities, this.#turns.latest, (reqId) => {
        socket.send(op === 'pause' ? pauseMessage(reqId) : resumeMessage(reqId));
        this.#emitControl({ type: op, conversationId: reqId });
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // ------------------------------------------------------------------ relay

  #emitAudio(reqId: string, pcm: Uint8Array, last: boolean): void {
    const sampleRate = this.#resolved.sampleRate;
    const encoded = this.#relay.audio(reqId, pcm, sampleRate, last);
    this.#deliver('onAudio', () => this.onAudio?.(encoded, { conversationId: reqId, last, sampleRate }));
  }

  /** Host mode: a control event for the browser (RTC mode has no relay). */
  #emitControl(control: RelayControl): void {
    if (this.#resolved.hostMode) this.#relay.control(control);
  }

  // -------------------------------------------------------------- callbacks

  #requireConnected(what: string): Ingress {
    const socket = this.#socket;
    if (this.state !== 'connected' || !socket) throw notConnectedError(what, this.state);
    return socket;
  }

  #deliver(name: string, run: () => unknown): void {
    this.#queue.push(name, run);
  }

  #deliverError(error: AvatarError): void {
    this.#deliver('onError', () => this.onError?.(error));
  }

  #reportCallbackError(name: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const report = new AvatarError(
      'unknown',
      `Your ${name} callback threw (${message}). Later callbacks were still delivered in order; fix the callback.`,
      { phase: 'stream', retryable: false, cause: error },
    );
    if (name === 'onError' || this.onError === undefined) {
      process.emitWarning(report.message, { code: 'AVATAR_DRIVE_CALLBACK' });
      return;
    }
    this.#deliverError(report);
  }
}
