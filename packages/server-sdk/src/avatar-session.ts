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
 */
import { randomUUID } from 'node:crypto';
import {
  AudioFormat,
  AvatarError,
  assertPcmChunk,
  audioInputMessage,
  CloseCode,
  configureSessionMessage,
  connectWithFallback,
  type ErrorPhase,
  type IngressChannel,
  int16ToBytes,
  interruptMessage,
  isAvatarError,
  isRetryableCloseCode,
  isSupportedSampleRate,
  type Message,
  nearestSupportedSampleRate,
  openIngress,
  PlaybackState,
  pauseMessage,
  type RegionEndpoints,
  RelayEncoder,
  Resampler,
  type ResolvedEndpoint,
  resolveReconnectPolicy,
  responseAnimationBytes,
  resumeMessage,
  type StateMachine,
  SUPPORTED_SAMPLE_RATES,
  serverErrorToAvatarError,
  shouldReconnectAfterDrop,
  validateAudioFormat,
} from '@avatar-drive/core';
import { DEFAULT_RECONNECT, type ReconnectOptions } from './backoff.js';
import { CallbackQueue } from './callback-queue.js';
import { type EgressOptions, egressConfigure } from './egress.js';
import { endpointsFor } from './endpoints.js';
import { type NodeWebSocket, nodeWebSocket } from './node-web-socket.js';
import type { OggOpusWriter } from './ogg-opus-writer.js';
import { OpusSender, opusSendOptions, type SendAudioFormat } from './opus-sending.js';
import { encodeRelayControl, type RelayControl, type RelayEvent } from './relay-events.js';
import { RelayStream } from './relay-stream.js';
import { createSessionMachine, type SessionState, type SessionTrigger } from './session-state.js';
import { DEFAULT_TOKEN_TTL_SECONDS, requestSessionToken, resolveExpiry } from './session-token.js';

/** A confirmed ingress connection over Node's `ws`. */
type Ingress = IngressChannel<NodeWebSocket>;

/** Largest audio payload per ClientAudioInput; bigger chunks are split (the service caps frames). */
export const MAX_AUDIO_CHUNK_BYTES = 64 * 1024;

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

interface PendingAck {
  op: 'pause' | 'resume';
  reqId: string;
  resolve: (state: PlaybackStateInfo) => void;
  reject: (error: AvatarError) => void;
  timer: NodeJS.Timeout;
}

const STATE_NAMES: Record<number, PlaybackStateInfo['state'] | undefined> = {
  [PlaybackState.PLAYING]: 'playing',
  [PlaybackState.PAUSED]: 'paused',
  [PlaybackState.ENDED]: 'ended',
  [PlaybackState.INTERRUPTED]: 'interrupted',
};

/** How long a ServerError waits for the close that may follow it (to report both as one). */
const HOLD_SERVER_ERROR_MS = 200;

