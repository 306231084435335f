/**
 * AvatarController: the session and playback side of an AvatarView, on every platform. SDK mode
 * sends the app's PCM over the ingress WebSocket and plays it with the animation that comes
 * back; Host mode plays the audio and animation the developer's server relays. Callbacks are
 * delivered in order and never re-entrantly (see {@link EventQueue}).
 *
 * The platform supplies the audio output ({@link PlaybackOutput}: WebAudio on the web, a native
 * audio graph on React Native), the WebSocket factory and the render target (its view, which
 * calls {@link AvatarController.frameForRender} once per displayed frame).
 */
import {
  AvatarError,
  animationToDriveFrames,
  assertPcmChunk,
  audioInputMessage,
  type ConnectionState,
  type ConversationState,
  createConnectionMachine,
  createConversationMachine,
  type DriveFrame,
  int16ToBytes,
  interruptMessage,
  type Message,
  pauseMessage,
  peekConversationId,
  type ReconnectPolicy,
  RelayDecoder,
  resumeMessage,
  shouldReconnectAfterDrop,
} from '@avatar-drive/core';
import { EventQueue } from './event-queue.js';
import { type ConfirmedSession, IngressConnection, type WebSocketFactory } from './ingress-connection.js';
import type { LocalEngine, LocalEngineFactory } from './local-engine.js';
import { logger } from './logger.js';
import {
  type AudioSink,
  type PlaybackOptions,
  type PlaybackSample,
  PlaybackScheduler,
} from './playback-scheduler.js';
import { AvatarSDK, requireConfig, type SdkConfig } from './sdk.js';

/**
 * The audio output a platform gives the controller: an {@link AudioSink} (clock + scheduled
 * playback) it can pause and set the volume of.
 */
export interface PlaybackOutput extends AudioSink {
  /** The audio-clock time being heard now (after output latency). */
  audibleTime(): number;
  setVolume(volume: number): void;
  suspend(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
  /**
   * Called when playback is about to start (not while paused): an output that the platform
   * keeps suspended until a user gesture (browsers' autoplay policy) resumes itself here.
   */
  wake?(): void;
}

/** Options of an {@link AvatarController} (given through the view's options). */
export interface AvatarControllerOptions extends PlaybackOptions {
  /** Creates the audio output; the platform package gives its default (WebAudio on the web). */
  createOutput?: () => PlaybackOutput;
  /**
   * Creates the on-device engine of `drivingServiceMode: 'local'`; the platform package gives
   * its default (client-web: the engine in a Worker).
   */
  createLocalEngine?: LocalEngineFactory;
  /** Creates WebSockets; default the platform's global `WebSocket`. */
  webSocket?: WebSocketFactory;
  /** Connection attempts across primary and backup; default 4 (the shared reconnect policy). */
  maxConnectAttempts?: number;
  /** Wait before the second round of attempts, doubling each round; default 250 ms. */
  backoffMs?: number;
  /** The rest of the shared reconnect policy (e.g. `jitter`, `maxDelayMs`). */
  reconnect?: Partial<ReconnectPolicy>;
  /**
   * Gets a fresh session token from your server. With it, an established session that drops
   * with a retryable code (45xx, an abnormal close such as a network switch) reconnects on its
   * own: `failed` (with `onError`), then `connecting` → `connected` → `idle` under the same
   * policy and region fallback. Without it the drop is reported and the app calls `start()`
   * again with a new token (a session token is single-use).
   */
  refreshSessionToken?: () => Promise<string>;
}

/** Audio-to-animation alignment at the last rendered instant (see {@link AvatarController.getSyncStats}). */
export interface SyncStats {
  /** Seconds of the current utterance's audio being heard. */
  audioPosition: number;
  /** Frame position shown (frames; `audioPosition · 25` when frames are on time). */
  framePosition: number | undefined;
  /** (framePosition / 25 − audioPosition) in ms: positive when the animation leads the audio. */
  offsetMs: number | undefined;
  /** How far behind the audio clock what is heard is (output latency), in ms. */
  outputLatencyMs: number;
  /** Times late audio pushed playback back. */
  stalls: number;
}

/**
 * The render target a platform's view gives its controller: the avatar id and a hook to cut
 * speech at once. The view takes drive frames by calling `controller.frameForRender()` once per
 * displayed frame (the frame for the audio being heard then) and blends them over its idle motion.
 */
export interface ControllerHost {
  readonly avatarId: string;
  /** Drops speech animation at once (interrupt). */
  cutSpeech(): void;
}

/** The render target of a controller (another name of {@link ControllerHost}). */
export type RenderTarget = ControllerHost;

const TICK_MS = 20;

/** Drives one AvatarView: connection (SDK mode), audio, animation, callbacks. */
export class AvatarController {
  /**
   * Connection state changes (SDK and local mode): connecting → connected | failed; close() →
   * disconnected. With `failed` comes the failure (its `code` and `message`), as the iOS and
   * Android SDKs carry it; the same error then reaches `onError`. In local mode they follow the
   * on-device engine: connecting while it loads, connected once it takes audio, failed when it
   * cannot start or crashes.
   */
  onConnectionState: ((state: ConnectionState, failure?: AvatarError) => void) | undefined;
  /** Conversation state changes: idle, playing (once per chunk), paused. */
  onConversationState: ((state: ConversationState) => void) | undefined;
  /** Errors that do not come back from a call (connection, server, playback). */
  onError: ((error: AvatarError) => void) | undefined;

