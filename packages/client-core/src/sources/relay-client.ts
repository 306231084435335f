/**
 * The browser end of the Host-mode relay: feed it what your transport delivers (binary relay
 * messages, text control messages) and it drives an AvatarController in Host mode (whose
 * {@link RelaySource} plays them): `yieldAudioData`, `yieldFramesData`, `interrupt`, `pause`,
 * `resume`. It orders what separate channels deliver (animation held until its audio arrives)
 * and applies the server's controls at their point of the stream. Browser-safe: it depends only
 * on @avatar-drive/core. (`@avatar-drive/server-sdk/relay-client`, its old home, re-exports it for
 * one release.)
 *
 * @example
 * ```ts
 * import { RelayClient } from '@avatar-drive/client-core';
 * const relay = new RelayClient(avatarView.controller, { onError: console.error });
 * const ws = new WebSocket('wss://your-server/avatar');
 * ws.binaryType = 'arraybuffer';
 * ws.onmessage = (event) => relay.receive(event.data);
 * ```
 */
import {
  AvatarError,
  decodeRelayControl,
  isAvatarError,
  peekConversationId,
  peekRelayKind,
  RELAY_TEXT_PREFIX,
  type RelayControl,
  relayTextToBytes,
} from '@avatar-drive/core';

/** Interrupted conversation ids remembered (their late audio is dropped). */
const REMEMBERED_INTERRUPTS = 256;

/** What the relay client drives: an AvatarController in Host mode (client-web's, react-native's) has all of these. */
export interface RelayTarget {
  yieldAudioData(encoded: Uint8Array): string;
  yieldFramesData(encoded: Uint8Array[], conversationId: string): void;
  interrupt(): void;
  pause?(): unknown;
  resume?(): unknown;
}

/** Options of {@link RelayClient}. */
export interface RelayClientOptions {
  /** Errors (malformed, duplicated, lost or reordered messages); without it `receive` throws. */
  onError?: (error: AvatarError) => void;
  /** The server's session ended. */
  onEnd?: (reason: string) => void;
  /** Every control message, after it was applied. */
  onControl?: (control: RelayControl) => void;
  /** Animation messages kept for a conversation whose audio has not arrived yet (default 256). */
  maxPendingFrames?: number;
}

/** Feeds relay messages from any transport into a Host-mode AvatarController. */
export class RelayClient {
  readonly #target: RelayTarget;
  readonly #options: RelayClientOptions;
  readonly #pending = new Map<string, Uint8Array[]>();
  readonly #seen = new Set<string>();
  /** Conversations stopped by an `interrupt` control: audio arriving for them later is dropped. */
  readonly #interrupted = new Set<string>();
  #current: string | undefined;
  #pendingCount = 0;
  #ended = false;

  constructor(target: RelayTarget, options: RelayClientOptions = {}) {
    if (typeof target?.yieldAudioData !== 'function' || typeof target.yieldFramesData !== 'function') {
      throw new AvatarError(
        'invalidRequest',
        'RelayClient needs a target with yieldAudioData() and yieldFramesData(): pass avatarView.controller (Host mode).',
      );
    }
    this.#target = target;
    this.#options = options;
  }

  /** The conversation being played. */
  get conversationId(): string | undefined {
    return this.#current;
  }

  /** True after the server's `end` control message. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Handles one transport message: an `ArrayBuffer` / `Uint8Array` relay message, control JSON
   * text, or relay text (`b64:…`) from a text-only transport.
   */
  receive(data: ArrayBuffer | ArrayBufferView | string): void {
    try {
      if (typeof data === 'string') {
        if (data.startsWith(RELAY_TEXT_PREFIX)) this.#binary(relayTextToBytes(data));
        else this.#control(decodeRelayControl(data));
        return;
      }
      if (data instanceof ArrayBuffer) {
        this.#binary(new Uint8Array(data));
        return;
      }
      if (ArrayBuffer.isView(data)) {
        this.#binary(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        return;
      }
      throw new AvatarError(
        'invalidRequest',
        'RelayClient.receive() takes an ArrayBuffer, a Uint8Array or a string. For a WebSocket, set ws.binaryType = "arraybuffer".',
      );
    } catch (error) {
      const e = isAvatarError(error) ? error : new AvatarError('unknown', String(error), { cause: error });
      if (this.#options.onError) this.#options.onError(e);
      else throw e;
    }
  }

  #binary(bytes: Uint8Array): void {
    const kind = peekRelayKind(bytes);
    const conversationId = peekConversationId(bytes);
    if (kind === 'audio') {
      // Never restart a conversation that was interrupted (a late message of a stopped turn).
      if (this.#interrupted.has(conversationId)) return;
      const id = this.#target.yieldAudioData(bytes);
      if (id !== this.#current) {
        if (this.#current !== undefined) this.#pending.delete(this.#current);
        this.#current = id;
        this.#seen.add(id);
        const waiting = this.#pending.get(id);
        if (waiting) {
          this.#pending.delete(id);
          this.#pendingCount -= waiting.length;
          this.#target.yieldFramesData(waiting, id);
        }
      }
      return;
    }
    if (conversationId === this.#current) {
      this.#target.yieldFramesData([bytes], conversationId);
      return;
    }
    if (this.#seen.has(conversationId)) return; // an earlier conversation: dropped, as the controller does
    // Animation ahead of its audio (separate channels): keep it until the audio arrives.
    const max = this.#options.maxPendingFrames ?? 256;
    if (this.#pendingCount >= max) {
      throw new AvatarError(
        'protocolError',
        `More than ${max} animation messages arrived before their audio; send each conversation's audio first.`,
      );
    }
    const list = this.#pending.get(conversationId) ?? [];
    list.push(bytes);
    this.#pending.set(conversationId, list);
    this.#pendingCount += 1;
  }

  #control(control: RelayControl): void {
    switch (control.type) {
      case 'interrupt':
        if (control.conversationId === this.#current) this.#target.interrupt();
        this.#seen.add(control.conversationId);
        this.#interrupted.add(control.conversationId);
        if (this.#interrupted.size > REMEMBERED_INTERRUPTS) {
          this.#interrupted.delete(this.#interrupted.values().next().value!);
        }
        this.#dropPending(control.conversationId);
        break;
      case 'pause':
        if (control.conversationId === this.#current) this.#settle(this.#target.pause?.());
        break;
      case 'resume':
        if (control.conversationId === this.#current) this.#settle(this.#target.resume?.());
        break;
      case 'end':
        this.#ended = true;
        this.#options.onEnd?.(control.reason);
        break;
    }
    this.#options.onControl?.(control);
  }

  #dropPending(conversationId: string): void {
    const list = this.#pending.get(conversationId);
    if (!list) return;
    this.#pending.delete(conversationId);
    this.#pendingCount -= list.length;
  }

  /** pause()/resume() may be async; a rejection (e.g. playback already finished) is reported, not thrown. */
  #settle(result: unknown): void {
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, (error: unknown) => this.#ignoreInvalidState(error));
    }
  }

  #ignoreInvalidState(error: unknown): void {
    // Pausing after local playback finished is not a fault of the stream.
    if (isAvatarError(error) && error.code === 'invalidState') return;
    const e = isAvatarError(error) ? error : new AvatarError('unknown', String(error), { cause: error });
    this.#options.onError?.(e);
  }
}
