/**
 * AvatarController: the session and playback side of an AvatarView, on every platform. Where
 * the speech comes from is its {@link DriveSource}, chosen once from the mode (SDK: the ingress
 * WebSocket; local: the on-device engine; Host: relay messages from the developer's server);
 * the controller keeps the connection and conversation states, the audio-clock scheduler, the
 * audio output and the callbacks, delivered in order and never re-entrantly (see {@link EventQueue}).
 *
 * The platform supplies the audio output ({@link PlaybackOutput}: WebAudio on the web, a native
 * audio graph on React Native), the WebSocket factory and the render target (its view, which
 * calls {@link AvatarController.frameForRender} once per displayed frame).
 */
import {
  AvatarError,
  type ConnectionState,
  type ConversationState,
  createConnectionMachine,
  createConversationMachine,
  type DriveFrame,
} from '@avatar-drive/core';
import { EventQueue } from './event-queue.js';
import type { ConfirmedSession } from './ingress-connection.js';
import type { ControllerHost, PlaybackOutput, SyncStats } from './platform-seams.js';
import { type PlaybackOptions, type PlaybackSample, PlaybackScheduler } from './playback-scheduler.js';
import { requireConfig } from './sdk.js';
import { createDriveSource } from './sources/create-drive-source.js';
import type { DriveSource, DriveSourceOptions } from './sources/drive-source.js';

/** Options of an {@link AvatarController} (given through the view's options). */
export interface AvatarControllerOptions extends PlaybackOptions, DriveSourceOptions {
  /** Creates the audio output; the platform package gives its default (WebAudio on the web). */
  createOutput?: () => PlaybackOutput;
}

const TICK_MS = 20;

/** Drives one AvatarView: its drive source, audio, animation, callbacks. */
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
  readonly #options: AvatarControllerOptions;
  readonly #source: DriveSource;
  readonly #events = new EventQueue();
  readonly #connection = createConnectionMachine();
  readonly #conversation = createConversationMachine();
  #output: PlaybackOutput | undefined;
  #scheduler: PlaybackScheduler | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #disposed = false;
  #volume = 1;
  #lastSync: SyncStats | undefined;
  /** Why the connection is `failed` (reported with that state). */
  #failure: AvatarError | undefined;

  /** @internal Created by `AvatarView`; use `view.controller`. */
  constructor(host: ControllerHost, options: AvatarControllerOptions = {}) {
    const config = requireConfig('new AvatarView()');
    this.#host = host;
    this.#options = options;
    this.#connection.onChange((state) => {
      const failure = state === 'failed' ? this.#failure : undefined;
      this.#emit(() => this.onConnectionState?.(state, failure));
    });
    this.#conversation.onChange((state) => this.#emit(() => this.onConversationState?.(state)));
    this.#source = createDriveSource({
      config,
      avatarId: host.avatarId,
      options,
      connectionState: () => this.#connection.state,
      playing: () => this.#scheduler?.currentId,
    });
    this.#source
      .on('state', (state, failure) => this.#onSourceState(state, failure))
      .on('reconnecting', () => this.#connection.apply('retry'))
      .on('utterance', (id, sampleRate) => this.#ensureScheduler().begin(id, sampleRate))
      .on('audio', (id, pcm, end) => {
        this.#ensureScheduler().pushAudio(id, pcm, end);
        this.#conversation.apply('chunk');
        this.#startTicker();
      })
      .on('frames', (id, frames) => this.#scheduler?.pushFrames(id, frames))
      .on('audioOnly', (id) => this.#scheduler?.setAudioOnly(id))
      .on('error', (error) => this.#emit(() => this.onError?.(error)));
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
    return this.#source.session;
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
    if (this.#connection.state === 'connecting' || this.#connection.state === 'connected') {
      throw new AvatarError(
        'invalidState',
        `start() was already called (connection is ${this.#connection.state}).`,
      );
    }
    await this.#source.open();
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
    return this.#source.send(pcm, end);
  }

  /**
   * Host mode: plays one relayed audio message and returns its conversation id. A message of a
   * new conversation replaces the one playing; a late one of an earlier conversation is ignored.
   * @throws AvatarError `protocolError` for malformed, duplicated, lost or reordered messages,
   *   `invalidState` in SDK mode.
   */
  yieldAudioData(encoded: Uint8Array | ArrayBuffer): string {
    this.#assertUsable();
    return this.#source.yieldAudio(encoded);
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
    this.#source.yieldFrames(encoded, conversationId);
  }

  /** Host mode: the conversation being played (the latest one yielded). */
  getCurrentConversationId(): string | undefined {
    return this.#source.conversationId;
  }

  /** Stops the current audio and animation at once (and tells the service in SDK mode). */
  interrupt(): void {
    this.#assertUsable();
    this.#source.interrupt();
    this.#stopPlayback();
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
    this.#source.pause();
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
    this.#source.resume();
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
    this.#source.close();
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
      bufferedAheadMs:
        sample.framePosition === undefined
          ? undefined
          : (sample.framesReceived / 25 - sample.audioPosition) * 1000,
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

  /** The source's link changed: the connection state follows it. */
  #onSourceState(state: ConnectionState, failure: AvatarError | undefined): void {
    switch (state) {
      case 'connecting':
        this.#ensureOutput();
        this.#connection.apply('start');
        return;
      case 'connected':
        this.#connection.apply('open');
        this.#conversation.apply('reset');
        return;
      case 'failed':
      case 'disconnected':
        this.#stopPlayback();
        if (this.#conversation.state !== 'idle') this.#conversation.apply('reset');
        if (state === 'disconnected') {
          this.#connection.apply('close');
          return;
        }
        this.#failure = failure;
        this.#connection.apply('error');
        this.#emit(() => this.onError?.(failure!));
        return;
    }
  }

  #tick(): void {
    const scheduler = this.#scheduler;
    if (!scheduler) return;
    const finished = scheduler.update();
    if (finished !== undefined) {
      this.#source.finished(finished);
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
