/**
 * One driveningress.v2 session on an accepted WebSocket: configure → confirm, audio through the
 * engine, animation back in order, interrupt/pause/resume, server-reported playback states, and
 * every limit. A bad input ends this session only (ServerError, then close); nothing it does can
 * throw into the server.
 */
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  AvatarError,
  type AvatarErrorCode,
  assertPcmChunk,
  confirmSessionMessage,
  decodeMessage,
  isAvatarError,
  isSupportedSampleRate,
  SERVER_CAPABILITIES,
  SERVER_ERROR_CODES,
  serverErrorMessage,
  wire,
} from '@avatar-drive/core';
import { create, toBinary } from '@bufbuild/protobuf';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { type EgressRegistry, egressKindOf } from '../egress/registry.js';
import type { EgressKind, EgressSession } from '../egress/types.js';
import type { EngineChannel, EnginePool, EngineResult } from '../engine/engine-pool.js';
import type { ServiceLimits } from '../limits.js';
import type { ServiceMetrics } from '../metrics.js';
import { AnimationEncoder } from './animation-encoder.js';
import { createReqIdCache, type FastAudioInput, readAudioInput } from './audio-fast-path.js';
import { readBinaryFramesAhead } from './frame-reader.js';
import { PlaybackClock, type PlaybackEntry, type PlaybackEvent } from './playback-clock.js';

const { MessageType, PlaybackState, AudioFormat } = wire;

export interface DriveSessionDeps {
  engine: EnginePool;
  egress: EgressRegistry;
  metrics: ServiceMetrics;
  limits: ServiceLimits;
  logger: Logger;
}

export interface DriveSessionInfo {
  connectionId: string;
  appId: string;
  avatarId: string;
}

type InterruptReason = 'explicit' | 'preempted' | 'pause_timeout';

interface RequestState {
  reqId: string;
  seq: number;
  cancelled: boolean;
  playback: PlaybackEntry;
  /** RTC mode: where the request stands in the egress (its real playout). */
  egressPhase?: 'playing' | 'ended' | 'interrupted';
  egressPlayedMs?: number;
  interruptReason?: InterruptReason;
}

type Phase = 'configuring' | 'opening' | 'active' | 'closed';

/** The rate of a ClientConfigureSession without sample_rate (the audio contract's default). */
const DEFAULT_SAMPLE_RATE = 16000;

/** Requests remembered per connection (for late interrupt/pause/resume). */
const KNOWN_REQUESTS = 64;

export class DriveSession {
  readonly info: DriveSessionInfo;
  readonly #ws: WebSocket;
  readonly #socket: Socket;
  readonly #deps: DriveSessionDeps;
  readonly #onClosed: () => void;
  #phase: Phase = 'configuring';
  #sampleRate = 0;
  #engine: EngineChannel | undefined;
  #egress: EgressSession | undefined;
  readonly #clock: PlaybackClock;
  readonly #animation: AnimationEncoder;
  readonly #known = new Map<string, RequestState>();
  #current: RequestState | undefined;
  #seq = 0;
  #pendingWhileOpening: Buffer[] = [];
  #idleTimer: NodeJS.Timeout | undefined;
  /** When the last message arrived (performance.now()); the idle timer re-arms from it. */
  #lastMessageAt = 0;
  readonly #reqIdCache = createReqIdCache();
  readonly #durationTimer: NodeJS.Timeout;
  /**
   * Animation goes to the socket as pre-built frames ({@link #sendFrame}) only when no extension
   * (per-message deflate) was negotiated: with one, ws's sender may queue, and ws must frame.
   */
  readonly #rawFrames: boolean;
  #backpressureTimer: NodeJS.Timeout | undefined;
  #backpressureSince = 0;
  #alive = true;
  /** Largest output this session ever had buffered (for tests and diagnostics). */
  maxBufferedBytes = 0;

