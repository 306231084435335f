/**
 * The agent's audio output while an Avatar Drive avatar speaks for it: TTS frames go to the
 * driving service (one request per speech segment) instead of into the room; the service
 * publishes the avatar's audio and animation.
 *
 * Playout follows the LiveKit Agents avatar contract: the avatar participant's
 * `lk.playback_started` / `lk.playback_finished` RPCs say when a segment starts and how much of
 * it played, and `clearBuffer()` calls `lk.clear_buffer` on the avatar. The driving session's
 * playback states are the fallback: they report playout until the avatar makes its first RPC
 * (an avatar that makes none, e.g. with `livekit.playback_rpc: off`), and finish a segment the
 * avatar never reports; an avatar that has no `lk.clear_buffer` is interrupted through the session.
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
import type { AvatarPlaybackFinished, AvatarPlaybackListener, ClearBufferResult } from './playback-rpc.js';

/** Options of {@link AvatarDriveAudioOutput}. */
export interface AvatarDriveAudioOutputOptions {
  /** Opens the driving session at `sampleRate` (the avatar joins the room then). */
  open: (sampleRate: number) => Promise<DrivingConnection>;
  /** The session's rate when known up front (the TTS output's); otherwise the first frame's. */
  sampleRate?: number | undefined;
  /** How long to wait for an interrupt to be confirmed before reporting it anyway; default 1 s. */
  interruptTimeoutMs?: number;
  /**
   * Calls `lk.clear_buffer` on the avatar participant (the contract's interrupt). Without it, or
   * when the avatar answers that it has no such method, interrupts go through the driving session.
   */
  clearAvatarBuffer?: () => Promise<ClearBufferResult>;
  /**
   * How long a segment the driving session reported finished waits for the avatar's
   * `lk.playback_finished` before the session's figures are reported instead; default 1 s.
   */
  rpcGraceMs?: number;
}

/** Where playout is learnt from: the session until the avatar makes a contract RPC. */
type PlayoutSource = 'session' | 'contract';

interface Segment {
  reqId: string;
  /** Samples sent, at the session rate. */
  sent: number;
  flushed: boolean;
  started: boolean;
  finished: boolean;
  /** An interrupt was asked for it (clearBuffer). */
  clearing: boolean;
  /** What the driving session reported at the segment's end, when it has. */
  sessionEnd: { playedMs: number; interrupted: boolean } | undefined;
  /** Resampler for frames not at the session rate. */
  resampler: Resampler | undefined;
  fromRate: number | undefined;
}

/** An `AudioOutput` that sends the agent's speech to the Avatar Drive service. */
export class AvatarDriveAudioOutput extends voice.AudioOutput implements AvatarPlaybackListener {
  readonly #open: (sampleRate: number) => Promise<DrivingConnection>;
  readonly #interruptTimeoutMs: number;
  readonly #rpcGraceMs: number;
  readonly #clearAvatarBuffer: (() => Promise<ClearBufferResult>) | undefined;
  #connection: Promise<DrivingConnection> | undefined;
  #connectionRate: number | undefined;
  #segment: Segment | undefined;
  /** Segments sent and not yet reported finished, by request id. */
  readonly #pending = new Map<string, Segment>();
  /**
   * Segments in the order the avatar reports them (its RPCs carry no request id): each waits here
   * for its `lk.playback_finished`, even when the session finished it first, so a late RPC is
   * matched to its own segment and not to the next one.
   */
  readonly #reportOrder: Segment[] = [];
  #source: PlayoutSource = 'session';
  /** False once the avatar answered that it has no `lk.clear_buffer`. */
  #avatarClears = true;
  #closed = false;

  constructor(options: AvatarDriveAudioOutputOptions) {
    const rate = options.sampleRate === undefined ? undefined : sessionRate(options.sampleRate);
    super(rate, undefined, { pause: false });
    this.#open = options.open;
    this.#interruptTimeoutMs = options.interruptTimeoutMs ?? 1000;
    this.#rpcGraceMs = options.rpcGraceMs ?? 1000;
    this.#clearAvatarBuffer = options.clearAvatarBuffer;
    this.#connectionRate = rate;
  }

