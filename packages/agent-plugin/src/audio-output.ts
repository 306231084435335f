/**
 * The agent's audio output while an Avatar Drive avatar speaks for it: TTS frames go to the
 * driving service (one request per speech segment) instead of into the room; the service
 * publishes the avatar's audio and animation. `clearBuffer()` interrupts the request; playback
 * started/finished come back from the service, finished with `interrupted` and the position.
 */
import { randomUUID } from 'node:crypto';
import {
  AvatarError,
  downmixInt16,
  isSupportedSampleRate,
  nearestSupportedSampleRate,
  Resampler,
} from '@avatar-drive/core';
import { voice } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import type { DrivingConnection, DrivingConnectionEvents } from './connection.js';

/** Options of {@link AvatarDriveAudioOutput}. */
export interface AvatarDriveAudioOutputOptions {
  /** Opens the driving session at `sampleRate` (the avatar joins the room then). */
  open: (sampleRate: number) => Promise<DrivingConnection>;
  /** The session's rate when known up front (the TTS output's); otherwise the first frame's. */
  sampleRate?: number | undefined;
  /** How long to wait for the service to confirm an interrupt before reporting it anyway; default 1 s. */
  interruptTimeoutMs?: number;
}

interface Segment {
  reqId: string;
  /** Samples sent, at the session rate. */
  sent: number;
  flushed: boolean;
  started: boolean;
  finished: boolean;
  /** Resampler for frames not at the session rate. */
  resampler: Resampler | undefined;
  fromRate: number | undefined;
}

/** An `AudioOutput` that sends the agent's speech to the Avatar Drive service. */
export class AvatarDriveAudioOutput extends voice.AudioOutput {
  readonly #open: (sampleRate: number) => Promise<DrivingConnection>;
  readonly #interruptTimeoutMs: number;
  #connection: Promise<DrivingConnection> | undefined;
  #connectionRate: number | undefined;
  #segment: Segment | undefined;
  /** Segments sent but not yet reported finished, by request id. */
  readonly #pending = new Map<string, Segment>();
  #closed = false;

  constructor(options: AvatarDriveAudioOutputOptions) {
    const rate = options.sampleRate === undefined ? undefined : sessionRate(options.sampleRate);
    super(rate, undefined, { pause: false });
    this.#open = options.open;
    this.#interruptTimeoutMs = options.interruptTimeoutMs ?? 1000;
    this.#connectionRate = rate;
  }

  /** Opens the driving session now (when the rate is known), so the avatar joins before the first speech. */
  async connect(): Promise<void> {
    if (this.#connectionRate === undefined) return;
    await this.#ensureConnection(this.#connectionRate);
  }

  /** Sends one TTS frame (any rate, any channel count) of the current segment. */
  override async captureFrame(frame: AudioFrame): Promise<void> {
    if (this.#closed) throw new AvatarError('invalidState', 'The avatar audio output was closed.');
    await super.captureFrame(frame);
    const rate = this.#connectionRate ?? sessionRate(frame.sampleRate);
    const connection = await this.#ensureConnection(rate);
    let segment = this.#segment;
    if (!segment) {
      segment = newSegment();
      this.#segment = segment;
      this.#pending.set(segment.reqId, segment);
    }
    let pcm = frame.data.subarray(0, frame.samplesPerChannel * frame.channels);
    if (frame.channels > 1) pcm = downmixInt16(pcm, frame.channels);
    if (frame.sampleRate !== rate) {
      if (segment.fromRate !== frame.sampleRate) {
        segment.resampler = new Resampler(frame.sampleRate, rate);
        segment.fromRate = frame.sampleRate;
      }
      pcm = segment.resampler!.pushInt16(pcm);
    }
    segment.sent += pcm.length;
    connection.sendAudio(pcm, segment.reqId, false);
  }

  /** Ends the current segment: the service plays what it has and reports `ended`. */
  override flush(): void {
    super.flush();
    const segment = this.#segment;
    this.#segment = undefined;
    if (!segment || segment.flushed) return;
    segment.flushed = true;
    void this.#connection?.then((c) => {
      const tail = segment.resampler?.flushInt16() ?? new Int16Array(0);
      segment.sent += tail.length;
      c.sendAudio(tail, segment.reqId, true);
    });
  }

  /** Stops what the avatar is saying at once (the agent was interrupted). */
  override clearBuffer(): void {
    const segments = [...this.#pending.values()].filter((s) => !s.finished);
    this.#segment = undefined;
    if (segments.length === 0) return;
    void this.#connection?.then((c) => {
      for (const segment of segments) {
        c.interrupt(segment.reqId);
        // The service confirms with `interrupted`; if it never does, report it anyway.
        setTimeout(() => this.#finish(segment.reqId, undefined, true), this.#interruptTimeoutMs).unref?.();
      }
    });
  }

  /** Closes the driving session (the avatar leaves); unfinished segments are reported interrupted. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const reqId of [...this.#pending.keys()]) this.#finish(reqId, undefined, true);
    const connection = await this.#connection?.catch(() => undefined);
    if (connection) {
      connection.off('playing', this.#onPlaying);
      connection.off('ended', this.#onEnded);
      connection.off('interrupted', this.#onInterrupted);
      connection.off('error', this.#onError);
      await connection.close();
    }
  }

  #ensureConnection(rate: number): Promise<DrivingConnection> {
    if (!this.#connection) {
      this.#connectionRate = rate;
      this.sampleRate = rate;
      this.#connection = this.#open(rate).then((c) => {
        c.on('playing', this.#onPlaying);
        c.on('ended', this.#onEnded);
        c.on('interrupted', this.#onInterrupted);
        c.on('error', this.#onError);
        return c;
      });
      // A failed open is retried by the next frame.
      this.#connection.catch(() => {
        this.#connection = undefined;
      });
    }
    return this.#connection;
  }

  readonly #onPlaying: DrivingConnectionEvents['playing'] = ({ reqId }) => {
    const segment = this.#pending.get(reqId);
    if (!segment || segment.started) return;
    segment.started = true;
    this.onPlaybackStarted(Date.now());
  };

  readonly #onEnded: DrivingConnectionEvents['ended'] = ({ reqId, playedMs }) => {
    this.#finish(reqId, playedMs, false);
  };

  readonly #onInterrupted: DrivingConnectionEvents['interrupted'] = ({ reqId, playedMs }) => {
    this.#finish(reqId, playedMs, true);
  };

  readonly #onError: DrivingConnectionEvents['error'] = (error) => {
    this.logger.error({ code: error.code }, `avatar-drive session failed: ${error.message}`);
    this.#connection = undefined;
    for (const reqId of [...this.#pending.keys()]) this.#finish(reqId, undefined, true);
  };

  #finish(reqId: string, playedMs: number | undefined, interrupted: boolean): void {
    const segment = this.#pending.get(reqId);
    if (!segment || segment.finished) return;
    segment.finished = true;
    this.#pending.delete(reqId);
    if (this.#segment === segment) this.#segment = undefined;
    const rate = this.#connectionRate ?? 1;
    const position = playedMs !== undefined ? playedMs / 1000 : interrupted ? 0 : segment.sent / rate;
    this.onPlaybackFinished({ playbackPosition: position, interrupted });
  }
}

function newSegment(): Segment {
  return {
    reqId: randomUUID(),
    sent: 0,
    flushed: false,
    started: false,
    finished: false,
    resampler: undefined,
    fromRate: undefined,
  };
}

/** The TTS rate when the service takes it, else the nearest rate it takes. */
function sessionRate(rate: number): number {
  return isSupportedSampleRate(rate) ? rate : nearestSupportedSampleRate(rate);
}
