/**
 * A client that talks through the cluster like an app server would: a server-sdk AvatarSession
 * (which mints a token per connection with the API key, and reconnects on its own after a
 * retryable drop), speaking utterances of a tone in real-time 20 ms chunks, and recording every
 * state change, error and animation message with its time. Tests and the bench read the record.
 */
import type { AvatarError } from '@avatar-drive/core';
import { AvatarSession, type SessionState } from '@avatar-drive/server-sdk';

export const SAMPLE_RATE = 16_000;
const CHUNK = (SAMPLE_RATE * 20) / 1000;

export interface SpeakerOptions {
  consoleUrl: string;
  ingressUrl: string;
  appId: string;
  apiKey: string;
  avatarId?: string;
  /** Utterance length (default 1000 ms). */
  utteranceMs?: number;
  /** Pause after each utterance (default 1000 ms). */
  pauseMs?: number;
}

export interface SpeakerEvent {
  at: number;
  kind: 'state' | 'error' | 'frames' | 'utterance';
  detail: string;
  error?: AvatarError;
}

/** One tone utterance as 20 ms chunks (a 200 Hz tone with a slow level swing, speech-like level). */
function utteranceChunks(ms: number): Int16Array[] {
  const n = Math.round((ms * SAMPLE_RATE) / 1000);
  const chunks: Int16Array[] = [];
  for (let start = 0; start < n; start += CHUNK) {
    const chunk = new Int16Array(Math.min(CHUNK, n - start));
    for (let i = 0; i < chunk.length; i++) {
      const t = (start + i) / SAMPLE_RATE;
      chunk[i] = Math.round(8000 * Math.abs(Math.sin(Math.PI * 3 * t)) * Math.sin(2 * Math.PI * 200 * t));
    }
    chunks.push(chunk);
  }
  return chunks;
}

export class Speaker {
  readonly session: AvatarSession;
  readonly events: SpeakerEvent[] = [];
  readonly #chunks: Int16Array[];
  readonly #pauseMs: number;
  #timer: NodeJS.Timeout | undefined;
  #next = 0;
  #pausedUntil = 0;
  #stopped = false;
  /** Animation messages received, in total. */
  frames = 0;

  constructor(options: SpeakerOptions) {
    this.#chunks = utteranceChunks(options.utteranceMs ?? 1000);
    this.#pauseMs = options.pauseMs ?? 1000;
    this.session = new AvatarSession({
      avatarId: options.avatarId ?? 'mika',
      appId: options.appId,
      apiKey: options.apiKey,
      consoleUrl: options.consoleUrl,
      ingressUrl: options.ingressUrl,
      backupRegion: null,
      sampleRate: SAMPLE_RATE,
      onStateChange: (to: SessionState, from: SessionState) => {
        this.#record('state', `${from}->${to}`);
        // A new connection starts a new utterance (the one in flight was lost with the old one).
        if (to === 'connected') this.#next = 0;
      },
      onError: (error) => this.#record('error', `${error.code} ${error.closeCode ?? ''}`, error),
      onFrames: () => {
        this.frames++;
        // One record per second of animation at most (100 sessions × 25 messages/s add up).
        const last = this.events.at(-1);
        if (last?.kind !== 'frames' || Date.now() - last.at > 1000) this.#record('frames', '');
      },
    });
  }

  /** Connects and starts speaking; resolves once connected. */
  async start(): Promise<void> {
    await this.session.start();
    this.#timer = setInterval(() => this.#tick(), 20);
  }

  /** True when the session ever left `connected` after starting. */
  get dropped(): boolean {
    return this.events.some((e) => e.kind === 'state' && e.detail === 'connected->reconnecting');
  }

  /** The errors delivered through onError. */
  get errors(): SpeakerEvent[] {
    return this.events.filter((e) => e.kind === 'error');
  }

  /** Time of the first animation message received after `since` (ms since the epoch). */
  firstFramesAfter(since: number): number | undefined {
    return this.events.find((e) => e.kind === 'frames' && e.at > since)?.at;
  }

  /**
   * When the session got animation again over a new connection made after `since`: the first
   * animation after the first `reconnecting->connected` at or after `since`.
   */
  speakingAgainAt(since: number): number | undefined {
    const back = this.events.find((e) => e.at >= since && e.detail === 'reconnecting->connected');
    return back && this.firstFramesAfter(back.at - 1);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.session.close();
  }

  #tick(): void {
    if (this.#stopped || this.session.state !== 'connected') return;
    const now = Date.now();
    if (now < this.#pausedUntil) return;
    const chunk = this.#chunks[this.#next]!;
    const last = this.#next === this.#chunks.length - 1;
    try {
      if (this.#next === 0) this.#record('utterance', 'start');
      this.session.sendAudio(chunk, last);
    } catch {
      return; // the connection dropped between the state check and the send: the next one resumes
    }
    this.#next = last ? 0 : this.#next + 1;
    if (last) this.#pausedUntil = now + this.#pauseMs;
  }

  #record(kind: SpeakerEvent['kind'], detail: string, error?: AvatarError): void {
    this.events.push({ at: Date.now(), kind, detail, ...(error && { error }) });
  }
}