  readonly #host: ControllerHost;
  readonly #config: SdkConfig;
  readonly #options: AvatarControllerOptions;
  readonly #events = new EventQueue();
  readonly #connection = createConnectionMachine();
  readonly #conversation = createConversationMachine();
  #output: PlaybackOutput | undefined;
  #scheduler: PlaybackScheduler | undefined;
  #ingress: IngressConnection | undefined;
  /** Local mode: the on-device engine of the current session. */
  #local: LocalEngine | undefined;
  #session: ConfirmedSession | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #disposed = false;
  #volume = 1;
  /** SDK mode: the open request (chunks sent, end not yet sent) and the latest request. */
  #openReqId: string | undefined;
  #latestReqId: string | undefined;
  #framesReceived = new Map<string, number>();
  /** Host mode. */
  readonly #relay = new RelayDecoder();
  #conversationId: string | undefined;
  readonly #pastConversations = new Set<string>();
  /** Host-mode conversations that entered audio-only mode: later animation is ignored. */
  readonly #audioOnly = new Set<string>();
  #lastSync: SyncStats | undefined;
  /** Why the connection is `failed` (reported with that state). */
  #failure: AvatarError | undefined;

  /** @internal Created by `AvatarView`; use `view.controller`. */
  constructor(host: ControllerHost, options: AvatarControllerOptions = {}) {
    this.#config = requireConfig('new AvatarView()');
    this.#host = host;
    this.#options = options;
    this.#connection.onChange((state) => {
      const failure = state === 'failed' ? this.#failure : undefined;
      this.#emit(() => this.onConnectionState?.(state, failure));
    });
    this.#conversation.onChange((state) => this.#emit(() => this.onConversationState?.(state)));
  }

  /** Current connection state (always `disconnected` in Host mode). */
  get connectionState(): ConnectionState {
    return this.#connection.state;
  }

  /** The failure behind a `failed` connection state (`code`, `message`); `undefined` in any other state. */
  get connectionFailure(): AvatarError | undefined {
    return this.#connection.state === 'failed' ? this.#failure : undefined;
  }

  /** Current conversation state. */
  get conversationState(): ConversationState {
    return this.#conversation.state;
  }

  /** The session the server confirmed (SDK mode), with the region it is in. */
  get session(): ConfirmedSession | undefined {
    return this.#session;
  }

  /**
   * Creates (or resumes) the AudioContext. Call it from a user gesture (click, key press):
   * browsers keep audio created outside one muted.
   */
  async initializeAudioContext(): Promise<void> {
    this.#assertUsable();
    const output = this.#ensureOutput();
    await output.resume();
  }

  /**
   * SDK mode: connects to the ingress with the session token (see `AvatarSDK.setSessionToken`),
   * moving to the backup region on a retryable failure. Local mode: loads the on-device engine
   * (no token, no network). Resolves when connected.
   * @throws AvatarError `invalidState` in Host mode or when already started; the connection
   *   failure otherwise (also reported through `onError`).
   */
  async start(): Promise<void> {
    this.#assertUsable();
    if (this.#config.mode === 'host') {
      throw new AvatarError(
        'invalidState',
        "start() is for drivingServiceMode 'sdk' or 'local'. In Host mode, feed relay messages with yieldAudioData()/yieldFramesData().",
      );
    }
    if (this.#connection.state === 'connecting' || this.#connection.state === 'connected') {
      throw new AvatarError(
        'invalidState',
        `start() was already called (connection is ${this.#connection.state}).`,
      );
    }
    this.#ensureOutput();
    this.#connection.apply('start');
    if (this.#config.mode === 'local') await this.#openLocal();
    else await this.#connect();
  }

  /** Local mode: starts the on-device engine; the connection state is already `connecting`. */
  async #openLocal(): Promise<void> {
    const create = this.#options.createLocalEngine;
    let engine: LocalEngine | undefined;
    try {
      if (!create) {
        throw new AvatarError(
          'invalidState',
          "drivingServiceMode 'local' needs an on-device engine: the platform package (client-web) passes createLocalEngine.",
          { phase: 'connect' },
        );
      }
      const opened = create();
      engine = opened;
      this.#local = opened;
      await opened.open(this.#config.sampleRate, {
        onFrames: (id, frames, end) => {
          if (this.#local === opened) this.#onLocalFrames(id, frames, end);
        },
        onFailure: (error) => {
          if (this.#local === opened) this.#onLocalFailure(error);
        },
      });
    } catch (cause) {
      if (engine && this.#local !== engine) throw cause; // close() during start
      this.#local = undefined;
      engine?.close();
      const error =
        cause instanceof AvatarError
          ? cause
          : new AvatarError('connectionFailed', `The on-device engine could not start: ${String(cause)}`, {
              cause,
              phase: 'connect',
            });
      this.#failure = error;
      this.#connection.apply('error');
      this.#emit(() => this.onError?.(error));
      throw error;
    }
    if (this.#local !== engine) return; // close() during start
    this.#connection.apply('open');
    this.#conversation.apply('reset');
  }

  /** Opens the ingress under the shared policy; the connection state is already `connecting`. */
  async #connect(): Promise<void> {
    const ingress = new IngressConnection({
      endpoints: this.#config.endpoints,
      appId: this.#config.appId,
      avatarId: this.#host.avatarId,
      sampleRate: this.#config.sampleRate,
      token: () => AvatarSDK.sessionToken,
      onMessage: (message) => this.#onMessage(message),
      onServerError: (error) => this.#emit(() => this.onError?.(error)),
      onClosed: (error) => this.#onConnectionLost(ingress, error),
      onRetry: (attempt, endpoint, error) =>
        logger.debug(`retry ${attempt} against ${endpoint.region} after ${error.code}`),
      ...(this.#options.webSocket && { webSocket: this.#options.webSocket }),
      reconnect: {
        ...this.#options.reconnect,
        ...(this.#options.maxConnectAttempts !== undefined && {
          maxAttempts: this.#options.maxConnectAttempts,
        }),
        ...(this.#options.backoffMs !== undefined && { initialDelayMs: this.#options.backoffMs }),
      },
    });
    this.#ingress = ingress;
    try {
      this.#session = await ingress.connect();
    } catch (error) {
      if (this.#ingress !== ingress) throw error; // close() during connect
      this.#ingress = undefined;
      const avatarError = error as AvatarError;
      this.#failure = avatarError;
      this.#connection.apply('error');
      this.#emit(() => this.onError?.(avatarError));
      throw avatarError;
    }
    if (this.#ingress !== ingress) return;
    this.#connection.apply('open');
    this.#conversation.apply('reset');
  }

  /** After a retryable drop: a fresh token from the app's server, then the same connect. */
  async #reconnectAfterDrop(refresh: () => Promise<string>): Promise<void> {
    let token: string;
    try {
      token = await refresh();
      if (this.#disposed || this.#connection.state !== 'failed') return; // closed meanwhile
      AvatarSDK.setSessionToken(token);
    } catch (cause) {
      const error =
        cause instanceof AvatarError
          ? cause
          : new AvatarError(
              'sessionTokenInvalid',
              'refreshSessionToken() failed; call start() with a new token.',
              {
                cause,
                phase: 'connect',
              },
            );
      this.#emit(() => this.onError?.(error));
      return;
    }
    this.#connection.apply('retry');
    await this.#connect().catch(() => undefined); // reported through the states and onError
  }

  /**
   * SDK mode: sends one chunk of PCM (mono s16le at the configured rate) and plays it with its
   * animation. Chunks form one utterance until one is sent with `end = true`; a new utterance
   * replaces the one playing. Returns the utterance's request id.
   * @throws AvatarError `invalidAudio` / `unsupportedSampleRate` for bad audio, `invalidState`
   *   when not connected or in Host mode.
   */
  send(pcm: Int16Array | Uint8Array | ArrayBuffer, end = false): string {
    this.#assertUsable();
    if (this.#config.mode === 'host') {
      throw new AvatarError(
        'invalidState',
        'send() is for SDK and local mode; in Host mode use yieldAudioData().',
      );
    }
    const samples = assertPcmChunk(pcm, this.#config.sampleRate);
    if (this.#connection.state !== 'connected' || !(this.#ingress || this.#local)) {
      throw new AvatarError(
        'invalidState',
        `send() needs a connected session (connection is ${this.#connection.state}): await controller.start() first.`,
      );
    }
    let reqId = this.#openReqId;
    const scheduler = this.#ensureScheduler();
    if (reqId === undefined) {
      reqId = newId();
      this.#openReqId = reqId;
      this.#latestReqId = reqId;
      this.#framesReceived.set(reqId, 0);
      scheduler.begin(reqId, this.#config.sampleRate);
    }
    if (this.#local) this.#local.push(reqId, samples, end);
    else this.#ingress!.send(audioInputMessage({ reqId, audio: int16ToBytes(samples), end }));
    if (end) this.#openReqId = undefined;
    scheduler.pushAudio(reqId, samples, end);
    this.#chunk();
    return reqId;
  }

  /**
   * Host mode: plays one relayed audio message and returns its conversation id. A message of a
   * new conversation replaces the one playing; a late one of an earlier conversation is ignored.
   * @throws AvatarError `protocolError` for malformed, duplicated, lost or reordered messages,
   *   `invalidState` in SDK mode.
   */
  yieldAudioData(encoded: Uint8Array | ArrayBuffer): string {
    this.#assertUsable();
    this.#assertHost('yieldAudioData()');
    const conversationId = peekConversationId(encoded);
    if (this.#pastConversations.has(conversationId)) return conversationId;
    const message = this.#relay.decode(encoded);
    if (message.kind !== 'audio') {
      throw new AvatarError(
        'invalidRequest',
        'yieldAudioData() got an animation message; pass it to yieldFramesData().',
      );
    }
    const scheduler = this.#ensureScheduler();
    if (conversationId !== this.#conversationId) {
      if (this.#conversationId !== undefined) this.#retire(this.#conversationId);
      this.#conversationId = conversationId;
      this.#framesReceived.set(conversationId, 0);
      scheduler.begin(conversationId, message.sampleRate);
    }
    const samples = assertPcmChunk(message.pcm);
    scheduler.pushAudio(conversationId, samples, message.last);
    this.#chunk();
    return conversationId;
  }

  /**
   * Host mode: the spec's general name for submitting audio — the same as
   * {@link AvatarController.yieldAudioData}: plays one relayed audio message and returns its
   * conversation id.
   */
  yield(encoded: Uint8Array | ArrayBuffer): string {
    return this.yieldAudioData(encoded);
  }

  /**
   * Host mode: adds relayed animation messages for `conversationId`. Messages of any other
   * conversation than the current one are dropped silently. Empty data (`[]` or `undefined`)
   * puts the conversation in audio-only mode: its audio plays without animation and animation
   * yielded for it later is ignored.
   * @throws AvatarError `protocolError` for malformed, duplicated, lost or reordered messages.
   */
  yieldFramesData(
    encoded: ReadonlyArray<Uint8Array | ArrayBuffer> | undefined,
    conversationId: string,
  ): void {
    this.#assertUsable();
    this.#assertHost('yieldFramesData()');
    if (encoded !== undefined && encoded !== null && !Array.isArray(encoded)) {
      throw new AvatarError(
        'invalidRequest',
        'yieldFramesData() takes an array of relay animation messages (empty or undefined for audio-only).',
      );
    }
    if (conversationId !== this.#conversationId) return;
    if (this.#audioOnly.has(conversationId)) return;
    const scheduler = this.#ensureScheduler();
    if (!encoded || encoded.length === 0) {
      this.#audioOnly.add(conversationId);
      scheduler.setAudioOnly(conversationId);
      return;
    }
    for (const bytes of encoded) {
      if (peekConversationId(bytes) !== conversationId) continue;
      const message = this.#relay.decode(bytes);
      if (message.kind !== 'animation') {
        throw new AvatarError(
          'invalidRequest',
          'yieldFramesData() got an audio message; pass it to yieldAudioData().',
        );
      }
      const frames = this.#takeFrames(conversationId, message.animation);
      if (frames.length > 0) scheduler.pushFrames(conversationId, frames);
      else if (message.last && this.#framesReceived.get(conversationId) === 0)
        scheduler.setAudioOnly(conversationId);
    }
  }

  /** Host mode: the conversation being played (the latest one yielded). */
  getCurrentConversationId(): string | undefined {
    return this.#conversationId;
  }

  /** Stops the current audio and animation at once (and tells the service in SDK mode). */
  interrupt(): void {
    this.#assertUsable();
    const reqId = this.#latestReqId;
    if (this.#config.mode === 'sdk' && reqId && this.#connection.state === 'connected') {
      this.#safeSend(interruptMessage(reqId));
    }
    if (reqId) this.#local?.cancel(reqId);
    this.#openReqId = undefined;
    this.#stopPlayback();
    if (this.#config.mode === 'host' && this.#conversationId !== undefined)
      this.#retire(this.#conversationId);
    if (this.#conversation.can('interrupt')) this.#conversation.apply('interrupt');
  }

  /**
   * Pauses audio and animation together (the audio clock stops).
   * @throws AvatarError `invalidState` unless playing.
   */
  async pause(): Promise<void> {
    this.#assertUsable();
    if (!this.#conversation.can('pause')) {
      throw new AvatarError(
        'invalidState',
        `pause() needs playback in progress (conversation is ${this.#conversation.state}).`,
      );
    }
    this.#conversation.apply('pause');
    if (this.#config.mode === 'sdk' && this.#latestReqId && this.#supports('playback_control')) {
      this.#safeSend(pauseMessage(this.#latestReqId));
    }
    await this.#output?.suspend();
  }

  /**
   * Resumes after {@link pause}.
   * @throws AvatarError `invalidState` unless paused.
   */
  async resume(): Promise<void> {
    this.#assertUsable();
    if (!this.#conversation.can('resume')) {
      throw new AvatarError(
        'invalidState',
        `resume() needs paused playback (conversation is ${this.#conversation.state}).`,
      );
    }
    this.#conversation.apply('resume');
    if (this.#config.mode === 'sdk' && this.#latestReqId && this.#supports('playback_control')) {
      this.#safeSend(resumeMessage(this.#latestReqId));
    }
    await this.#output?.resume();
  }

  /**
   * Sets the playback volume.
   * @throws AvatarError `invalidRequest` unless 0 ≤ volume ≤ 1.
   */
  setVolume(volume: number): void {
    if (typeof volume !== 'number' || !(volume >= 0 && volume <= 1)) {
      throw new AvatarError(
        'invalidRequest',
        `setVolume() takes a number from 0 to 1, got ${String(volume)}.`,
      );
    }
    this.#volume = volume;
    this.#output?.setVolume(volume);
  }

  /** Ends the session: stops playback, closes the connection (→ disconnected). Safe to call twice. */
  close(): void {
    const ingress = this.#ingress;
    const local = this.#local;
    this.#ingress = undefined;
    this.#local = undefined;
    this.#session = undefined;
    this.#openReqId = undefined;
    ingress?.close();
    local?.close();
    this.#stopPlayback();
    if (this.#output && this.#conversation.state === 'paused') void this.#output.resume();
    if (this.#conversation.state !== 'idle') this.#conversation.apply('reset');
    if (this.#connection.state !== 'disconnected') this.#connection.apply('close');
  }

  /**
   * Audio-to-animation alignment at the last rendered instant; `undefined` when nothing was
   * playing then. The offset is the shown frame's time minus the heard audio's time.
   */
  getSyncStats(): SyncStats | undefined {
    return this.#lastSync;
  }

  /** The platform's audio output, once created (e.g. the WebAudio sink on the web). */
  protected get output(): PlaybackOutput | undefined {
    return this.#output;
  }

  /** @internal The speech frame for the instant being rendered (called by AvatarView each frame). */
  frameForRender(): DriveFrame | undefined {
    const scheduler = this.#scheduler;
    const output = this.#output;
    if (!scheduler || !output) return undefined;
    this.#tick();
    const sample: PlaybackSample | undefined = scheduler.sample(output.audibleTime());
    if (!sample) {
      this.#lastSync = undefined;
      return undefined;
    }
    const latency = Math.max(0, output.currentTime - output.audibleTime());
    this.#lastSync = {
      audioPosition: sample.audioPosition,
      framePosition: sample.framePosition,
      offsetMs:
        sample.framePosition === undefined
          ? undefined
          : (sample.framePosition / 25 - sample.audioPosition) * 1000,
      outputLatencyMs: latency * 1000,
      stalls: scheduler.stallCount,
    };
    return sample.frame;
  }

  /**
   * @internal Reports an error of the platform's view (its surface or model failed) through
   * `onError`, in order with the other callbacks.
   */
  reportError(error: AvatarError): void {
    this.#emit(() => this.onError?.(error));
  }

  /** @internal Releases everything (called by AvatarView.dispose). */
  dispose(): void {
    if (this.#disposed) return;
    this.close();
    this.#disposed = true;
    this.#stopTicker();
    void this.#output?.close().catch(() => undefined);
    this.#output = undefined;
    this.#scheduler = undefined;
  }

  #onMessage(message: Message): void {
    switch (message.data.case) {
      case 'serverResponseAnimation': {
        const animation = message.data.value;
        const reqId = animation.reqId;
        const scheduler = this.#scheduler;
        if (!scheduler || reqId !== scheduler.currentId) return; // interrupted or preempted
        let frames: DriveFrame[];
        try {
          frames = this.#takeFrames(reqId, animation);
        } catch (error) {
          this.#emit(() => this.onError?.(error as AvatarError));
          return;
        }
        if (frames.length > 0) scheduler.pushFrames(reqId, frames);
        else if (animation.end && this.#framesReceived.get(reqId) === 0) scheduler.setAudioOnly(reqId);
        return;
      }
      case 'serverError':
        return; // reported once by the connection (with the close that may follow it)
      case 'serverPlaybackState':
        logger.debug('server playback state', message.data.value.state, message.data.value.reason);
        return;
      default:
        return;
    }
  }

  /** Local mode: frames of utterance `id` from the engine (what serverResponseAnimation is in SDK mode). */
  #onLocalFrames(id: string, frames: DriveFrame[], end: boolean): void {
    const scheduler = this.#scheduler;
    if (!scheduler || id !== scheduler.currentId) return; // interrupted or preempted
    const first = this.#framesReceived.get(id) ?? 0;
    for (let i = 0; i < frames.length; i++) frames[i]!.index = first + i;
    this.#framesReceived.set(id, first + frames.length);
    if (frames.length > 0) scheduler.pushFrames(id, frames);
    else if (end && first === 0) scheduler.setAudioOnly(id);
  }

  /** Local mode: the engine died; like a dropped session, without a reconnect (start() again). */
  #onLocalFailure(error: AvatarError): void {
    const local = this.#local;
    this.#local = undefined;
    this.#openReqId = undefined;
    local?.close();
    this.#stopPlayback();
    if (this.#conversation.state !== 'idle') this.#conversation.apply('reset');
    this.#failure = error;
    this.#connection.apply('error');
    this.#emit(() => this.onError?.(error));
  }

  #onConnectionLost(ingress: IngressConnection, error: AvatarError | undefined): void {
    if (this.#ingress !== ingress) return;
    this.#ingress = undefined;
    this.#session = undefined;
    this.#openReqId = undefined;
    this.#stopPlayback();
    if (this.#conversation.state !== 'idle') this.#conversation.apply('reset');
    if (error) {
      this.#failure = error;
      this.#connection.apply('error');
      this.#emit(() => this.onError?.(error));
      const refresh = this.#options.refreshSessionToken;
      if (refresh && shouldReconnectAfterDrop(error, true)) void this.#reconnectAfterDrop(refresh);
    } else {
      this.#connection.apply('close');
    }
  }

  #takeFrames(id: string, animation: Parameters<typeof animationToDriveFrames>[0]): DriveFrame[] {
    const first = this.#framesReceived.get(id) ?? 0;
    const frames = animationToDriveFrames(animation, first);
    this.#framesReceived.set(id, first + frames.length);
    return frames;
  }

  #chunk(): void {
    this.#conversation.apply('chunk');
    this.#startTicker();
  }

  #tick(): void {
    const scheduler = this.#scheduler;
    if (!scheduler) return;
    const finished = scheduler.update();
    if (finished !== undefined) {
      if (this.#config.mode === 'host') this.#retire(finished);
      if (this.#conversation.can('finished')) this.#conversation.apply('finished');
    }
    if (scheduler.currentId === undefined) this.#stopTicker();
  }

  #startTicker(): void {
    // Keeps playback moving when the page is hidden and requestAnimationFrame stops.
    this.#ticker ??= setInterval(() => this.#tick(), TICK_MS);
  }

  #stopTicker(): void {
    if (this.#ticker !== undefined) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #stopPlayback(): void {
    const stopped = this.#scheduler?.stop();
    if (stopped !== undefined) this.#host.cutSpeech();
    this.#stopTicker();
    if (this.#output && this.#conversation.state === 'paused') void this.#output.resume();
  }

  #retire(conversationId: string): void {
    this.#pastConversations.add(conversationId);
    if (this.#pastConversations.size > 256) {
      this.#pastConversations.delete(this.#pastConversations.values().next().value!);
    }
    this.#relay.forget(conversationId);
    this.#framesReceived.delete(conversationId);
    this.#audioOnly.delete(conversationId);
    if (this.#conversationId === conversationId) this.#conversationId = undefined;
  }

  #ensureOutput(): PlaybackOutput {
    if (!this.#output) {
      const create = this.#options.createOutput;
      if (!create) {
        throw new AvatarError(
          'invalidState',
          'This controller has no audio output: the platform package (client-web, react-native) passes createOutput.',
          { phase: 'playback' },
        );
      }
      this.#output = create();
      this.#output.setVolume(this.#volume);
    }
    return this.#output;
  }

  #ensureScheduler(): PlaybackScheduler {
    if (!this.#scheduler) {
      const output = this.#ensureOutput();
      if (this.#conversation.state !== 'paused') output.wake?.();
      this.#scheduler = new PlaybackScheduler(output, this.#options);
    }
    return this.#scheduler;
  }

  #supports(capability: string): boolean {
    return this.#session?.capabilities.includes(capability) ?? false;
  }

  #safeSend(message: Message): void {
    try {
      this.#ingress?.send(message);
    } catch (error) {
      logger.warn('could not send a control message:', error);
    }
  }

  #assertHost(what: string): void {
    if (this.#config.mode !== 'host') {
      throw new AvatarError(
        'invalidState',
        `${what} is for drivingServiceMode 'host'; in SDK mode use send().`,
      );
    }
  }

  #assertUsable(): void {
    if (this.#disposed) {
      throw new AvatarError(
        'invalidState',
        'This controller belongs to a disposed AvatarView; create a new view.',
      );
    }
  }

  #emit(deliver: () => void): void {
    this.#events.push(deliver);
  }
}

function newId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `req-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
