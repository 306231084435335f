/**
 * AvatarPlayer: RTC mode in the browser. The provider plays the avatar's audio as a native
 * WebRTC track; the player feeds only animation to the AvatarView, rendering each frame when
 * its audio is heard: service time T = local time − clock offset − playout delay of the track
 * (docs/rtc.md, "Alignment").
 */

import { AvatarSDK, type AvatarView } from '@avatar-drive/client-web';
import {
  AvatarError,
  type DriveFrame,
  decodeControlMessage,
  decodeFramePacket,
  isAvatarError,
} from '@avatar-drive/core';
import { ClockOffsetEstimator, jitterSampleFromStats, PlayoutDelayEstimator } from './clock.js';
import { TypedEmitter } from './emitter.js';
import { FrameTimeline } from './frame-timeline.js';
import type { AvatarAudioReceiver, RtcConnectConfig, RtcConnectionState, RtcProvider } from './provider.js';
import { SpeechEnvelope } from './speech-envelope.js';
import { StallDetector } from './stall-detector.js';

/** How much the player logs to the console. */
/** How much the player logs: the spec's `info`, `warning`, `error`, `none`, plus `debug`; `warn` and `silent` are aliases. */
export type PlayerLogLevel = 'debug' | 'info' | 'warning' | 'warn' | 'error' | 'none' | 'silent';

/** Options of {@link AvatarPlayer}. */
export interface AvatarPlayerOptions {
  /** Frames (40 ms) to fade from idle into speech; default 5. */
  transitionStartFrameCount?: number;
  /** Frames to fade from speech back to idle (also after an interrupt); default 40. */
  transitionEndFrameCount?: number;
  /** Console logging; default `warning`. */
  logLevel?: PlayerLogLevel;
  /**
   * Delay after the audio track's jitter buffer (decoding, mixing, output), ms; default 70
   * (calibrated in Chromium with livekit-client 2.16.1 by apps/e2e: with 40 the mouth led the
   * audio by 30 ms).
   */
  playoutPipelineMs?: number;
  /** Audio playing this long without frames counts as a stall; default 500 ms. */
  stallAfterMs?: number;
  /** How often the audio receiver's stats are read; default 100 ms (the delay estimate follows a growing jitter buffer from them). */
  statsIntervalMs?: number;
}

/** A stall: the avatar's audio plays but its frames stopped arriving. */
export interface StallInfo {
  /** Local time (ms, `performance.timeOrigin + now()`) the last frame packet arrived, if any. */
  lastPacketAtMs: number | undefined;
}

/** Typed events of {@link AvatarPlayer}. */
export interface AvatarPlayerEvents {
  /** Joined the room (also after a reconnection). */
  connected: () => void;
  /** Left the room; `reason` is the provider's reason name. */
  disconnected: (reason: string) => void;
  /** A failure: connecting, publishing, or a malformed packet from the avatar. */
  error: (error: AvatarError) => void;
  /** Audio plays but frames stopped arriving (once per episode). */
  stalled: (info: StallInfo) => void;
  /** Frames cover the audio again after a stall. */
  recovered: () => void;
}

/** What the player currently knows about alignment (for diagnostics and tests). */
export interface SyncStats {
  /** Local clock − service clock + path delay (ms), once a packet arrived. */
  clockOffsetMs: number | undefined;
  /** The avatar track's recent jitter-buffer delay (ms), once stats arrived. */
  jitterBufferMs: number | undefined;
  /** Total playout delay used (ms): jitter buffer + pipeline constant. */
  playoutDelayMs: number;
  /** Local time the last frame packet arrived. */
  lastPacketAtMs: number | undefined;
  /** Service time being rendered now, once the offset is known. */
  serviceTimeMs: number | undefined;
  /** Whether the audio track carried sound at the last stats read. */
  audioPlaying: boolean;
}

/** See {@link AvatarPlayerOptions.playoutPipelineMs}. */
const DEFAULT_PIPELINE_MS = 70;
/**
 * How far back the jitter-buffer delay is averaged. When the receiver's jitter buffer grows
 * (a late burst of packets on a loaded machine or network), its delay can rise by 100 ms within
 * a second: averaged over 1 s the estimate trailed it and the mouth ran up to 185 ms ahead of
 * the sound for a second (apps/e2e); 200 ms, read every 100 ms, follows within ~300 ms and
 * still varies by only ±5 ms while the buffer is steady.
 */
const PLAYOUT_WINDOW_MS = 200;

const LEVELS: Record<PlayerLogLevel, number> = {
  debug: 10,
  info: 20,
  warning: 30,
  warn: 30,
  error: 40,
  none: 100,
  silent: 100,
};
/** Mean power (0 … 1) above which the track counts as playing sound (≈ −50 dBFS). */
const AUDIBLE_POWER = 1e-5;

function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Plays an avatar in RTC mode: its audio natively, its animation on an {@link AvatarView}. */
export class AvatarPlayer extends TypedEmitter<AvatarPlayerEvents> {
  /** The room provider (e.g. a {@link LiveKitProvider}). */
  readonly provider: RtcProvider;
  /** The view the animation goes to. */
  readonly view: AvatarView;

