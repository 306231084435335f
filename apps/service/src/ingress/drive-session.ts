/**
 * One driveningress.v2 session on an accepted WebSocket: configure → confirm, audio through the
 * engine, animation out in order, interrupt/pause/resume, and every limit. Where the output goes
 * (this WebSocket, or an RTC room through an egress) is one {@link SessionOutput} chosen at
 * configure; this class never asks which, and the output reports back through one
 * {@link OutputEvent} handler. The session owns the request timeline (its {@link PlaybackClock}).
 * A bad input ends this session only (ServerError, then close); nothing it does can throw into
 * the server.
 */
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  AvatarError,
  type AvatarErrorCode,
  confirmSessionMessage,
  createReqIdCache,
  decodeMessage,
  type FastAudioInput,
  isAvatarError,
  PlaybackState,
  playbackStateMessage,
  readAudioInput,
  SERVER_CAPABILITIES,
  SERVER_ERROR_CODES,
  serverErrorMessage,
  type wire,
} from '@avatar-drive/core';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { createSessionAudio, type SessionAudio } from '../audio/session-audio.js';
import { IntakeLimiter } from '../capacity/intake-limiter.js';
import { MessageFloodGuard } from '../capacity/message-flood.js';
import type { EgressRegistry } from '../egress/registry.js';
import { egressKindOf } from '../egress/registry.js';
import type { EngineChannel, EnginePool } from '../engine-pool/engine-pool.js';
import type { ServiceLimits } from '../limits.js';
import type { ServiceMetrics } from '../metrics.js';
import { configureDefaults, configureRefusal } from './configure-refusal.js';
import { PlaybackClock, type PlaybackEvent } from './output/playback-clock.js';
import {
  createSessionOutput,
  type DriveSessionInfo,
  type OutputEvent,
  type RequestState,
  type SessionOutput,
} from './output/session-output.js';
import { SessionRequests } from './session-requests.js';
import { SessionTimers } from './session-timers.js';
import { routeClientMessage } from './socket/client-messages.js';
import { readBinaryFramesAhead } from './socket/frame-reader.js';
import { OpeningBuffer } from './socket/opening-buffer.js';
import { WsSender } from './socket/ws-sender.js';
import { parseTraceparent } from './trace-context.js';
import { UtteranceFeed } from './utterance-feed.js';

export type { DriveSessionInfo } from './output/session-output.js';

export interface DriveSessionDeps {
  engine: EnginePool;
  egress: EgressRegistry;
  metrics: ServiceMetrics;
  limits: ServiceLimits;
  logger: Logger;
}

type Phase = 'configuring' | 'opening' | 'active' | 'closed';

/** An open utterance with no message for this long no longer holds a draining node. */
const STALLED_INPUT_MS = 1000;

export class DriveSession {
  readonly info: DriveSessionInfo;
  readonly sender: WsSender;
  readonly metrics: ServiceMetrics;
  readonly #ws: WebSocket;
  readonly #deps: DriveSessionDeps;
  readonly #onClosed: () => void;
  #phase: Phase = 'configuring';
  #engine: EngineChannel | undefined;
  #feed: UtteranceFeed | undefined;
  #output: SessionOutput | undefined;
  /** The request timeline (received audio, finished output, pause timeout), from configure on. */
  #clock: PlaybackClock | undefined;
  /** Turns ClientAudioInput bytes into PCM (PCM_S16LE or OGG_OPUS), chosen at configure. */
  #input: SessionAudio | undefined;
  readonly #requests = new SessionRequests();
  readonly #opening: OpeningBuffer;
  readonly #intake: IntakeLimiter;
  readonly #flood = new MessageFloodGuard();
  #sampleRate = 0;
  readonly #reqIdCache = createReqIdCache();
  readonly #timers: SessionTimers;
  #alive = true;

