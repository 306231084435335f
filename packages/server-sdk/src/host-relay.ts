/**
 * Host mode's relay: the session's audio and animation as core relay messages (and control
 * events as text), fanned out in order to every {@link RelayStream} opened on the session.
 */
import { RelayEncoder, responseAnimationBytes, type ServerResponseAnimation } from '@avatar-drive/core';
import { encodeRelayControl, type RelayControl, type RelayEvent } from './relay-events.js';
import { RelayStream } from './relay-stream.js';

/** The relay streams of one session and the encoder whose sequence numbers they share. */
export class HostRelay {
  readonly #encoder = new RelayEncoder();
  readonly #streams = new Set<RelayStream>();
  readonly #onListenerError: (error: unknown) => void;

  /** @param onListenerError told when a stream's `event` listener throws. */
  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /** A new stream: every relay event from now on. */
  open(): RelayStream {
    const stream = new RelayStream(this.#onListenerError);
    this.#streams.add(stream);
    return stream;
  }

  /** Relays a chunk of the PCM sent for `reqId`; returns the relay audio message. */
  audio(reqId: string, pcm: Uint8Array, sampleRate: number, last: boolean): Uint8Array {
    const encoded = this.#encoder.audio(reqId, pcm, { sampleRate, last });
    this.#push({ type: 'audio', conversationId: reqId, data: encoded, last });
    return encoded;
  }

  /**
   * Relays an animation message, its keyframe bytes unchanged (`raw` is the received frame);
   * returns the relay animation message.
   * @throws AvatarError when the frame's animation cannot be relayed.
   */
  animation(raw: Uint8Array, value: ServerResponseAnimation): Uint8Array {
    const { reqId, end } = value;
    const encoded = this.#encoder.animation(reqId, responseAnimationBytes(raw, value), { last: end });
    this.#push({ type: 'animation', conversationId: reqId, data: encoded, last: end });
    return encoded;
  }

  /** Relays a control event (interrupt, pause, resume, end). */
  control(control: RelayControl): void {
    this.#push({ type: 'control', control, data: encodeRelayControl(control) });
  }

  /** Ends every stream; no event follows. */
  end(): void {
    for (const stream of this.#streams) stream.end();
    this.#streams.clear();
  }

  #push(event: RelayEvent): void {
    for (const stream of this.#streams) stream.push(event);
  }
}
