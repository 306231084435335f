/**
 * The agent's audio output while an Avatar Drive avatar speaks for it: TTS frames go to the
 * driving service (one request per speech segment) instead of into the room; the service
 * publishes the avatar's audio and animation. Playback started/finished come from the avatar's
 * LiveKit RPCs (`lk.playback_started` / `lk.playback_finished`, the LiveKit Agents avatar
 * contract) and, from an avatar that makes none, from the driving session's playback states;
 * `clearBuffer()` calls the avatar's `lk.clear_buffer` and interrupts through the session.
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
import type { AvatarPlaybackFinished, AvatarPlaybackListener } from './playback-rpc.js';

/** Options of {@link AvatarDriveAudioOutput}. */
export interface AvatarDriveAudioOutputOptions {
  /** Opens the driving session at `sampleRate` (the avatar joins the room then). */
  open: (sampleRate: number) => Promise<DrivingConnection>;
  /** The session's rate when known up front (the TTS output's); otherwise the first frame's. */
  sampleRate?: number | undefined;
  /** How long to wait for the service to confirm an interrupt before reporting it anyway; default 1 s. */
  interruptTimeoutMs?: number;
  /** Calls `lk.clear_buffer` on the avatar (alongside the driving session's interrupt). */
  clearAvatarBuffer?: () => Promise<boolean>;
}

/** After this long without the avatar's RPC for a segment the session reported, it is not awaited. */
const RPC_GRACE_MS = 2000;

interface Segment {
  reqId: string;
  /** Samples sent, at the session rate. */
  sent: number;
  flushed: boolean;
  started: boolean;
  finished: boolean;
  /** When it was reported finished (ms, Date.now()). */
  finishedAt: number;
  /** Resampler for frames not at the session rate. */
  resampler: Resampler | undefined;
  fromRate: number | undefined;
}

/** An `AudioOutput` that sends the agent's speech to the Avatar Drive service. */
export class AvatarDriveAudioOutput extends voice.AudioOutput implements AvatarPlaybackListener {
  readonly #open: (sampleRate: number) => Promise<DrivingConnection>;
  readonly #interruptTimeoutMs: number;
  #connection: Promise<DrivingConnection> | undefined;
  #connectionRate: number | undefined;
  #segment: Segment | undefined;
  /** Segments sent but not yet reported finished, by request id. */
  readonly #pending = new Map<string, Segment>();
  /** Segments in order whose `lk.playback_finished` has not come yet (RPCs carry no request id). */
  readonly #awaitingRpc: Segment[] = [];
  /** The avatar makes the playback RPCs: the session's playback states are then not used. */
  #rpcSeen = false;
  readonly #clearAvatarBuffer: (() => Promise<boolean>) | undefined;
  #closed = false;

  constructor(options: AvatarDriveAudioOutputOptions) {
    const rate = options.sampleRate === undefined ? undefined : sessionRate(options.sampleRate);
    super(rate, undefined, { pause: false });
    this.#open = options.open;
    this.#interruptTimeoutMs = options.interruptTimeoutMs ?? 1000;
    this.#clearAvatarBuffer = options.clearAvatarBuffer;
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
      this.#awaitingRpc.push(segment);
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
    // Both ways at once: the contract's `lk.clear_buffer` (the avatar stops everything it holds
    // and reports each segment) and the driving session's interrupt, which reaches the service
    // without the room's round trip; the service stops each request once, whichever comes first.
    void this.#clearAvatarBuffer?.();
    void this.#connection?.then((c) => {
      for (const segment of segments) {
        c.interrupt(segment.reqId);
        // The avatar confirms with `interrupted`; if it never does, report it anyway, and stop
        // waiting for its RPC (a segment cut before it was queued gets none).
        setTimeout(() => {
          this.#finish(segment.reqId, undefined, true);
          const at = this.#awaitingRpc.indexOf(segment);
          if (at >= 0) this.#awaitingRpc.splice(at, 1);
        }, this.#interruptTimeoutMs).unref?.();
      }
    });
  }

  /** The avatar's `lk.playback_started`: the oldest segment not yet started plays. */
  onAvatarPlaybackStarted(): void {
    this.#rpcSeen = true;
    const segment = this.#awaitingRpc.find((s) => !s.started);
    if (!segment) return;
    segment.started = true;
    this.onPlaybackStarted(Date.now());
  }

  /** The avatar's `lk.playback_finished`: for the oldest segment it has not reported yet. */
  onAvatarPlaybackFinished(event: AvatarPlaybackFinished): void {
    this.#rpcSeen = true;
    const segment = this.#awaitingRpc.shift();
    if (!segment) return;
    this.#finish(segment.reqId, event.playbackPosition * 1000, event.interrupted);
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
    if (this.#rpcSeen) return;
    const segment = this.#pending.get(reqId);
    if (!segment || segment.started) return;
    segment.started = true;
    this.onPlaybackStarted(Date.now());
  };

  readonly #onEnded: DrivingConnectionEvents['ended'] = ({ reqId, playedMs }) => {
    if (!this.#rpcSeen) this.#finish(reqId, playedMs, false);
  };

  readonly #onInterrupted: DrivingConnectionEvents['interrupted'] = ({ reqId, playedMs }) => {
    if (!this.#rpcSeen) this.#finish(reqId, playedMs, true);
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
    segment.finishedAt = Date.now();
    this.#pending.delete(reqId);
    this.#forgetUnreported();
    if (this.#segment === segment) this.#segment = undefined;
    const rate = this.#connectionRate ?? 1;
    const position = playedMs !== undefined ? playedMs / 1000 : interrupted ? 0 : segment.sent / rate;
    this.onPlaybackFinished({ playbackPosition: position, interrupted });
  }

  /**
   * An avatar that makes no playback RPCs leaves every segment waiting for one: drop those the
   * session reported finished a while ago (an RPC for them would have come by now).
   */
  #forgetUnreported(): void {
    if (this.#rpcSeen) return;
    const before = Date.now() - RPC_GRACE_MS;
    while (this.#awaitingRpc[0]?.finished && this.#awaitingRpc[0].finishedAt < before)
      this.#awaitingRpc.shift();
  }
}

function newSegment(): Segment {
  return {
    reqId: randomUUID(),
    sent: 0,
    flushed: false,
    started: false,
    finished: false,
    finishedAt: 0,
    resampler: undefined,
    fromRate: undefined,
  };
}

/** The TTS rate when the service takes it, else the nearest rate it takes. */
function sessionRate(rate: number): number {
  return isSupportedSampleRate(rate) ? rate : nearestSupportedSampleRate(rate);
}
