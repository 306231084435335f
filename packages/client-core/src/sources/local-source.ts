/**
 * Local mode (`drivingServiceMode: 'local'`): the app's PCM goes to the on-device engine the
 * platform supplies ({@link LocalEngine}: client-web runs `@avatar-drive/engine` in a Worker);
 * no token, no network. The link states follow the engine: `connecting` while it loads,
 * `connected` once it takes audio, `failed` when it cannot start or dies (no reconnect:
 * `start()` again).
 */
import { AvatarError } from '@avatar-drive/core';
import type { LocalEngine } from '../local-engine.js';
import { PcmSource } from './pcm-source.js';

/** The drive source of local mode: an on-device engine per session. */
export class LocalSource extends PcmSource {
  /** The engine of the current session. */
  #engine: LocalEngine | undefined;

  protected get linked(): boolean {
    return this.#engine !== undefined;
  }

  async open(): Promise<void> {
    this.emit('state', 'connecting');
    const create = this.context.options.createLocalEngine;
    let engine: LocalEngine | undefined;
    try {
      if (!create) {
        throw new AvatarError(
          'invalidState',
          "drivingServiceMode 'local' needs an on-device engine: the platform package (client-web) passes createLocalEngine.",
          { phase: 'connect' },
        );
      }
      const opened = create();
      engine = opened;
      this.#engine = opened;
      await opened.open(this.context.config.sampleRate, {
        onFrames: (id, frames, end) => {
          if (this.#engine !== opened) return;
          this.deliverFrames(id, end, (first) => {
            for (let i = 0; i < frames.length; i++) frames[i]!.index = first + i;
            return frames;
          });
        },
        onFailure: (error) => {
          if (this.#engine === opened) this.#onFailure(error);
        },
      });
    } catch (cause) {
      if (engine && this.#engine !== engine) throw cause; // close() during start
      this.#engine = undefined;
      engine?.close();
      const error =
        cause instanceof AvatarError
          ? cause
          : new AvatarError('connectionFailed', `The on-device engine could not start: ${String(cause)}`, {
              cause,
              phase: 'connect',
            });
      this.emit('state', 'failed', error);
      throw error;
    }
    if (this.#engine !== engine) return; // close() during start
    this.emit('state', 'connected');
  }

  close(): void {
    const engine = this.#engine;
    this.#engine = undefined;
    this.endOpenUtterance();
    engine?.close();
  }

  interrupt(): void {
    const id = this.latestId;
    if (id) this.#engine?.cancel(id);
    this.endOpenUtterance();
  }

  protected transmit(id: string, pcm: Int16Array, end: boolean): void {
    this.#engine!.push(id, pcm, end);
  }

  /** The engine died: like a dropped session, without a reconnect (start() again). */
  #onFailure(error: AvatarError): void {
    const engine = this.#engine;
    this.#engine = undefined;
    this.endOpenUtterance();
    engine?.close();
    this.emit('state', 'failed', error);
  }
}