  constructor(
    ws: WebSocket,
    socket: Socket,
    info: DriveSessionInfo,
    deps: DriveSessionDeps,
    onClosed: () => void,
  ) {
    this.#ws = ws;
    this.info = info;
    this.#deps = deps;
    this.metrics = deps.metrics;
    this.#onClosed = onClosed;
    this.sender = new WsSender(ws, socket, deps.limits, () => {
      deps.metrics.recordError('invalidRequest');
      deps.logger.info(info, 'session closed: slow reader');
      this.#cleanup();
      ws.terminate();
    });
    this.#opening = new OpeningBuffer(socket, deps.limits.maxPendingWhileOpeningBytes);
    this.#intake = new IntakeLimiter(socket, deps.limits, () => this.sender.backpressured);
    deps.metrics.liveSessions.inc();
    ws.on('message', (data, isBinary) => this.#onMessage(data as Buffer, isBinary));
    // Plain binary frames (the audio chunks) skip ws's receiver; ws still gets everything else.
    readBinaryFramesAhead(ws, socket, deps.limits.maxMessageBytes, (payload) =>
      this.#onMessage(payload, true),
    );
    ws.on('close', () => this.#cleanup());
    ws.on('error', (error) => deps.logger.debug({ err: error.message, ...info }, 'websocket error'));
    ws.on('pong', () => {
      this.#alive = true;
    });
    this.#timers = new SessionTimers(
      deps.limits,
      () =>
        this.fail(
          'idleTimeout',
          `No message for ${Math.round(deps.limits.idleTimeoutMs / 1000)} s. Open a new session when there is audio to send.`,
        ),
      () =>
        this.fail(
          'sessionDurationExceeded',
          `The session reached its ${Math.round(deps.limits.maxSessionMs / 1000)} s limit. Open a new session (with a new token) to continue.`,
        ),
    );
  }

  get phase(): Phase {
    return this.#phase;
  }

  get closed(): boolean {
    return this.#phase === 'closed';
  }

  /** Largest output this session ever had buffered (for tests and diagnostics). */
  get maxBufferedBytes(): number {
    return this.sender.maxBufferedBytes;
  }

  /** Number of the latest utterance (request) of this session; 0 before the first. */
  get utteranceSeq(): number {
    return this.#requests.seq;
  }

  /**
   * True while an utterance of this session numbered `upTo` or lower has not finished playing
   * (its input still open, or its audio still playing out by the session's playback clock): a
   * draining node waits for the utterances that were open when it began, not for ones started
   * after. An utterance whose input is open but stalled (no message for {@link STALLED_INPUT_MS})
   * does not count: its client has stopped speaking without ending it.
   */
  busy(upTo = Number.POSITIVE_INFINITY): boolean {
    if (this.#phase !== 'active') return false;
    const stalled = this.#timers.idleMs > STALLED_INPUT_MS;
    for (const request of this.#requests.all()) {
      if (request.cancelled || request.seq > upTo) continue;
      if (stalled && !request.playback.inputEnded) continue;
      const phase = request.playback.phase;
      if (phase !== 'ended' && phase !== 'interrupted') return true;
    }
    return false;
  }

  /** Called by the server's ping loop: drops a peer that missed the previous pong. */
  heartbeat(): void {
    if (this.#phase === 'closed') return;
    if (!this.#alive) {
      this.#ws.terminate();
      return;
    }
    this.#alive = false;
    this.#ws.ping();
  }

  /** Sends ServerError with the code's number (SERVER_ERROR_CODES), then closes with the same code. */
  fail(code: AvatarErrorCode, message: string, reqId = ''): void {
    if (this.#phase === 'closed') return;
    const closeCode = SERVER_ERROR_CODES[code];
    this.#deps.metrics.recordError(code);
    this.#deps.logger.info(
      { ...this.info, code, closeCode, reqId, ...this.#traceFields(reqId) },
      `session closed: ${message}`,
    );
    this.sender.send(
      serverErrorMessage({
        connectionId: this.info.connectionId,
        reqId,
        code: closeCode,
        message: `${code}: ${message}`,
      }),
    );
    this.#close(closeCode, code);
  }

  /** {@link fail} with `error`'s code and message; other throwables become `fallback`. */
  #failWith(error: unknown, fallback: AvatarErrorCode, reqId = ''): void {
    const e = isAvatarError(error) ? error : new AvatarError(fallback, String(error));
    this.fail(e.code, e.message, reqId);
  }

  /** Ends the session without an error (server shutdown). */
  shutdown(): void {
    this.fail(
      'upstreamError',
      'The server is shutting down. Reconnect with backoff (to another node or region).',
    );
  }

  request(reqId: string): RequestState | undefined {
    return this.#requests.get(reqId);
  }

  /** Marks `request` cancelled; if it is the utterance in progress, resets the engine. */
  #stop(request: RequestState): void {
    request.cancelled = true;
    if (this.#requests.current === request) {
      this.#requests.current = undefined;
      this.#engine?.reset();
    }
  }

  #close(closeCode: number, reason: string): void {
    if (this.#phase === 'closed') return;
    this.#cleanup();
    this.#ws.close(closeCode, reason.slice(0, 120));
    // A peer that never answers the close handshake is dropped.
    setTimeout(() => this.#ws.terminate(), 2000).unref();
  }

  #cleanup(): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#timers.stop();
    this.#intake.dispose();
    this.#output?.close();
    this.#clock?.dispose();
    this.#engine?.close();
    this.#input?.close();
    this.#deps.metrics.liveSessions.dec();
    this.sender.dispose();
    this.#onClosed();
  }

  // ------------------------------------------------------------------ input

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (this.#phase === 'closed') return;
    this.#timers.touch();
    if (this.#phase === 'opening') {
      if (!this.#opening.push(data))
        this.fail(
          'invalidRequest',
          `More than ${Math.round(this.#deps.limits.maxPendingWhileOpeningBytes / 1024)} KiB arrived before ServerConfirmSession. In RTC mode, wait for ServerConfirmSession before sending audio.`,
        );
      return;
    }
    // Every message is charged, before any work on it: a flood of tiny ones is slowed (its socket
    // stops being read) like a flood of audio.
    this.#intake.admitMessage();
    if (this.#flood.arrived()) {
      this.#deps.logger.warn(this.info, 'session closed: message flood');
      this.fail('protocolError', MessageFloodGuard.explain());
      return;
    }
    if (this.#phase === 'active' && isBinary && data.byteLength <= this.#deps.limits.maxMessageBytes) {
      const audio = readAudioInput(data, this.#reqIdCache);
      if (audio) {
        this.#audio(audio);
        return;
      }
    }
    let message: wire.Message;
    try {
      message = decodeMessage(data, { isBinary, maxBytes: this.#deps.limits.maxMessageBytes });
    } catch (error) {
      this.#failWith(error, 'protocolError');
      return;
    }
    try {
      this.#dispatch(message);
    } catch (error) {
      this.#deps.logger.error({ err: error, ...this.info }, 'session handler failed');
      this.fail('serverError', 'The server failed to handle a message. Reconnect and try again.');
    }
  }

  #dispatch(message: wire.Message): void {
    const phase = this.#phase;
    const request = routeClientMessage(
      message,
      phase === 'configuring' || phase === 'active' ? phase : 'other',
    );
    switch (request.kind) {
      case 'refuse':
        this.fail('protocolError', request.message);
        return;
      case 'configure': {
        // Opening work, which the overload guard counts apart from what open sessions cost.
        const start = performance.now();
        this.#configure(request.config);
        this.metrics.recordOpeningWork(performance.now() - start);
        return;
      }
      case 'audio':
        this.#audio(request.input);
        return;
      case 'interrupt':
        this.#interrupt(request.reqId);
        return;
      case 'pause':
      case 'resume':
        this.#pauseOrResume(request.kind, request.reqId);
        return;
    }
  }

  // -------------------------------------------------------------- configure

  #configure(received: wire.ClientConfigureSession): void {
    const config = configureDefaults(received);
    const refused = configureRefusal(config);
    if (refused) {
      this.fail(refused.code, refused.message);
      return;
    }
    const { egress, limits } = this.#deps;
    // From here on the session runs at the PCM rate its input yields (an Opus stream may be
    // decoded at another rate than it was configured at).
    const input = createSessionAudio(config, egressKindOf(config.egressType) !== undefined);
    this.#input = input;
    config.sampleRate = input.sampleRate;
    const clock = new PlaybackClock((event) => this.#onTimeline(event), limits.pauseTimeoutMs);
    let output: SessionOutput;
    try {
      output = createSessionOutput(
        config,
        {
          info: this.info,
          sender: this.sender,
          metrics: this.metrics,
          clock,
          report: (event) => this.#onOutput(event),
        },
        egress,
      );
    } catch (error) {
      clock.dispose();
      this.#failWith(error, 'invalidEgressConfig');
      return;
    }
    this.#output = output;
    this.#clock = clock;
    try {
      this.#engine = this.#deps.engine.open(config.sampleRate);
      this.#sampleRate = config.sampleRate;
    } catch (error) {
      this.fail(
        'upstreamError',
        `The engine is unavailable (${(error as Error).message}). Retry with backoff.`,
      );
      return;
    }
    this.#feed = new UtteranceFeed(this, {
      engine: this.#engine,
      output,
      clock,
      requests: this.#requests,
      sampleRate: config.sampleRate,
      metrics: this.metrics,
      logger: this.#deps.logger,
    });
    const opening = output.open();
    if (!opening) {
      this.#confirm();
      return;
    }
    // Confirm only once the output is ready (RTC: the avatar is in the room); input waits in order.
    this.#phase = 'opening';
    this.#opening.start();
    opening.then(
      () => {
        if (this.#phase === 'closed') return;
        this.#confirm();
        const pending = this.#opening.drain();
        for (const data of pending) this.#onMessage(data, true);
      },
      (error: unknown) => {
        this.#failWith(error, 'egressUnavailable');
      },
    );
  }

  #confirm(): void {
    this.#phase = 'active';
    this.sender.send(
      confirmSessionMessage({ connectionId: this.info.connectionId, capabilities: SERVER_CAPABILITIES }),
    );
  }

  // ------------------------------------------------------------------ audio

  #audio(input: FastAudioInput | wire.ClientAudioInput): void {
    const { reqId, end, audio } = input;
    this.#flood.carried(audio.byteLength);
    if (!reqId) {
      this.fail(
        'invalidRequest',
        'ClientAudioInput needs a req_id. Generate one per utterance and reuse it for each chunk.',
      );
      return;
    }
    const decoder = this.#input!;
    // PCM is checked chunk by chunk, before anything else; a stream (Opus) only once its request
    // is known to be live, since a dropped request's bytes are not decoded.
    let pcm = decoder.standalone ? this.#decode(decoder, reqId, audio, end) : undefined;
    if (pcm === null) return;
    let request = this.#requests.get(reqId);
    if (request?.cancelled) return; // audio still in flight after an interrupt
    if (request?.playback.inputEnded) {
      this.fail(
        'invalidRequest',
        `Request ${reqId} already ended. Use a new req_id for each utterance.`,
        reqId,
      );
      return;
    }
    const output = this.#output!;
    if (!request) {
      // end() already started a new utterance (keeping the speaker adaptation); a preempted
      // request is reset by its cancel.
      if (this.#requests.current) output.cancel(this.#requests.current, 'preempted');
      request = this.#requests.start(reqId, this.#clock!);
      this.#traceRequest(request, input);
    }
    pcm ??= this.#decode(decoder, reqId, audio, end);
    if (pcm === null || (pcm.length === 0 && !end)) return;
    this.#feed!.push(request, pcm, end);
  }

  /** Takes the request's trace id from its first chunk's `trace_context` and logs the request. */
  #traceRequest(request: RequestState, input: FastAudioInput | wire.ClientAudioInput): void {
    const header = 'traceContext' in input ? input.traceContext?.traceparent : undefined;
    const trace = parseTraceparent(header);
    if (trace) request.traceId = trace.traceId;
    else if (header)
      this.#deps.logger.debug(
        { ...this.info, reqId: request.reqId },
        'trace_context ignored: not a W3C traceparent',
      );
    this.#deps.logger.debug(
      {
        ...this.info,
        reqId: request.reqId,
        seq: request.seq,
        ...this.#traceFields(request.reqId),
        ...(trace && { parentSpanId: trace.parentSpanId }),
      },
      'request started',
    );
  }

