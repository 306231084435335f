/**
 * The requests (utterances) one connection knows, in order: the one whose audio is arriving, and
 * the last {@link KNOWN_REQUESTS} of the others for late interrupt, pause and resume.
 */
import type { PlaybackClock } from './output/playback-clock.js';
import type { RequestState } from './output/session-output.js';

/** Requests remembered per connection (for late interrupt/pause/resume). */
const KNOWN_REQUESTS = 64;

export class SessionRequests {
  readonly #known = new Map<string, RequestState>();
  #seq = 0;
  /** The request whose audio is arriving (until its end=true). */
  current: RequestState | undefined;

  /** Number of the latest request; 0 before the first. */
  get seq(): number {
    return this.#seq;
  }

  /** Every request remembered, oldest first. */
  all(): IterableIterator<RequestState> {
    return this.#known.values();
  }

  get(reqId: string): RequestState | undefined {
    return this.#known.get(reqId);
  }

  /** Starts a request on `clock` and makes it current. */
  start(reqId: string, clock: PlaybackClock): RequestState {
    const request: RequestState = { reqId, seq: ++this.#seq, cancelled: false, playback: clock.add(reqId) };
    this.#known.set(reqId, request);
    if (this.#known.size > KNOWN_REQUESTS) {
      for (const [id, old] of this.#known) {
        if (this.#known.size <= KNOWN_REQUESTS) break;
        if (old.playback.phase === 'ended' || old.playback.phase === 'interrupted') this.#known.delete(id);
      }
    }
    this.current = request;
    return request;
  }

  /** `request` and every request before it. */
  upTo(request: RequestState): RequestState[] {
    return [...this.#known.values()].filter((other) => other.seq <= request.seq);
  }
}
