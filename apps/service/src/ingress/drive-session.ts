/**
 * One driveningress.v2 session on an accepted WebSocket: configure → confirm, audio through the
 * engine, animation out in order, interrupt/pause/resume, and every limit. Where the output goes
 * (this WebSocket, or an RTC room through an egress) is one {@link SessionOutput} chosen at
 * configure; this class never asks which. A bad input ends this session only (ServerError, then
 * close); nothing it does can throw into the server.
 */
import type { Socket } from 'node:net';
import {
  AvatarError,
  type AvatarErrorCode,
  assertPcmChunk,
  confirmSessionMessage,
  createReqIdCache,
  decodeMessage,
  type FastAudioInput,
  isAvatarError,
  readAudioInput,
  SERVER_CAPABILITIES,
  SERVER_ERROR_CODES,
  serverErrorMessage,
  wire,
} from '@avatar-drive/core';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { EgressRegistry } from '../egress/registry.js';
import type { EngineChannel, EnginePool, EngineResult } from '../engine-pool/engine-pool.js';
import type { ServiceLimits } from '../limits.js';
import type { ServiceMetrics } from '../metrics.js';
import { configureRefusal } from './configure-refusal.js';
import { readBinaryFramesAhead } from './frame-reader.js';
import {
  createSessionOutput,
  type DriveSessionInfo,
  type OutputHost,
  type RequestState,
  type SessionOutput,
} from './session-output.js';
import { SessionRequests } from './session-requests.js';
import { SessionTimers } from './session-timers.js';
import { WsSender } from './ws-sender.js';

export type { DriveSessionInfo } from './session-output.js';

const { MessageType } = wire;

export interface DriveSessionDeps {
  engine: EnginePool;
  egress: EgressRegistry;
  metrics: ServiceMetrics;
  limits: ServiceLimits;
  logger: Logger;
}

type Phase = 'configuring' | 'opening' | 'active' | 'closed';

/** The message types a client may send (CLIENT_DRIVEN_CONFIG is accepted and ignored). */
const CLIENT_TYPES: ReadonlySet<number> = new Set([
  MessageType.CLIENT_CONFIGURE_SESSION,
  MessageType.CLIENT_AUDIO_INPUT,
  MessageType.CLIENT_INTERRUPT,
  MessageType.CLIENT_PAUSE,
  MessageType.CLIENT_RESUME,
]);

export class DriveSession implements OutputHost {
  readonly info: DriveSessionInfo;
  readonly sender: WsSender;
  readonly metrics: ServiceMetrics;
  readonly #ws: WebSocket;
  readonly #deps: DriveSessionDeps;
  readonly #onClosed: () => void;
  #phase: Phase = 'configuring';
  #sampleRate = 0;
  #engine: EngineChannel | undefined;
  #output: SessionOutput | undefined;
  readonly #requests = new SessionRequests();
  #pendingWhileOpening: Buffer[] = [];
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
    this.#deps.logger.info({ ...this.info, code, closeCode, reqId }, `session closed: ${message}`);
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

  stop(request: RequestState): void {
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
    this.#output?.close();
    this.#engine?.close();
    this.#deps.metrics.liveSessions.dec();
    this.sender.dispose();
    this.#onClosed();
  }