/** Requests remembered as interrupted or finished (their late animation is dropped). */
const REMEMBERED_REQUESTS = 256;

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

  readonly #options: AvatarSessionOptions;
  readonly #endpoints: ResolvedEndpoint[];
  readonly #reconnect: Required<ReconnectOptions>;
  readonly #machine: StateMachine<SessionState, SessionTrigger>;
  readonly #queue: CallbackQueue;
  readonly #configure: Message;
  readonly #hostMode: boolean;
  readonly #inputRate: number;
  readonly #sampleRate: number;
  readonly #relayEncoder = new RelayEncoder();
  readonly #relayStreams = new Set<RelayStream>();
  readonly #attempts: ConnectionAttempt[] = [];
  readonly #finished = new Set<string>();
  readonly #pendingAcks: PendingAck[] = [];
  #socket: Ingress | undefined;
  #endpoint: ResolvedEndpoint | undefined;
  #resampler: Resampler | undefined;
  /** The bitrate when sending Ogg Opus; its encoder (loaded by start()) and the turn's stream. */
  readonly #opusBitrate: number | undefined;
  #opus: OpusSender | undefined;
  #opusTurn: OggOpusWriter | undefined;
  #openReqId: string | undefined;
  #latestReqId: string | undefined;
  /** A turn interrupted before its end chunk: its remaining input is dropped (see sendAudio). */
  #interruptedTurn: string | undefined;
  #heldError: { error: AvatarError; timer: NodeJS.Timeout } | undefined;
  #closeEvent: SessionCloseEvent | undefined;
  #closedPromise: Promise<SessionCloseEvent>;
  #resolveClosed!: (event: SessionCloseEvent) => void;
  #wakeSleep: (() => void) | undefined;

  /** @throws AvatarError `invalidRequest`, `unsupportedSampleRate`, `invalidEgressConfig` for bad options. */
  constructor(options: AvatarSessionOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new AvatarError(
        'invalidRequest',
        'new AvatarSession() takes an options object: { avatarId, appId, apiKey, sampleRate }.',
      );
    }
    for (const field of ['avatarId', 'appId'] as const) {
      if (typeof options[field] !== 'string' || options[field].trim() === '') {
        throw new AvatarError('invalidRequest', `${field} is required: pass it as a non-empty string.`, {
          phase: 'initialize',
        });
      }
    }
    if (options.apiKey === undefined && options.sessionToken === undefined) {
      throw new AvatarError(
        'invalidRequest',
        'Pass apiKey (your server mints a token per connection) or sessionToken (a token, or a function returning one).',
        { phase: 'initialize' },
      );
    }
    if (
      options.apiKey !== undefined &&
      (typeof options.apiKey !== 'string' || options.apiKey.trim() === '')
    ) {
      throw new AvatarError('invalidRequest', 'apiKey must be a non-empty string.', { phase: 'initialize' });
    }
    const tokenType = typeof options.sessionToken;
    if (options.sessionToken !== undefined && tokenType !== 'string' && tokenType !== 'function') {
      throw new AvatarError('invalidRequest', 'sessionToken must be a string or a function returning one.', {
        phase: 'initialize',
      });
    }
    if (options.tokenTtlSeconds !== undefined) resolveExpiry({ ttlSeconds: options.tokenTtlSeconds });
    this.#options = { ...options };
    this.#endpoints = endpointsFor(options);
    const reconnect: ReconnectOptions =
      options.reconnect === false ? { maxAttempts: 1, afterDrop: false } : { ...options.reconnect };
    this.#reconnect = {
      ...resolveReconnectPolicy(reconnect),
      afterDrop: reconnect.afterDrop ?? DEFAULT_RECONNECT.afterDrop,
    };

    this.#inputRate = options.sampleRate;
    if (options.resample) {
      if (
        typeof options.sampleRate !== 'number' ||
        !Number.isInteger(options.sampleRate) ||
        options.sampleRate <= 0
      ) {
        throw new AvatarError(
          'invalidRequest',
          `sampleRate must be a positive whole number of Hz, got ${String(options.sampleRate)}.`,
        );
      }
      const target =
        options.resample === true ? nearestSupportedSampleRate(options.sampleRate) : options.resample.to;
      this.#sampleRate = validateAudioFormat({ sampleRate: target });
    } else {
      if (!isSupportedSampleRate(options.sampleRate)) {
        throw new AvatarError(
          'unsupportedSampleRate',
          `sampleRate ${String(options.sampleRate)} Hz is not supported by the service (${SUPPORTED_SAMPLE_RATES.join(', ')}). Pass resample: true to have the SDK resample, or resample yourself.`,
          { phase: 'initialize' },
        );
      }
      this.#sampleRate = options.sampleRate;
    }
    this.#hostMode = options.egress === undefined;
    this.#opusBitrate = opusSendOptions(options.audioFormat, options.opusBitrate, this.#sampleRate);
    this.#configure = configureSessionMessage({
      sampleRate: this.#sampleRate,
      ...(this.#opusBitrate !== undefined && {
        audioFormat: AudioFormat.OGG_OPUS,
        bitrate: this.#opusBitrate,
      }),
      ...egressConfigure(options.egress),
    });

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
    return this.#sampleRate;
  }

  /** Every connection attempt so far, in order. */
  get attempts(): readonly ConnectionAttempt[] {
    return this.#attempts;
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
    if (!this.#hostMode) {
      throw new AvatarError(
        'invalidState',
        'relay() is for Host mode; with egress the service publishes to the room itself.',
      );
    }
    if (this.state === 'closed')
      throw new AvatarError('invalidState', 'The session is closed; create a new AvatarSession.');
    const stream = new RelayStream((error) => this.#reportCallbackError('relay event listener', error));
    this.#relayStreams.add(stream);
    return stream;
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
      if (this.#opusBitrate !== undefined)
        this.#opus = await OpusSender.load(this.#sampleRate, this.#opusBitrate);
      const connectionId = await this.#connect('connect');
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
    const dropped = this.#interruptedTurn;
    if (dropped !== undefined) {
      if (end) this.#interruptedTurn = undefined;
      return dropped;
    }
    let reqId = this.#openReqId;
    if (reqId === undefined) {
      reqId = `req_${randomUUID()}`;
      this.#openReqId = reqId;
      this.#latestReqId = reqId;
      this.#resampler =
        this.#inputRate !== this.#sampleRate ? new Resampler(this.#inputRate, this.#sampleRate) : undefined;
      this.#opusTurn = this.#opus?.newTurn();
    }
    let out = samples;
    if (this.#resampler) {
      const head = this.#resampler.pushInt16(samples);
      if (end) {
        const tail = this.#resampler.flushInt16();
        out = new Int16Array(head.length + tail.length);
        out.set(head);
        out.set(tail, head.length);
      } else {
        out = head;
      }
    }
    if (end) {
      this.#openReqId = undefined;
      this.#resampler = undefined;
    }
    const bytes = int16ToBytes(out);
    const turn = this.#opusTurn;
    if (turn) {
      // Ogg Opus to the service; the relay still gets the PCM.
      if (end) this.#opusTurn = undefined;
      const ogg = end ? turn.end(out) : turn.push(out);
      sendPieces(ogg, end, (piece, last) =>
        socket.send(audioInputMessage({ reqId, audio: piece, end: last })),
      );
      if (this.#hostMode) sendPieces(bytes, end, (piece, last) => this.#emitAudio(reqId, piece, last));
      return reqId;
    }
    sendPieces(bytes, end, (piece, last) => {
      socket.send(audioInputMessage({ reqId, audio: piece, end: last }));
      if (this.#hostMode) this.#emitAudio(reqId, piece, last);
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
    const reqId = this.#latestReqId;
    if (reqId === undefined) return undefined;
    socket.send(interruptMessage(reqId));
    this.#dropRestOfTurn(reqId);
    this.#markFinished(reqId);
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
    this.#interruptedTurn = undefined;
    if (this.#openReqId !== undefined) this.sendAudio(new Int16Array(0), true);
  }

  /** True while `sendAudio` drops the rest of an interrupted turn (until its end chunk or `startTurn()`). */
  get turnInterrupted(): boolean {
    return this.#interruptedTurn !== undefined;
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
    this.#wakeSleep?.();
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

  async #connect(phase: ErrorPhase): Promise<string> {
    // The shared policy: every region once per round, backoff between rounds, 40xx final.
    return connectWithFallback({
      endpoints: this.#endpoints,
      policy: this.#reconnect,
      toError: (error) => toAvatarError(error, phase),
      checkStopped: () => this.#assertStillConnecting(),
      sleep: (ms) => this.#sleep(ms),
      attempt: async (endpoint) => {
        const record: ConnectionAttempt = {
          region: endpoint.region,
          ingressUrl: endpoint.ingressUrl,
          startedAt: Date.now(),
        };
        this.#attempts.push(record);
        try {
          const token = await this.#token(endpoint);
          this.#assertStillConnecting();
          const socket = await this.#open(endpoint, token);
          if (this.state !== 'connecting' && this.state !== 'reconnecting') {
            socket.close(CloseCode.Normal, 'client closed');
            this.#assertStillConnecting();
          }
          this.#socket = socket;
          this.#endpoint = endpoint;
          return socket.connectionId;
        } catch (error) {
          record.error = toAvatarError(error, phase);
          throw record.error;
        }
      },
    });
  }

  #assertStillConnecting(): void {
    if (this.state === 'closing' || this.state === 'closed') {
      throw new AvatarError('connectionClosed', 'close() was called while connecting.', {
        phase: 'connect',
        retryable: false,
      });
    }
  }

  async #token(endpoint: ResolvedEndpoint): Promise<string> {
    const { apiKey, sessionToken } = this.#options;
    if (typeof sessionToken === 'function') {
      const token = await sessionToken();
      if (typeof token !== 'string' || token === '') {
        throw new AvatarError(
          'invalidRequest',
          'The sessionToken function returned no token; return the token string.',
          { phase: 'connect' },
        );
      }
      return token;
    }
    if (typeof sessionToken === 'string') return sessionToken;
    const expireAt = resolveExpiry({
      ttlSeconds: this.#options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    });
    return requestSessionToken(endpoint.consoleUrl, apiKey!, expireAt, {
      timeoutMs: this.#options.connectTimeoutMs ?? 10_000,
    });
  }

  #open(endpoint: ResolvedEndpoint, token: string): Promise<Ingress> {
    let socket: Ingress | undefined;
    const current = () => socket !== undefined && socket === this.#socket;
    const url = new URL(endpoint.ingressUrl);
    url.searchParams.set('id', this.#options.avatarId);
    const timeoutMs = this.#options.connectTimeoutMs ?? 10_000;
    return openIngress(
      {
        // A server sends the credentials as upgrade headers, never in the URL.
        webSocket: nodeWebSocket({
          headers: { 'X-App-ID': this.#options.appId, 'X-Session-Key': token },
          handshakeTimeoutMs: timeoutMs,
        }),
        url: url.toString(),
        endpoint,
        sessionToken: token,
        configure: this.#configure,
        timeoutMs,
        binaryType: 'nodebuffer',
      },
      {
        onMessage: (message, raw) => {
          if (current()) this.#onMessage(message, raw);
        },
        onBadFrame: (error) => {
          if (current())
            this.#deliverError(new AvatarError(error.code, error.message, { phase: 'stream', cause: error }));
        },
        onClose: (code, reason) => {
          if (current()) this.#onClose(code, reason);
        },
      },
    ).then((s) => {
      socket = s;
      return s;
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeSleep = done;
    });
  }

  // ----------------------------------------------------------------- traffic

  #onMessage(message: Message, raw: Uint8Array): void {
    this.#flushHeldError();
    const data = message.data;
    switch (data.case) {
      case 'serverResponseAnimation': {
        const { reqId, end } = data.value;
        if (!this.#hostMode || this.#finished.has(reqId)) return; // interrupted: drop late output
        if (end) this.#markFinished(reqId);
        let encoded: Uint8Array;
        try {
          encoded = this.#relayEncoder.animation(reqId, responseAnimationBytes(raw, data.value), {
            last: end,
          });
        } catch (error) {
          this.#deliverError(toAvatarError(error, 'stream'));
          return;
        }
        this.#pushRelay({ type: 'animation', conversationId: reqId, data: encoded, last: end });
        this.#deliver('onFrames', () => this.onFrames?.(encoded, end, { conversationId: reqId }));
        return;
      }
      case 'serverPlaybackState': {
        const value = data.value;
        const info: PlaybackStateInfo = {
          reqId: value.reqId,
          state: STATE_NAMES[value.state] ?? 'playing',
          playedMs: Number(value.playedMs),
          reason: value.reason,
        };
        if (info.state === 'interrupted' || info.state === 'ended') {
          if (info.state === 'interrupted' && !this.#finished.has(info.reqId)) {
            // The service stopped it (preempted, pause_timeout): the browser must stop too.
            this.#dropRestOfTurn(info.reqId);
            this.#markFinished(info.reqId);
            if (this.#hostMode) this.#emitControl({ type: 'interrupt', conversationId: info.reqId });
          }
        }
        this.#settleAck(info);
        this.#deliver('onPlaybackState', () => this.onPlaybackState?.(info));
        return;
      }
      case 'serverError': {
        const error = serverErrorToAvatarError(data.value, 'stream');
        const ack = this.#pendingAcks.findIndex((a) => a.reqId === data.value.reqId);
        if (ack >= 0 && data.value.reqId !== '') {
          const [pending] = this.#pendingAcks.splice(ack, 1);
          clearTimeout(pending!.timer);
          pending!.reject(error);
        }
        // A fatal ServerError is followed by a close with its code: hold it briefly so it is
        // reported once, with the close code. Anything else arriving first releases it as is.
        this.#heldError = { error, timer: setTimeout(() => this.#flushHeldError(), HOLD_SERVER_ERROR_MS) };
        return;
      }
      default:
        this.#deliverError(
          new AvatarError(
            'protocolError',
            `The service sent an unexpected ${data.case ?? 'empty'} message mid-session; ignored.`,
            {
              phase: 'stream',
            },
          ),
        );
    }
  }

  #onClose(code: number, reason: string): void {
    this.#socket = undefined;
    this.#rejectAcks(
      new AvatarError('connectionClosed', `The connection closed (${code}) before the service answered.`, {
        phase: 'stream',
      }),
    );
    if (this.state === 'closing') {
      this.#finishClosing(code, reason);
      return;
    }
    const held = this.#heldError;
    const serverError = held?.error;
    const reported =
      serverError !== undefined &&
      (serverError.closeCode === code || serverError.details?.serverCode === code);
    if (!reported) this.#flushHeldError();
    else {
      clearTimeout(held!.timer);
      this.#heldError = undefined;
    }
    const error = reported
      ? new AvatarError(serverError.code, serverError.message, {
          phase: 'stream',
          closeCode: code,
          retryable: isRetryableCloseCode(code),
          ...(serverError.details && { details: serverError.details }),
        })
      : AvatarError.fromClose(code, reason, 'stream');
    // The request in flight is lost with the connection: the browser must stop it.
    const inFlight = this.#latestReqId;
    if (inFlight !== undefined) this.#dropRestOfTurn(inFlight);
    this.#openReqId = undefined;
    this.#resampler = undefined;
    if (inFlight !== undefined && !this.#finished.has(inFlight)) {
      this.#markFinished(inFlight);
      if (this.#hostMode) this.#emitControl({ type: 'interrupt', conversationId: inFlight });
    }
    if (shouldReconnectAfterDrop(error, this.#reconnect.afterDrop)) {
      this.#machine.apply('drop');
      this.#deliverError(error);
      void this.#reconnectAfterDrop();
      return;
    }
    this.#machine.apply('fail');
    this.#deliverError(error);
    this.#finish({ code, reason, error });
  }

  async #reconnectAfterDrop(): Promise<void> {
    try {
      await this.#connect('connect');
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

  #finishClosing(code: number, reason: string): void {
    if (this.state !== 'closing') return;
    this.#machine.apply('closed');
    this.#finish({ code, reason });
  }

  /** Ends the session once: pending acks fail, relay streams end, `onClose` is queued. */
  #finish(event: SessionCloseEvent): void {
    if (this.#closeEvent) return;
    this.#flushHeldError();
    this.#closeEvent = event;
    this.#socket = undefined;
    this.#rejectAcks(
      new AvatarError('connectionClosed', 'The session closed before the service answered.', {
        phase: 'close',
      }),
    );
    if (this.#hostMode) this.#emitControl({ type: 'end', reason: event.error ? event.error.code : 'closed' });
    for (const stream of this.#relayStreams) stream.end();
    this.#relayStreams.clear();
    this.#deliver('onClose', () => this.onClose?.(event));
    void this.#queue.idle().then(() => this.#resolveClosed(event));
  }

  // ---------------------------------------------------------------- playback

  #playbackControl(op: 'pause' | 'resume'): Promise<PlaybackStateInfo> {
    let socket: Ingress;
    try {
      socket = this.#requireConnected(`${op}()`);
      if (!socket.capabilities.includes('playback_control')) {
        throw new AvatarError(
          'invalidState',
          `This service does not support ${op}() (no playback_control capability).`,
          { phase: 'playback' },
        );
      }
      if (this.#latestReqId === undefined) {
        throw new AvatarError('invalidState', `Nothing to ${op}: send audio with sendAudio() first.`, {
          phase: 'playback',
        });
      }
    } catch (error) {
      return Promise.reject(error);
    }
    const reqId = this.#latestReqId;
    return new Promise<PlaybackStateInfo>((resolve, reject) => {
      const timeoutMs = this.#options.ackTimeoutMs ?? 5000;
      const pending: PendingAck = {
        op,
        reqId,
        resolve,
        reject,
        timer: setTimeout(() => {
          const i = this.#pendingAcks.indexOf(pending);
          if (i >= 0) this.#pendingAcks.splice(i, 1);
          reject(
            new AvatarError('serverError', `The service did not answer ${op}() within ${timeoutMs} ms.`, {
              phase: 'playback',
              retryable: true,
            }),
          );
        }, timeoutMs),
      };
      this.#pendingAcks.push(pending);
      socket.send(op === 'pause' ? pauseMessage(reqId) : resumeMessage(reqId));
      if (this.#hostMode) this.#emitControl({ type: op, conversationId: reqId });
    });
  }

  /** Matches a playback state to the oldest pause/resume waiting for it (acks come in order). */
  #settleAck(info: PlaybackStateInfo): void {
    const pending = this.#pendingAcks[0];
    if (!pending || pending.reqId !== info.reqId) return;
    const fits =
      info.state === 'ended' ||
      info.state === 'interrupted' ||
      (pending.op === 'pause' ? info.state === 'paused' : info.state === 'playing' && info.reason === '');
    if (!fits) return;
    this.#pendingAcks.shift();
    clearTimeout(pending.timer);
    pending.resolve(info);
  }

  #rejectAcks(error: AvatarError): void {
    for (const pending of this.#pendingAcks.splice(0)) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }

  // ------------------------------------------------------------------ relay

  #emitAudio(reqId: string, pcm: Uint8Array, last: boolean): void {
    const encoded = this.#relayEncoder.audio(reqId, pcm, { sampleRate: this.#sampleRate, last });
    const sampleRate = this.#sampleRate;
    this.#pushRelay({ type: 'audio', conversationId: reqId, data: encoded, last });
    this.#deliver('onAudio', () => this.onAudio?.(encoded, { conversationId: reqId, last, sampleRate }));
  }

  #emitControl(control: RelayControl): void {
    this.#pushRelay({ type: 'control', control, data: encodeRelayControl(control) });
  }

  #pushRelay(event: RelayEvent): void {
    for (const stream of this.#relayStreams) stream.push(event);
  }

  /** The turn `reqId` is over for the service; if it was still open, its remaining input is dropped. */
  #dropRestOfTurn(reqId: string): void {
    if (this.#openReqId !== reqId) return;
    this.#interruptedTurn = reqId;
    this.#openReqId = undefined;
    this.#resampler = undefined;
  }

  #markFinished(reqId: string): void {
    this.#finished.add(reqId);
    if (this.#finished.size > REMEMBERED_REQUESTS) {
      const oldest = this.#finished.values().next().value;
      if (oldest !== undefined) this.#finished.delete(oldest);
    }
  }

  // -------------------------------------------------------------- callbacks

  #requireConnected(what: string): Ingress {
    const socket = this.#socket;
    if (this.state !== 'connected' || !socket) {
      const hint =
        this.state === 'idle'
          ? 'await session.start() first'
          : this.state === 'connecting' || this.state === 'reconnecting'
            ? 'wait until onStateChange reports connected'
            : 'the session is closed; create a new AvatarSession';
      throw new AvatarError(
        'invalidState',
        `${what} needs a connected session (it is ${this.state}): ${hint}.`,
      );
    }
    return socket;
  }

  #deliver(name: string, run: () => unknown): void {
    this.#queue.push(name, run);
  }

  #flushHeldError(): void {
    const held = this.#heldError;
    if (!held) return;
    this.#heldError = undefined;
    clearTimeout(held.timer);
    this.#deliverError(held.error);
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

function toAvatarError(error: unknown, phase: ErrorPhase): AvatarError {
  if (isAvatarError(error)) return error;
  return new AvatarError('unknown', error instanceof Error ? error.message : String(error), {
    phase,
    cause: error,
  });
}

/** Hands `bytes` on in pieces of at most MAX_AUDIO_CHUNK_BYTES, `last` on the final one when `end`. */
function sendPieces(bytes: Uint8Array, end: boolean, send: (piece: Uint8Array, last: boolean) => void): void {
  const pieces = bytes.byteLength === 0 ? [bytes] : splitBytes(bytes, MAX_AUDIO_CHUNK_BYTES);
  pieces.forEach((piece, i) => {
    const last = end && i === pieces.length - 1;
    if (piece.byteLength === 0 && !last) return;
    send(piece, last);
  });
}

function splitBytes(bytes: Uint8Array, max: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += max)
    out.push(bytes.subarray(i, Math.min(bytes.byteLength, i + max)));
  return out;
}