  readonly #offset = new ClockOffsetEstimator();
  readonly #delay: PlayoutDelayEstimator;
  readonly #timeline = new FrameTimeline();
  readonly #envelope: SpeechEnvelope;
  readonly #stall: StallDetector;
  readonly #statsIntervalMs: number;
  readonly #logLevel: number;
  readonly #unsubscribe: Array<() => void> = [];
  #receiver: AvatarAudioReceiver | undefined;
  #statsTimer: ReturnType<typeof setInterval> | undefined;
  #lastPacketAtMs: number | undefined;
  #audioPlaying = false;
  #disposed = false;

  /**
   * Attaches to `view` (its speech frames now come from this player) and to `provider`'s events.
   * @throws AvatarError `notInitialized` before `AvatarSDK.initialize`, `invalidState` when the
   *   SDK is not in host mode, `invalidRequest` for bad options.
   */
  constructor(provider: RtcProvider, avatarView: AvatarView, options: AvatarPlayerOptions = {}) {
    super();
    if (!AvatarSDK.isInitialized) {
      throw new AvatarError(
        'notInitialized',
        "new AvatarPlayer() needs AvatarSDK.initialize(appId, { drivingServiceMode: 'host', ... }) first.",
      );
    }
    if (AvatarSDK.config.mode !== 'host') {
      throw new AvatarError(
        'invalidState',
        "AvatarPlayer plays RTC audio itself: initialize AvatarSDK with drivingServiceMode 'host'.",
      );
    }
    if (!provider || typeof provider.on !== 'function' || typeof provider.connect !== 'function') {
      throw new AvatarError(
        'invalidRequest',
        'new AvatarPlayer(provider, view) needs a provider such as LiveKitProvider.',
      );
    }
    if (!avatarView || typeof avatarView.setFrameSource !== 'function') {
      throw new AvatarError('invalidRequest', 'new AvatarPlayer(provider, view) needs an AvatarView.');
    }
    const start = frameCount(options.transitionStartFrameCount, 5, 'transitionStartFrameCount');
    const end = frameCount(options.transitionEndFrameCount, 40, 'transitionEndFrameCount');
    const level = options.logLevel ?? 'warning';
    if (typeof level !== 'string' || !Object.hasOwn(LEVELS, level)) {
      throw new AvatarError('invalidRequest', `logLevel must be one of ${Object.keys(LEVELS).join(', ')}.`);
    }
    this.provider = provider;
    this.view = avatarView;
    this.#logLevel = LEVELS[level];
    this.#envelope = new SpeechEnvelope(start, end);
    this.#delay = new PlayoutDelayEstimator(
      nonNegative(options.playoutPipelineMs, DEFAULT_PIPELINE_MS, 'playoutPipelineMs'),
      PLAYOUT_WINDOW_MS,
    );
    this.#stall = new StallDetector(nonNegative(options.stallAfterMs, 500, 'stallAfterMs'));
    this.#statsIntervalMs = Math.max(50, nonNegative(options.statsIntervalMs, 100, 'statsIntervalMs'));