  /** Where playout is learnt from now: `contract` once the avatar made a playback RPC. */
  get playoutSource(): PlayoutSource {
    return this.#source;
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
      this.#reportOrder.push(segment);
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

  /**
   * Stops what the avatar is saying at once (the agent was interrupted): `lk.clear_buffer` on the
   * avatar, or the session's interrupt for an avatar without it. Each segment is then reported
   * finished, interrupted, with the position the avatar reports (after `interruptTimeoutMs`
   * without a report: the session's, else 0).
   */
  override clearBuffer(): void {
    this.#segment = undefined;
    // LiveKit Agents clears twice on an interrupt (the forwarding task, then the reply): one call each.
    const segments = [...this.#pending.values()].filter((s) => !s.finished && !s.clearing);
    if (segments.length === 0) return;
    for (const segment of segments) segment.clearing = true;
    void this.#connection?.then(async (c) => {
      const viaContract = this.#clearAvatarBuffer !== undefined && this.#avatarClears;
      if (viaContract) {
        const result = await this.#clearAvatarBuffer!();
        if (result === 'unsupported') this.#avatarClears = false;
        if (result === 'ok') return;
        this.logger.debug(
          { result },
          'avatar-drive: lk.clear_buffer not taken, interrupting through the session',
        );
      }
      // The timeout below may have reported them already; the avatar must still stop.
      for (const segment of segments) c.interrupt(segment.reqId);
    });
    for (const segment of segments) {
      setTimeout(() => this.#finishWithoutRpc(segment, true), this.#interruptTimeoutMs).unref?.();
    }
  }

  /** The avatar's `lk.playback_started`: the oldest segment it has not reported started plays. */
  onAvatarPlaybackStarted(): void {
    this.#source = 'contract';
    const segment = this.#reportOrder.find((s) => !s.started);
    if (!segment) return;
    segment.started = true;
    this.onPlaybackStarted(Date.now());
  }

  /** The avatar's `lk.playback_finished`: for the oldest segment it has not reported finished. */
  onAvatarPlaybackFinished(event: AvatarPlaybackFinished): void {
    this.#source = 'contract';
    const segment = this.#reportOrder.shift();
    if (!segment) return;
    this.#finish(segment, event.playbackPosition * 1000, event.interrupted);
  }

  /** Closes the driving session (the avatar leaves); unfinished segments are reported interrupted. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const segment of [...this.#pending.values()]) this.#finish(segment, undefined, true);
    this.#reportOrder.length = 0;
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
    if (this.#source === 'contract') return;
    const segment = this.#pending.get(reqId);
    if (!segment || segment.started) return;
    segment.started = true;
    this.onPlaybackStarted(Date.now());
  };

  readonly #onEnded: DrivingConnectionEvents['ended'] = ({ reqId, playedMs }) => {
    this.#onSessionEnd(reqId, playedMs, false);
  };

  readonly #onInterrupted: DrivingConnectionEvents['interrupted'] = ({ reqId, playedMs }) => {
    this.#onSessionEnd(reqId, playedMs, true);
  };

  /**
   * The session's end of a segment: reported at once while the avatar makes no RPCs; otherwise
   * kept, and reported only if the avatar's own report has not come within `rpcGraceMs` (a
   * request the service cut before queueing it gets no RPC).
   */
  #onSessionEnd(reqId: string, playedMs: number, interrupted: boolean): void {
    const segment = this.#pending.get(reqId);
    if (!segment || segment.finished) return;
    segment.sessionEnd = { playedMs, interrupted };
    if (this.#source === 'session') {
      this.#finishWithoutRpc(segment, interrupted);
      return;
    }
    setTimeout(() => this.#finishWithoutRpc(segment, interrupted), this.#rpcGraceMs).unref?.();
  }

  /**
   * Reports a segment the avatar has not (yet) reported, with the session's figures when it has
   * them. The segment keeps its place in the report order for `rpcGraceMs` more, so that a late
   * RPC for it still lands on it and not on the next segment; then it leaves.
   */
  #finishWithoutRpc(segment: Segment, interrupted: boolean): void {
    if (!segment.finished) {
      const end = segment.sessionEnd;
      this.#finish(segment, end?.playedMs, end?.interrupted ?? interrupted);
    }
    setTimeout(() => {
      const at = this.#reportOrder.indexOf(segment);
      if (at >= 0) this.#reportOrder.splice(at, 1);
    }, this.#rpcGraceMs).unref?.();
  }

  readonly #onError: DrivingConnectionEvents['error'] = (error) => {
    this.logger.error({ code: error.code }, `avatar-drive session failed: ${error.message}`);
    this.#connection = undefined;
    for (const segment of [...this.#pending.values()]) this.#finish(segment, undefined, true);
    this.#reportOrder.length = 0;
  };

  #finish(segment: Segment, playedMs: number | undefined, interrupted: boolean): void {
    if (segment.finished) return;
    segment.finished = true;
    this.#pending.delete(segment.reqId);
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
    clearing: false,
    sessionEnd: undefined,
    resampler: undefined,
    fromRate: undefined,
  };
}

/** The TTS rate when the service takes it, else the nearest rate it takes. */
function sessionRate(rate: number): number {
  return isSupportedSampleRate(rate) ? rate : nearestSupportedSampleRate(rate);
}
