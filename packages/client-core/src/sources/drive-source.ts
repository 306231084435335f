/**
 * The seam between an {@link AvatarController} and where its speech comes from. One
 * `DriveSource` per driving-service mode, chosen once by {@link createDriveSource}:
 *
 * | `drivingServiceMode` | source | audio in | animation from |
 * |---|---|---|---|
 * | `'sdk'` | {@link IngressSource} | `send(pcm)` | the service, over the ingress WebSocket |
 * | `'local'` | {@link LocalSource} | `send(pcm)` | the on-device engine ({@link LocalEngine}) |
 * | `'host'` | {@link RelaySource} | `yieldAudio(relay message)` | relay messages from your server |
 *
 * A source owns everything particular to its mode (request and conversation ids, the ingress
 * connection and its reconnect, the engine, relay decoding, which controls the far end takes)
 * and reports through typed events: the utterances to play (`utterance`, `audio`, `frames`,
 * `audioOnly`), its link (`state`, `reconnecting`) and errors. The controller keeps the state
 * machines, the playback scheduler, the audio output and the app's callbacks.
 *
 * @example
 * ```ts
 * const source = createDriveSource(context);
 * source.on('frames', (id, frames) => scheduler.pushFrames(id, frames));
 * await source.open();
 * ```
 */
import type {
  AvatarError,
  ConnectionState,
  DriveFrame,
  ReconnectPolicy,
  TypedEmitter,
} from '@avatar-drive/core';
import type { ConfirmedSession, WebSocketFactory } from '../ingress-connection.js';
import type { LocalEngineFactory } from '../local-engine.js';
import type { SdkConfig } from '../sdk.js';

/** What a {@link DriveSource} reports, in the order it happens. */
export type DriveSourceEvents = {
  /**
   * The source's link changed: `connecting` (from `open()`), `connected` (it takes audio),
   * `failed` with the failure (it could not open, or dropped), `disconnected` (the far end
   * closed normally). `close()` reports nothing: its caller knows.
   */
  state: (state: ConnectionState, failure?: AvatarError) => void;
  /** The source re-opens by itself after a drop (SDK mode with `refreshSessionToken`); `connected` or `failed` follows. */
  reconnecting: () => void;
  /** Utterance `id` begins at `sampleRate` Hz and replaces the one playing. */
  utterance: (id: string, sampleRate: number) => void;
  /** Mono s16 audio of utterance `id` to play; `end` on its last chunk. */
  audio: (id: string, pcm: Int16Array, end: boolean) => void;
  /** Drive frames of utterance `id`, numbered from its first frame. */
  frames: (id: string, frames: DriveFrame[]) => void;
  /** Utterance `id` has no animation: its audio plays alone. */
  audioOnly: (id: string) => void;
  /** An error that does not end the source (a server error mid-session, a failed token refresh, bad frames). */
  error: (error: AvatarError) => void;
};

/** The part of the controller's options that configures its source. */
export interface DriveSourceOptions {
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

/** What a source is given by its controller: configuration and two read-only views of the controller's state. */
export interface DriveSourceContext {
  /** The SDK configuration (`AvatarSDK.initialize`). */
  readonly config: SdkConfig;
  /** The avatar the view shows. */
  readonly avatarId: string;
  readonly options: DriveSourceOptions;
  /** The controller's connection state (what `start()`, `send()` and the controls are checked against). */
  connectionState(): ConnectionState;
  /** The utterance being played, if any: frames of any other are dropped undecoded. */
  playing(): string | undefined;
}

/**
 * Where a controller's speech comes from (one implementation per mode). Every method of the
 * controller's API is here; a source throws a typed `invalidState` error naming the right call
 * for what its mode does not do (e.g. `send()` in Host mode).
 */
export interface DriveSource extends Pick<TypedEmitter<DriveSourceEvents>, 'on' | 'off'> {
  /** The session the service confirmed (SDK mode, while connected). */
  readonly session: ConfirmedSession | undefined;
  /** The conversation being played (Host mode: the latest one yielded). */
  readonly conversationId: string | undefined;
  /**
   * Opens the link: `state` goes `connecting`, then `connected` (resolves) or `failed` (rejects
   * with the same error). When `close()` comes first it settles without reporting either
   * (a connect that `close()` cut short rejects with `connectionClosed`).
   */
  open(): Promise<void>;
  /** Sends a chunk of PCM (s16 mono at the configured rate); returns its utterance's id. */
  send(pcm: Int16Array | Uint8Array | ArrayBuffer, end: boolean): string;
  /** Takes one relay audio message; returns its conversation id. */
  yieldAudio(encoded: Uint8Array | ArrayBuffer): string;
  /** Takes relay animation messages of `conversationId` (none: audio-only). */
  yieldFrames(encoded: ReadonlyArray<Uint8Array | ArrayBuffer> | undefined, conversationId: string): void;
  /** Stops the current utterance (the controller stops playback). */
  interrupt(): void;
  /** Playback paused (the controller suspends the output). */
  pause(): void;
  /** Playback resumed. */
  resume(): void;
  /** Playback of utterance `id` ended. */
  finished(id: string): void;
  /** Closes the link; `open()` may be called again. Safe to call twice. */
  close(): void;
}