    this.#listen('connected', () => this.emit('connected'));
    this.#listen('disconnected', (reason) => {
      this.#reset();
      this.emit('disconnected', reason);
    });
    this.#listen('error', (error) => this.emit('error', error));
    this.#listen('avatarAudio', (receiver) => this.#setReceiver(receiver));
    this.#listen('framePacket', (bytes, arrivalMs) => this.#onFramePacket(bytes, arrivalMs));
    this.#listen('controlMessage', (bytes) => this.#onControl(bytes));
    avatarView.setFrameSource(() => this.#frameNow());
  }

  /** True while the provider is connected. */
  get isConnected(): boolean {
    return this.provider.isConnected;
  }

  /** Joins the room (see {@link RtcProvider.connect}). */
  connect(config: RtcConnectConfig): Promise<void> {
    this.#requireLive('connect()');
    return this.provider.connect(config);
  }

  /** Leaves the room. */
  disconnect(): Promise<void> {
    return this.provider.disconnect();
  }

  /** Leaves and joins again with the last config. */
  reconnect(): Promise<void> {
    this.#requireLive('reconnect()');
    return this.provider.reconnect();
  }

  /** The provider's connection state (`failed` after a failed connect or reconnection). */
  getConnectionState(): RtcConnectionState {
    return this.provider.getConnectionState();
  }

  /** Publishes the user's microphone. */
  startPublishing(): Promise<void> {
    return this.provider.startPublishing();
  }

  /** Stops publishing the microphone. */
  stopPublishing(): Promise<void> {
    return this.provider.stopPublishing();
  }

  /** Publishes an audio track of your own as the user's audio. */
  publishAudio(track: MediaStreamTrack): Promise<void> {
    return this.provider.publishAudio(track);
  }

  /** Unpublishes the track given to {@link publishAudio}. */
  unpublishAudio(): Promise<void> {
    return this.provider.unpublishAudio();
  }

  /** The alignment figures in use right now. */
  getSyncStats(): SyncStats {
    const offset = this.#offset.offsetMs;
    return {
      clockOffsetMs: offset,
      jitterBufferMs: this.#delay.jitterBufferMs,
      playoutDelayMs: this.#delay.delayMs,
      lastPacketAtMs: this.#lastPacketAtMs,
      serviceTimeMs: offset === undefined ? undefined : wallNow() - offset - this.#delay.delayMs,
      audioPlaying: this.#audioPlaying,
    };
  }

  /** Detaches from the view and the provider and leaves the room. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.view.setFrameSource(undefined);
    this.#setReceiver(undefined);
    for (const off of this.#unsubscribe) off();
    await this.provider.disconnect();
  }

  /** The speech pose for the frame being rendered now (the view calls this every frame). */
  #frameNow(): DriveFrame | undefined {
    const now = wallNow();
    const offset = this.#offset.offsetMs;
    const speech =
      offset === undefined ? undefined : this.#timeline.sample(now - offset - this.#delay.delayMs)?.frame;
    return this.#envelope.apply(now, speech);
  }

  #onFramePacket(bytes: Uint8Array, arrivalMs: number): void {
    try {
      const packet = decodeFramePacket(bytes);
      this.#offset.add(packet.sentAtMs, arrivalMs);
      this.#timeline.addPacket(packet);
      this.#lastPacketAtMs = arrivalMs;
    } catch (error) {
      this.#fail(error);
    }
  }

  #onControl(bytes: Uint8Array): void {
    try {
      const message = decodeControlMessage(bytes);
      this.#log(10, `control ${message.type} ${message.reqId}`);
      this.#timeline.control(message);
    } catch (error) {
      this.#fail(error);
    }
  }

  #setReceiver(receiver: AvatarAudioReceiver | undefined): void {
    this.#receiver = receiver;
    this.#delay.reset();
    if (this.#statsTimer !== undefined) clearInterval(this.#statsTimer);
    this.#statsTimer = undefined;
    if (receiver) {
      this.#statsTimer = setInterval(() => void this.#poll(receiver), this.#statsIntervalMs);
      void this.#poll(receiver);
    }
  }

  async #poll(receiver: AvatarAudioReceiver): Promise<void> {
    let report: RTCStatsReport;
    try {
      report = await receiver.getStats();
    } catch {
      return; // the receiver went away; the next avatarAudio event says so
    }
    if (receiver !== this.#receiver) return;
    const now = wallNow();
    const sample = jitterSampleFromStats(report, now);
    if (sample) this.#delay.add(sample);
    this.#audioPlaying = (this.#delay.recentPower ?? 0) > AUDIBLE_POWER;
    const offset = this.#offset.offsetMs;
    const t = offset === undefined ? undefined : now - offset - this.#delay.delayMs;
    if (t !== undefined) this.#timeline.prune(t);
    const transition = this.#stall.observe({
      nowMs: now,
      audioPlaying: this.#audioPlaying,
      framesCover: t !== undefined && this.#timeline.sample(t) !== undefined,
      lastPacketAtMs: this.#lastPacketAtMs,
    });
    if (transition === 'stalled') {
      this.#log(30, 'the avatar audio plays but its frames stopped arriving');
      this.emit('stalled', { lastPacketAtMs: this.#lastPacketAtMs });
    } else if (transition === 'recovered') {
      this.emit('recovered');
    }
  }

  #listen<
    E extends 'connected' | 'disconnected' | 'error' | 'avatarAudio' | 'framePacket' | 'controlMessage',
  >(
    event: E,
    // biome-ignore lint/suspicious/noExplicitAny: bridged to the provider's typed listener
    listener: (...args: any[]) => void,
  ): void {
    this.provider.on(event, listener as never);
    this.#unsubscribe.push(() => this.provider.off(event, listener as never));
  }

  #reset(): void {
    this.#offset.reset();
    this.#delay.reset();
    this.#timeline.clear();
    this.#stall.reset();
    this.#lastPacketAtMs = undefined;
  }

  #fail(error: unknown): void {
    const e = isAvatarError(error)
      ? error
      : new AvatarError('protocolError', 'A packet from the avatar could not be handled.', { cause: error });
    this.#log(40, e.message);
    this.emit('error', e);
  }

  #requireLive(what: string): void {
    if (this.#disposed)
      throw new AvatarError('invalidState', `${what} after dispose(); create a new AvatarPlayer.`);
  }

  #log(level: number, message: string): void {
    if (level < this.#logLevel) return;
    const line = `[avatar-drive/rtc-player] ${message}`;
    if (level >= 40) console.error(line);
    else if (level >= 30) console.warn(line);
    else if (level >= 20) console.info(line);
    else console.debug(line);
  }
}

function frameCount(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > 1000) {
    throw new AvatarError('invalidRequest', `${name} must be a whole number of frames from 0 to 1000.`);
  }
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new AvatarError('invalidRequest', `${name} must be a non-negative number of milliseconds.`);
  }
  return value;
}
