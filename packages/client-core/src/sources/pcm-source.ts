/**
 * What the two modes where the app sends PCM share (SDK: the service animates it; local: the
 * on-device engine does): request ids (one open utterance until a chunk with `end`, a new one
 * replacing the one playing), audio checks, frame numbering per utterance, and refusing the
 * Host-mode calls. Subclasses move the audio and say what a control means on their link.
 */
import { AvatarError, assertPcmChunk, type DriveFrame, TypedEmitter } from '@avatar-drive/core';
import type { ConfirmedSession } from '../ingress-connection.js';
import type { DriveSource, DriveSourceContext, DriveSourceEvents } from './drive-source.js';

/** A source fed with PCM through `send()`: the base of {@link IngressSource} and {@link LocalSource}. */
export abstract class PcmSource extends TypedEmitter<DriveSourceEvents> implements DriveSource {
  protected readonly context: DriveSourceContext;
  /** The utterance whose chunks are being sent (its end not yet sent). */
  #openId: string | undefined;
  /** The latest utterance: what interrupt / pause / resume refer to. */
  #latestId: string | undefined;
  /** Frames received for the latest utterance (the next frame's index). */
  #framesReceived = 0;

  constructor(context: DriveSourceContext) {
    super();
    this.context = context;
  }

  get session(): ConfirmedSession | undefined {
    return undefined;
  }

  /** Always `undefined`: conversations are Host mode's. */
  get conversationId(): string | undefined {
    return undefined;
  }

  abstract open(): Promise<void>;
  abstract close(): void;
  abstract interrupt(): void;
  /** True while the link takes audio. */
  protected abstract get linked(): boolean;
  /** Moves one chunk of utterance `id` to the far end. */
  protected abstract transmit(id: string, pcm: Int16Array, end: boolean): void;

  send(pcm: Int16Array | Uint8Array | ArrayBuffer, end: boolean): string {
    const samples = assertPcmChunk(pcm, this.context.config.sampleRate);
    const state = this.context.connectionState();
    if (state !== 'connected' || !this.linked) {
      throw new AvatarError(
        'invalidState',
        `send() needs a connected session (connection is ${state}): await controller.start() first.`,
      );
    }
    let id = this.#openId;
    if (id === undefined) {
      id = newId();
      this.#openId = id;
      this.#latestId = id;
      this.#framesReceived = 0;
      this.emit('utterance', id, this.context.config.sampleRate);
    }
    this.transmit(id, samples, end);
    if (end) this.#openId = undefined;
    this.emit('audio', id, samples, end);
    return id;
  }

  yieldAudio(): string {
    return hostOnly('yieldAudioData()');
  }

  yieldFrames(): void {
    hostOnly('yieldFramesData()');
  }

  pause(): void {}

  resume(): void {}

  finished(): void {}

  /** The latest utterance, if any (what a control refers to). */
  protected get latestId(): string | undefined {
    return this.#latestId;
  }

  /** Forgets the open utterance: its next chunk starts a new one (after an interrupt, a drop, close()). */
  protected endOpenUtterance(): void {
    this.#openId = undefined;
  }

  /**
   * Takes frames of utterance `id` when it is the one playing: numbers them on from the last
   * ones, then reports them (or, for an utterance that ended with none, audio-only).
   */
  protected deliverFrames(id: string, end: boolean, frames: (first: number) => DriveFrame[]): void {
    if (id !== this.context.playing() || id !== this.#latestId) return; // interrupted or preempted
    const first = this.#framesReceived;
    const taken = frames(first);
    this.#framesReceived = first + taken.length;
    if (taken.length > 0) this.emit('frames', id, taken);
    else if (end && first === 0) this.emit('audioOnly', id);
  }
}

function hostOnly(what: string): never {
  throw new AvatarError('invalidState', `${what} is for drivingServiceMode 'host'; in SDK mode use send().`);
}

function newId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `req-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