  // ------------------------------------------------------------------ input

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (this.#phase === 'closed') return;
    this.#timers.touch();
    if (this.#phase === 'opening') {
      this.#pendingWhileOpening.push(data);
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
    const { type, data } = message;
    if (type === MessageType.CLIENT_DRIVEN_CONFIG) return; // internal; accepted and ignored
    if (!CLIENT_TYPES.has(type)) {
      this.fail(
        'protocolError',
        `Message type ${type} (${MessageType[type] ?? 'unknown'}) is not one a client may send. Send ClientConfigureSession, ClientAudioInput, ClientInterrupt, ClientPause or ClientResume.`,
      );
      return;
    }
    if (type === MessageType.CLIENT_CONFIGURE_SESSION) {
      if (this.#phase !== 'configuring') {
        this.fail(
          'protocolError',
          'The session is already configured. Send ClientConfigureSession once, first; open a new session to change it.',
        );
        return;
      }
      if (data.case === 'clientConfigureSession') this.#configure(data.value);
      return;
    }
    if (this.#phase !== 'active') {
      this.fail(
        'protocolError',
        `${MessageType[type]} arrived before ClientConfigureSession. Send ClientConfigureSession first and wait for ServerConfirmSession.`,
      );
      return;
    }
    switch (data.case) {
      case 'clientAudioInput':
        this.#audio(data.value);
        return;
      case 'clientInterrupt':
        this.#interrupt(data.value.reqId);
        return;
      case 'clientPause':
        this.#pauseOrResume('pause', data.value.reqId);
        return;
      case 'clientResume':
        this.#pauseOrResume('resume', data.value.reqId);
        return;
    }
  }

  // -------------------------------------------------------------- configure

  #configure(config: wire.ClientConfigureSession): void {
    const refused = configureRefusal(config);
    if (refused) {
      this.fail(refused.code, refused.message);
      return;
    }
    const { egress, limits } = this.#deps;
    let output: SessionOutput;
    try {
      output = createSessionOutput(config, this, { egress, pauseTimeoutMs: limits.pauseTimeoutMs });
    } catch (error) {
      this.#failWith(error, 'invalidEgressConfig');
      return;
    }
    this.#output = output;
    this.#sampleRate = config.sampleRate;
    try {
      this.#engine = this.#deps.engine.open(config.sampleRate);
    } catch (error) {
      this.fail(
        'upstreamError',
        `The engine is unavailable (${(error as Error).message}). Retry with backoff.`,
      );
      return;
    }
    const opening = output.open();
    if (!opening) {
      this.#confirm();
      return;
    }
    // Confirm only once the output is ready (RTC: the avatar is in the room); input waits in order.
    this.#phase = 'opening';
    opening.then(
      () => {
        if (this.#phase === 'closed') return;
        this.#confirm();
        const pending = this.#pendingWhileOpening;
        this.#pendingWhileOpening = [];
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
    if (!reqId) {
      this.fail(
        'invalidRequest',
        'ClientAudioInput needs a req_id. Generate one per utterance and reuse it for each chunk.',
      );
      return;
    }
    let pcm: Int16Array;
    try {
      // Aligned bytes are viewed in place; unaligned ones are copied in one block (not per sample).
      pcm = assertPcmChunk(
        audio.byteOffset % 2 === 0 || audio.byteLength % 2 !== 0 ? audio : new Uint8Array(audio),
      );
    } catch (error) {
      this.#failWith(error, 'invalidAudio', reqId);
      return;
    }
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
    const engine = this.#engine!;
    const output = this.#output!;
    if (!request) {
      // end() already started a new utterance (keeping the speaker adaptation); a preempted
      // request is reset by its cancel.
      if (this.#requests.current) output.cancel(this.#requests.current, 'preempted');
      request = this.#requests.start(reqId, output.clock);
    }
    const r = request;
    output.audio(r, pcm, end);
    if (engine.now) {
      this.#audioNow(engine.now, r, pcm, end);
      return;
    }
    if (pcm.length > 0) {
      engine.push(pcm).then(
        (result) => this.#emitFrames(r, result, false, pcm.length),
        (error: unknown) => this.#engineFailed(error, reqId),
      );
    }
    output.clock.received(r.playback, (pcm.length * 1000) / this.#sampleRate, end);
    if (end) {
      this.#requests.current = undefined;
      engine.end().then(
        (result) => this.#emitFrames(r, result, true, 0),
        (error: unknown) => this.#engineFailed(error, reqId),
      );
    }
  }

  /**
   * {@link #audio} for an engine on this thread: the same sequence as the promise path (compute,
   * clock, then frames; then the end flush), without a promise and closures per chunk.
   */
  #audioNow(now: NonNullable<EngineChannel['now']>, r: RequestState, pcm: Int16Array, end: boolean): void {
    let result: EngineResult | undefined;
    if (pcm.length > 0) {
      try {
        result = now.push(pcm);
      } catch (error) {
        this.#engineFailed(error, r.reqId);
        return;
      }
    }
    this.#output!.clock.received(r.playback, (pcm.length * 1000) / this.#sampleRate, end);
    if (end) this.#requests.current = undefined;
    if (result) this.#emitFrames(r, result, false, pcm.length);
    if (!end || this.#phase === 'closed') return;
    let last: EngineResult;
    try {
      last = now.end();
    } catch (error) {
      this.#engineFailed(error, r.reqId);
      return;
    }
    this.#emitFrames(r, last, true, 0);
  }

  #emitFrames(request: RequestState, result: EngineResult, end: boolean, samples: number): void {
    this.#deps.metrics.recordEngineWork(samples / this.#sampleRate, result.cpuMs / 1000);
    if (this.#phase === 'closed' || request.cancelled) return;
    if (result.frames.length === 0 && !end) return;
    const output = this.#output!;
    output.frames(request, result.frames, end);
    if (end) output.clock.outputFinished(request.playback);
  }

  #engineFailed(error: unknown, reqId: string): void {
    this.#deps.logger.error({ err: error, ...this.info }, 'engine call failed');
    this.fail('upstreamError', 'The lip-sync engine failed. Reconnect with backoff.', reqId);
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
