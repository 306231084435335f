/**
 * The engine leg of a session: each audio chunk of a request goes through the engine channel,
 * the playback clock learns what arrived, and the frames go to the session's output in order,
 * the last with end=true once the request's input ended. Inline engines are called directly
 * (`now`: no promise or closure per chunk); worker engines through promises, in call order.
 */
import type { AvatarErrorCode } from '@avatar-drive/core';
import type { Logger } from 'pino';
import type { EngineChannel, EngineResult } from '../engine-pool/engine-pool.js';
import type { ServiceMetrics } from '../metrics.js';
import type { PlaybackClock } from './output/playback-clock.js';
import type { DriveSessionInfo, RequestState, SessionOutput } from './output/session-output.js';
import type { SessionRequests } from './session-requests.js';

/** What the feed uses of its session. */
export interface FeedSession {
  readonly info: DriveSessionInfo;
  /** True once the session has ended. */
  readonly closed: boolean;
  /** Ends the session with a ServerError. */
  fail(code: AvatarErrorCode, message: string, reqId?: string): void;
  /** The request with this req_id, if the connection still remembers it. */
  request(reqId: string): RequestState | undefined;
}

/** The parts a feed works with, all owned by its session. */
export interface FeedParts {
  engine: EngineChannel;
  output: SessionOutput;
  /** The session's request timeline. */
  clock: PlaybackClock;
  requests: SessionRequests;
  sampleRate: number;
  metrics: ServiceMetrics;
  logger: Logger;
}

export class UtteranceFeed {
  readonly #engine: EngineChannel;
  readonly #output: SessionOutput;
  readonly #clock: PlaybackClock;
  readonly #requests: SessionRequests;
  readonly #sampleRate: number;
  readonly #host: FeedSession;
  readonly #metrics: ServiceMetrics;
  readonly #logger: Logger;

  constructor(host: FeedSession, parts: FeedParts) {
    this.#engine = parts.engine;
    this.#output = parts.output;
    this.#clock = parts.clock;
    this.#requests = parts.requests;
    this.#sampleRate = parts.sampleRate;
    this.#host = host;
    this.#metrics = parts.metrics;
    this.#logger = parts.logger;
  }

  /** One chunk of request `r` (empty with `end` on the last). */
  push(r: RequestState, pcm: Int16Array, end: boolean): void {
    const engine = this.#engine;
    this.#output.audio(r, pcm, end);
    if (engine.now) {
      this.#pushNow(engine.now, r, pcm, end);
      return;
    }
    // Set just below, before any result can come back: when this chunk's output is due.
    let due = 0;
    if (pcm.length > 0) {
      engine.push(pcm).then(
        (result) => this.#emit(r, result, false, pcm.length, due),
        (error: unknown) => this.#failed(error, r.reqId),
      );
    }
    due = this.#clock.received(r.playback, (pcm.length * 1000) / this.#sampleRate, end);
    if (end) {
      this.#requests.current = undefined;
      engine.end().then(
        (result) => this.#emit(r, result, true, 0, due),
        (error: unknown) => this.#failed(error, r.reqId),
      );
    }
  }

  /**
   * {@link push} for an engine on this thread: the same sequence as the promise path (compute,
   * clock, then frames; then the end flush), without a promise and closures per chunk.
   */
  #pushNow(now: NonNullable<EngineChannel['now']>, r: RequestState, pcm: Int16Array, end: boolean): void {
    let result: EngineResult | undefined;
    if (pcm.length > 0) {
      try {
        result = now.push(pcm);
      } catch (error) {
        this.#failed(error, r.reqId);
        return;
      }
    }
    const due = this.#clock.received(r.playback, (pcm.length * 1000) / this.#sampleRate, end);
    if (end) this.#requests.current = undefined;
    if (result) this.#emit(r, result, false, pcm.length, due);
    if (!end || this.#host.closed) return;
    let last: EngineResult;
    try {
      last = now.end();
    } catch (error) {
      this.#failed(error, r.reqId);
      return;
    }
    this.#emit(r, last, true, 0, due);
  }

  /** `due`: when these frames were due (the playback clock's `received`), for their lateness. */
  #emit(request: RequestState, result: EngineResult, end: boolean, samples: number, due: number): void {
    this.#metrics.recordEngineWork(samples / this.#sampleRate, result.cpuMs / 1000);
    if (this.#host.closed || request.cancelled) return;
    if (result.frames.length === 0 && !end) return;
    this.#output.frames(request, result.frames, end, due);
    // Sent already (socket output): the driver may write its next frames into these.
    if (!this.#output.keepsFrames) this.#engine.now?.recycle?.(result.frames);
    if (end) this.#clock.outputFinished(request.playback);
  }

  #failed(error: unknown, reqId: string): void {
    const traceId = this.#host.request(reqId)?.traceId;
    this.#logger.error(
      { err: error, ...this.#host.info, reqId, ...(traceId && { traceId }) },
      'engine call failed',
    );
    this.#host.fail('upstreamError', 'The lip-sync engine failed. Reconnect with backoff.', reqId);
  }
}
