/**
 * Host mode (`drivingServiceMode: 'host'`): your server runs the session (server-sdk's
 * `AvatarSession`) and relays its audio and animation; the page feeds the relay messages in
 * (by hand, or through {@link RelayClient}). This source decodes them with core's
 * `RelayDecoder` (loss, duplicates and reordering are errors), plays the latest conversation
 * (a new one replaces it, a late message of an earlier one is ignored), and retires a
 * conversation once it finished or was interrupted. It has no link of its own: `start()` and
 * `send()` are refused, and the connection stays `disconnected`.
 */
import {
  AvatarError,
  animationToDriveFrames,
  assertPcmChunk,
  peekConversationId,
  RelayDecoder,
  TypedEmitter,
} from '@avatar-drive/core';
import type { ConfirmedSession } from '../ingress-connection.js';
import type { DriveSource, DriveSourceEvents } from './drive-source.js';

/** Retired conversations remembered (their late messages are ignored). */
const REMEMBERED_CONVERSATIONS = 256;

/** The drive source of Host mode: relay messages from your server. */
export class RelaySource extends TypedEmitter<DriveSourceEvents> implements DriveSource {
  readonly #relay = new RelayDecoder();
  #current: string | undefined;
  readonly #past = new Set<string>();
  /** Conversations that entered audio-only mode: later animation is ignored. */
  readonly #audioOnly = new Set<string>();
  readonly #framesReceived = new Map<string, number>();

  /** Always `undefined`: the session is your server's. */
  get session(): ConfirmedSession | undefined {
    return undefined;
  }

  /** The conversation being played (the latest one yielded). */
  get conversationId(): string | undefined {
    return this.#current;
  }

  async open(): Promise<void> {
    throw new AvatarError(
      'invalidState',
      "start() is for drivingServiceMode 'sdk' or 'local'. In Host mode, feed relay messages with yieldAudioData()/yieldFramesData().",
    );
  }

  send(): string {
    throw new AvatarError(
      'invalidState',
      'send() is for SDK and local mode; in Host mode use yieldAudioData().',
    );
  }

  yieldAudio(encoded: Uint8Array | ArrayBuffer): string {
    const conversationId = peekConversationId(encoded);
    if (this.#past.has(conversationId)) return conversationId;
    const message = this.#relay.decode(encoded);
    if (message.kind !== 'audio') {
      throw new AvatarError(
        'invalidRequest',
        'yieldAudioData() got an animation message; pass it to yieldFramesData().',
      );
    }
    if (conversationId !== this.#current) {
      if (this.#current !== undefined) this.#retire(this.#current);
      this.#current = conversationId;
      this.#framesReceived.set(conversationId, 0);
      this.emit('utterance', conversationId, message.sampleRate);
    }
    this.emit('audio', conversationId, assertPcmChunk(message.pcm), message.last);
    return conversationId;
  }

  yieldFrames(encoded: ReadonlyArray<Uint8Array | ArrayBuffer> | undefined, conversationId: string): void {
    if (encoded !== undefined && encoded !== null && !Array.isArray(encoded)) {
      throw new AvatarError(
        'invalidRequest',
        'yieldFramesData() takes an array of relay animation messages (empty or undefined for audio-only).',
      );
    }
    if (conversationId !== this.#current || this.#audioOnly.has(conversationId)) return;
    if (!encoded || encoded.length === 0) {
      this.#audioOnly.add(conversationId);
      this.emit('audioOnly', conversationId);
      return;
    }
    for (const bytes of encoded) {
      if (peekConversationId(bytes) !== conversationId) continue;
      const message = this.#relay.decode(bytes);
      if (message.kind !== 'animation') {
        throw new AvatarError(
          'invalidRequest',
          'yieldFramesData() got an audio message; pass it to yieldAudioData().',
        );
      }
      const first = this.#framesReceived.get(conversationId) ?? 0;
      const frames = animationToDriveFrames(message.animation, first);
      this.#framesReceived.set(conversationId, first + frames.length);
      if (frames.length > 0) this.emit('frames', conversationId, frames);
      else if (message.last && first === 0) this.emit('audioOnly', conversationId);
    }
  }

  interrupt(): void {
    if (this.#current !== undefined) this.#retire(this.#current);
  }

  pause(): void {}

  resume(): void {}

  finished(id: string): void {
    this.#retire(id);
  }

  close(): void {}

  #retire(conversationId: string): void {
    this.#past.add(conversationId);
    if (this.#past.size > REMEMBERED_CONVERSATIONS) this.#past.delete(this.#past.values().next().value!);
    this.#relay.forget(conversationId);
    this.#framesReceived.delete(conversationId);
    this.#audioOnly.delete(conversationId);
    if (this.#current === conversationId) this.#current = undefined;
  }
}