  /** `{ traceId }` of the request, for its log lines; empty without one. */
  #traceFields(reqId: string): { traceId?: string } {
    const traceId = reqId ? this.#requests.get(reqId)?.traceId : undefined;
    return traceId ? { traceId } : {};
  }

  // ------------------------------------------------------------- output events

  /** What the output reports; the only way it acts on the session. */
  #onOutput(event: OutputEvent): void {
    switch (event.type) {
      case 'stopped':
        this.#stop(event.request);
        return;
      case 'playback':
        this.#sendPlaybackState(event.reqId, event.state, event.playedMs, event.reason);
        return;
      case 'clear-buffer':
        this.#interruptAll();
        return;
      case 'failed':
        this.fail(event.code, event.message);
        return;
    }
  }

  /** The timeline's events go to the output, with their request when it is still remembered. */
  #onTimeline(event: PlaybackEvent): void {
    this.#output?.timeline(event, this.#requests.get(event.entry.reqId));
  }

  /** Sends one ServerPlaybackState, unless the session has ended; logs a request's last one. */
  #sendPlaybackState(
    reqId: string,
    state: PlaybackState,
    playedMs: number,
    reason: Extract<OutputEvent, { type: 'playback' }>['reason'],
  ): void {
    if (this.#phase === 'closed') return;
    if (state === PlaybackState.ENDED || state === PlaybackState.INTERRUPTED) {
      this.#deps.logger.debug(
        {
          ...this.info,
          reqId,
          state: PlaybackState[state]!.toLowerCase(),
          playedMs,
          ...this.#traceFields(reqId),
        },
        'request finished',
      );
    }
    this.sender.send(
      playbackStateMessage({
        connectionId: this.info.connectionId,
        reqId,
        state,
        playedMs: Math.max(0, Math.round(playedMs)),
        reason,
      }),
    );
  }

  /** One chunk's PCM, counted by the intake limiter; null once the session failed on it. */
  #decode(input: SessionAudio, reqId: string, audio: Uint8Array, end: boolean): Int16Array | null {
    let pcm: Int16Array;
    try {
      pcm = input.decode(reqId, audio, end);
    } catch (error) {
      this.#failWith(error, 'invalidAudio', reqId);
      return null;
    }
    this.#intake.admit(pcm.length, this.#sampleRate);
    return pcm;
  }

  // --------------------------------------------------------- playback control

  #interrupt(reqId: string): void {
    const request = this.#requests.get(reqId);
    if (!request) {
      this.#reportUnknownRequest('ClientInterrupt', reqId);
      return;
    }
    // Interrupting a request also stops every older one still playing.
    for (const other of this.#requests.upTo(request)) this.#output!.cancel(other, 'explicit');
  }

  /** Interrupts every request still playing or queued (the agent's `lk.clear_buffer`). */
  #interruptAll(): void {
    if (this.#phase !== 'active') return;
    for (const request of [...this.#requests.all()]) this.#output!.cancel(request, 'explicit');
  }

  #pauseOrResume(op: 'pause' | 'resume', reqId: string): void {
    const request = this.#requests.get(reqId);
    if (!request) {
      this.#reportUnknownRequest(op === 'pause' ? 'ClientPause' : 'ClientResume', reqId);
      return;
    }
    this.#output!.pauseOrResume(op, request);
  }

  #reportUnknownRequest(what: string, reqId: string): void {
    this.#deps.metrics.recordError('invalidRequest');
    this.sender.send(
      serverErrorMessage({
        connectionId: this.info.connectionId,
        reqId,
        code: SERVER_ERROR_CODES.invalidRequest,
        message: `invalidRequest: ${what} names req_id "${reqId}", which this connection has not seen. Name the req_id of your latest ClientAudioInput. The session continues.`,
      }),
    );
  }
}