  constructor(
    ws: WebSocket,
    socket: Socket,
    info: DriveSessionInfo,
    deps: DriveSessionDeps,
    onClosed: () => void,
  ) {
    this.#ws = ws;
    this.#socket = socket;
    this.info = info;
    this.#deps = deps;
    this.#onClosed = onClosed;
    this.#animation = new AnimationEncoder(info.connectionId, info.avatarId);
    this.#rawFrames = ws.extensions === '';
    this.#clock = new PlaybackClock((event) => this.#onPlayback(event), deps.limits.pauseTimeoutMs);
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
    this.#durationTimer = setTimeout(
      () =>
        this.fail(
          'sessionDurationExceeded',
          `The session reached its ${Math.round(deps.limits.maxSessionMs / 1000)} s limit. Open a new session (with a new token) to continue.`,
        ),
      deps.limits.maxSessionMs,
    );
    this.#lastMessageAt = performance.now();
    this.#armIdleTimer(deps.limits.idleTimeoutMs);
  }

  get phase(): Phase {
    return this.#phase;
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
    this.#send(
      serverErrorMessage({
        connectionId: this.info.connectionId,
        reqId,
        code: closeCode,
        message: `${code}: ${message}`,
      }),
    );
    this.#close(closeCode, code);
  }

  /** Ends the session without an error (server shutdown). */
  shutdown(): void {
    this.fail(
      'upstreamError',
      'The server is shutting down. Reconnect with backoff (to another node or region).',
    );
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
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#durationTimer);
    clearInterval(this.#backpressureTimer);
    this.#clock.dispose();
    this.#engine?.close();
    void this.#egress?.close().catch(() => undefined);
    this.#deps.metrics.liveSessions.dec();
    if (this.#socket.isPaused()) this.#socket.resume();
    this.#onClosed();
  }

  /**
   * One timer per session, re-armed only when it fires early: a message only records its time
   * (a clearTimeout + setTimeout per 20 ms chunk was measurable timer churn at hundreds of sessions).
   */
  #armIdleTimer(delayMs: number): void {
    this.#idleTimer = setTimeout(
      () => {
        if (this.#phase === 'closed') return;
        const idleFor = performance.now() - this.#lastMessageAt;
        const limit = this.#deps.limits.idleTimeoutMs;
        if (idleFor < limit) {
          this.#armIdleTimer(limit - idleFor);
          return;
        }
        this.fail(
          'idleTimeout',
          `No message for ${Math.round(limit / 1000)} s. Open a new session when there is audio to send.`,
        );
      },
      Math.max(1, Math.ceil(delayMs)),
    );
  }

  // ------------------------------------------------------------------ input

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (this.#phase === 'closed') return;
    this.#lastMessageAt = performance.now();
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
      const e = isAvatarError(error) ? error : new AvatarError('protocolError', String(error));
      this.fail(e.code, e.message);
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
    const clientTypes = [
      MessageType.CLIENT_CONFIGURE_SESSION,
      MessageType.CLIENT_AUDIO_INPUT,
      MessageType.CLIENT_INTERRUPT,
      MessageType.CLIENT_PAUSE,
      MessageType.CLIENT_RESUME,
    ] as number[];
    if (!clientTypes.includes(type)) {
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
    switch (type) {
      case MessageType.CLIENT_AUDIO_INPUT:
        if (data.case === 'clientAudioInput') this.#audio(data.value);
        return;
      case MessageType.CLIENT_INTERRUPT:
        if (data.case === 'clientInterrupt') this.#interrupt(data.value.reqId);
        return;
      case MessageType.CLIENT_PAUSE:
        if (data.case === 'clientPause') this.#pauseOrResume('pause', data.value.reqId);
        return;
      case MessageType.CLIENT_RESUME:
        if (data.case === 'clientResume') this.#pauseOrResume('resume', data.value.reqId);
        return;
    }
  }

  // -------------------------------------------------------------- configure

  #configure(config: wire.ClientConfigureSession): void {
    if (config.audioFormat !== AudioFormat.PCM_S16LE) {
      const name = AudioFormat[config.audioFormat] ?? String(config.audioFormat);
      this.fail(
        'invalidAudio',
        `Audio format ${name} is not supported by this server yet. Send mono PCM_S16LE audio.`,
      );
      return;
    }
    // An unset sample_rate (proto3 default 0) is the contract's default rate.
    const sampleRate = config.sampleRate === 0 ? DEFAULT_SAMPLE_RATE : config.sampleRate;
    if (!isSupportedSampleRate(sampleRate)) {
      // "unsupported sample rate" is the phrase existing driveningress.v2 SDKs classify by.
      this.fail(
        'unsupportedSampleRate',
        `unsupported sample rate ${sampleRate} Hz. Use 8000, 16000, 22050, 24000, 32000, 44100 or 48000 Hz, or leave sample_rate unset for 16000.`,
      );
      return;
    }
    let kind: EgressKind | undefined;
    try {
      kind = egressKindOf(config.egressType);
    } catch (error) {
      const e = isAvatarError(error) ? error : new AvatarError('invalidEgressConfig', String(error));
      this.fail(e.code, e.message);
      return;
    }
    this.#sampleRate = sampleRate;
    try {
      this.#engine = this.#deps.engine.open(sampleRate);
    } catch (error) {
      this.fail(
        'upstreamError',
        `The engine is unavailable (${(error as Error).message}). Retry with backoff.`,
      );
      return;
    }
    if (!kind) {
      this.#confirm();
      return;
    }
    // RTC mode: confirm only once the avatar is in the room; input meanwhile waits in order.
    this.#phase = 'opening';
    this.#deps.egress
      .open(kind, {
        connectionId: this.info.connectionId,
        avatarId: this.info.avatarId,
        sampleRate,
        livekit: config.livekitEgress,
        agora: config.agoraEgress,
      })
      .then(
        (session) => {
          if (this.#phase === 'closed') {
            void session.close();
            return;
          }
          this.#attachEgress(session);
          this.#confirm();
          const pending = this.#pendingWhileOpening;
          this.#pendingWhileOpening = [];
          for (const data of pending) this.#onMessage(data, true);
        },
        (error: unknown) => {
          const e = isAvatarError(error) ? error : new AvatarError('egressUnavailable', String(error));
          this.fail(e.code, e.message);
        },
      );
  }

  /**
   * RTC mode: lifecycle comes from the egress's real playout (when audio leaves the avatar's
   * track), not from the WebSocket clock. Each request gets PLAYING, then either one
   * ServerResponseAnimation with end=true and no keyframes plus ENDED, or INTERRUPTED.
   */
  #attachEgress(session: EgressSession): void {
    this.#egress = session;
    session.on('playing', ({ reqId }) => {
      const request = this.#known.get(reqId);
      if (request) request.egressPhase = 'playing';
      this.#sendPlaybackState(reqId, PlaybackState.PLAYING, 0, '');
    });
    session.on('ended', ({ reqId, playedMs }) => {
      const request = this.#known.get(reqId);
      if (request) {
        request.egressPhase = 'ended';
        request.egressPlayedMs = playedMs;
      }
      this.#sendFinalEnd(reqId);
      this.#sendPlaybackState(reqId, PlaybackState.ENDED, playedMs, '');
    });
    session.on('interrupted', ({ reqId, playedMs }) => {
      const request = this.#known.get(reqId);
      if (request) {
        request.egressPhase = 'interrupted';
        request.egressPlayedMs = playedMs;
        request.cancelled = true;
      }
      this.#sendFinalEnd(reqId);
      this.#sendPlaybackState(
        reqId,
        PlaybackState.INTERRUPTED,
        playedMs,
        request?.interruptReason ?? 'explicit',
      );
    });
    session.on('idle-timeout', ({ idleMs }) =>
      this.fail(
        'idleTimeout',
        `No audio for ${Math.round(idleMs / 1000)} s, so the avatar left the room. Open a new session when there is audio to send.`,
      ),
    );
    session.on('error', (error) => this.fail(error.code, error.message));
  }

  #confirm(): void {
    this.#phase = 'active';
    this.#send(
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
      const e = isAvatarError(error) ? error : new AvatarError('invalidAudio', String(error));
      this.fail(e.code, e.message, reqId);
      return;
    }
    let request = this.#known.get(reqId);
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
    if (!request) {
      // end() already started a new utterance (keeping the speaker adaptation); a preempted
      // request is reset by #cancel.
      if (this.#current) this.#cancel(this.#current, 'preempted');
      request = { reqId, seq: ++this.#seq, cancelled: false, playback: this.#clock.add(reqId) };
      this.#remember(request);
      this.#current = request;
    }
    const r = request;
    if (this.#egress && (pcm.length > 0 || end)) this.#egress.pushAudio(pcm, this.#sampleRate, reqId, end);
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
    this.#clock.received(r.playback, (pcm.length * 1000) / this.#sampleRate, end);
    if (end) {
      this.#current = undefined;
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
    this.#clock.received(r.playback, (pcm.length * 1000) / this.#sampleRate, end);
    if (end) this.#current = undefined;
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
    const metrics = this.#deps.metrics;
    metrics.recordEngineWork(samples / this.#sampleRate, result.cpuMs / 1000);
    if (this.#phase === 'closed' || request.cancelled) return;
    if (result.frames.length === 0 && !end) return;
    if (this.#egress) {
      this.#egress.pushFrames(result.frames, request.reqId, end);
    } else {
      if (this.#rawFrames) this.#sendFrame(this.#animation.encodeFrame(request.reqId, result.frames, end));
      else this.#sendBytes(this.#animation.encode(request.reqId, result.frames, end));
      metrics.recordFramesSent(result.frames.length);
    }
    if (end) this.#clock.outputFinished(request.playback);
  }

  #engineFailed(error: unknown, reqId: string): void {
    this.#deps.logger.error({ err: error, ...this.info }, 'engine call failed');
    this.fail('upstreamError', 'The lip-sync engine failed. Reconnect with backoff.', reqId);
  }

  // --------------------------------------------------------- playback control

  #interrupt(reqId: string): void {
    const request = this.#known.get(reqId);
    if (!request) {
      this.#reportUnknownRequest('ClientInterrupt', reqId);
      return;
    }
    // Interrupting a request also stops every older one still playing.
    for (const other of this.#known.values()) {
      if (other.seq <= request.seq) this.#cancel(other, 'explicit');
    }
  }

  #cancel(request: RequestState, reason: InterruptReason): void {
    if (this.#egress) {
      this.#cancelEgress(request, reason);
      return;
    }
    const finished = request.playback.phase === 'ended' || request.playback.phase === 'interrupted';
    if (finished && (request.playback.outputDone || request.cancelled)) return;
    request.cancelled = true;
    if (this.#current === request) {
      this.#current = undefined;
      this.#engine?.reset();
    }
    if (!request.playback.outputDone) this.#sendFinalEnd(request.reqId);
    this.#clock.interrupt(request.playback, reason);
  }

  /**
   * Every request's animation ends with exactly one `end = true` message, an interrupted one
   * too (empty, just before INTERRUPTED): clients without playback-state support, and relays
   * waiting for `end`, get their terminal signal (docs/protocol.md, "Interrupt").
   */
  #sendFinalEnd(reqId: string): void {
    if (this.#phase !== 'closed') this.#sendBytes(this.#animation.encode(reqId, [], true));
  }

  /** RTC mode: stops the request's egress output at once; exactly one INTERRUPTED follows. */
  #cancelEgress(request: RequestState, reason: InterruptReason): void {
    const egress = this.#egress!;
    if (request.cancelled || request.egressPhase === 'ended' || request.egressPhase === 'interrupted') return;
    request.cancelled = true;
    request.interruptReason = reason;
    if (this.#current === request) {
      this.#current = undefined;
      this.#engine?.reset();
    }
    // Bookkeeping only: in RTC mode the clock's events are not reported.
    this.#clock.interrupt(request.playback, reason);
    egress.interrupt(request.reqId);
    // The egress reports requests it holds; one it never queued is reported here.
    // (egressPhase is set by the listener the call above ran synchronously.)
    if ((request.egressPhase as RequestState['egressPhase']) !== 'interrupted') {
      request.egressPhase = 'interrupted';
      this.#sendFinalEnd(request.reqId);
      this.#sendPlaybackState(request.reqId, PlaybackState.INTERRUPTED, 0, reason);
    }
  }

  #pauseOrResume(op: 'pause' | 'resume', reqId: string): void {
    const request = this.#known.get(reqId);
    if (!request) {
      this.#reportUnknownRequest(op === 'pause' ? 'ClientPause' : 'ClientResume', reqId);
      return;
    }
    if (this.#egress) {
      // The clock keeps the pause timeout; the state reported is the egress's.
      if (op === 'pause') this.#clock.pause();
      else this.#clock.resume();
      const snap = op === 'pause' ? this.#egress.pause() : this.#egress.resume();
      const phase = request.egressPhase;
      const state =
        phase === 'ended'
          ? PlaybackState.ENDED
          : phase === 'interrupted'
            ? PlaybackState.INTERRUPTED
            : snap.state === 'paused'
              ? PlaybackState.PAUSED
              : PlaybackState.PLAYING;
      const playedMs = snap.reqId === reqId ? snap.playedMs : (request.egressPlayedMs ?? 0);
      this.#sendPlaybackState(request.reqId, state, playedMs, '');
      return;
    }
    if (op === 'pause') {
      this.#clock.pause();
    } else {
      this.#clock.resume();
    }
    this.#clock.refresh();
    const phase = request.playback.phase;
    const state =
      phase === 'ended'
        ? PlaybackState.ENDED
        : phase === 'interrupted'
          ? PlaybackState.INTERRUPTED
          : this.#clock.paused
            ? PlaybackState.PAUSED
            : PlaybackState.PLAYING;
    this.#sendPlaybackState(request.reqId, state, request.playback.playedMs, '');
  }

  #reportUnknownRequest(what: string, reqId: string): void {
    this.#deps.metrics.recordError('invalidRequest');
    this.#send(
      serverErrorMessage({
        connectionId: this.info.connectionId,
        reqId,
        code: SERVER_ERROR_CODES.invalidRequest,
        message: `invalidRequest: ${what} names req_id "${reqId}", which this connection has not seen. Name the req_id of your latest ClientAudioInput. The session continues.`,
      }),
    );
  }

  #onPlayback(event: PlaybackEvent): void {
    const { entry } = event;
    if (this.#egress) {
      // RTC mode reports the egress's playout; only the clock's pause timeout acts here.
      const request = this.#known.get(entry.reqId);
      if (event.kind === 'interrupted' && event.reason === 'pause_timeout' && request) {
        this.#cancelEgress(request, 'pause_timeout');
      }
      return;
    }
    switch (event.kind) {
      case 'playing':
        this.#sendPlaybackState(entry.reqId, PlaybackState.PLAYING, 0, '');
        return;
      case 'ended':
        this.#sendPlaybackState(entry.reqId, PlaybackState.ENDED, entry.playedMs, '');
        return;
      case 'interrupted': {
        const request = this.#known.get(entry.reqId);
        if (request && !request.cancelled) {
          // pause_timeout comes from the clock: stop the request's output too.
          request.cancelled = true;
          if (this.#current === request) {
            this.#current = undefined;
            this.#engine?.reset();
          }
          if (!entry.outputDone) this.#sendFinalEnd(entry.reqId);
        }
        this.#sendPlaybackState(entry.reqId, PlaybackState.INTERRUPTED, entry.playedMs, event.reason);
        return;
      }
    }
  }

  #sendPlaybackState(reqId: string, state: wire.PlaybackState, playedMs: number, reason: string): void {
    if (this.#phase === 'closed') return;
    this.#send(
      create(wire.MessageSchema, {
        type: MessageType.SERVER_PLAYBACK_STATE,
        data: {
          case: 'serverPlaybackState',
          value: {
            connectionId: this.info.connectionId,
            reqId,
            state,
            playedMs: BigInt(Math.round(playedMs)),
            reason,
          },
        },
      }),
    );
  }

  #remember(request: RequestState): void {
    this.#known.set(request.reqId, request);
    if (this.#known.size > KNOWN_REQUESTS) {
      for (const [id, old] of this.#known) {
        if (this.#known.size <= KNOWN_REQUESTS) break;
        if (old.playback.phase === 'ended' || old.playback.phase === 'interrupted') this.#known.delete(id);
      }
    }
  }

  // ----------------------------------------------------------------- output

  #send(message: wire.Message): void {
    this.#sendBytes(toBinary(wire.MessageSchema, message));
  }

  #sendBytes(bytes: Uint8Array): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    this.#ws.send(bytes);
    this.#afterSend();
  }

  /**
   * Sends a complete WebSocket frame (header included, {@link AnimationEncoder.encodeFrame}) with
   * one socket write. Safe beside ws's own writes: without per-message deflate (see
   * {@link #rawFrames}) ws's sender never queues, it writes each frame to the socket synchronously,
   * so frames cannot interleave; and nothing is written once ws has started closing (readyState is
   * then CLOSING).
   */
  #sendFrame(frame: Buffer): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    this.#socket.write(frame);
    this.#afterSend();
  }

  #afterSend(): void {
    const buffered = this.#ws.bufferedAmount;
    if (buffered > this.maxBufferedBytes) this.maxBufferedBytes = buffered;
    if (buffered > this.#deps.limits.maxOutputBufferBytes && !this.#backpressureTimer)
      this.#startBackpressure();
  }

  /**
   * The reader is slower than the output: stop reading its input (so the engine produces nothing
   * more) until the buffer drains; close the session if that takes too long.
   */
  #startBackpressure(): void {
    this.#socket.pause();
    this.#backpressureSince = Date.now();
    this.#backpressureTimer = setInterval(() => {
      if (this.#ws.bufferedAmount <= this.#deps.limits.maxOutputBufferBytes / 2) {
        clearInterval(this.#backpressureTimer);
        this.#backpressureTimer = undefined;
        this.#socket.resume();
        return;
      }
      if (Date.now() - this.#backpressureSince > this.#deps.limits.slowReaderTimeoutMs) {
        clearInterval(this.#backpressureTimer);
        this.#backpressureTimer = undefined;
        this.#deps.metrics.recordError('invalidRequest');
        this.#deps.logger.info(this.info, 'session closed: slow reader');
        this.#cleanup();
        this.#ws.terminate();
      }
    }, 20);
  }
}
