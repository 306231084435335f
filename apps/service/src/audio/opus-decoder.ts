/// <reference path="./evan-opus.d.ts" />
/**
 * libopus (the WASM build of `@evan/opus`), decoding mono s16 at the rate the session runs its
 * engine at. WASM rather than the package's native addon: every byte a client sends reaches this
 * decoder, and a memory fault in WASM stays inside its heap instead of taking the process (and
 * every other session) down; it also behaves the same on every platform. It is synchronous
 * (construction, reset, decode), which keeps a session's input path in message order.
 */
import { createRequire } from 'node:module';
import type { Decoder } from '@evan/opus/wasm/index.js';

const require = createRequire(import.meta.url);
// Loaded (and its WASM compiled) once per process, on the first Opus session.
let wasm: typeof import('@evan/opus/wasm/index.js') | undefined;

/** The rates libopus decodes at natively. */
export type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;

/** `OPUS_RESET_STATE`, `OPUS_SET_GAIN` (Q7.8 dB). */
const RESET_STATE = 4028;
const SET_GAIN = 4034;
/** The package's packet buffer (bytes); Opus packets of real encoders stay far below it. */
export const MAX_OPUS_PACKET_BYTES = 8192;

export class OpusPacketDecoder {
  readonly rate: OpusRate;
  readonly #decoder: Decoder;

  constructor(rate: OpusRate) {
    wasm ??= require('@evan/opus/wasm/index.js') as typeof import('@evan/opus/wasm/index.js');
    this.rate = rate;
    // Mono: libopus mixes a stereo stream down itself.
    this.#decoder = new wasm.Decoder({ channels: 1, sample_rate: rate });
  }

  /** Starts a new stream: clears the decoder state and sets the stream's output gain. */
  reset(gainQ8: number): void {
    this.#decoder.ctl(RESET_STATE);
    this.#decoder.ctl(SET_GAIN, gainQ8);
  }

  /**
   * One packet's samples at {@link rate}. The array is the decoder's own copy.
   * @throws Error from libopus (`opus: corrupted stream`, …) for a packet it cannot decode.
   */
  decode(packet: Uint8Array): Int16Array {
    const bytes = this.#decoder.decode(packet);
    return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
  }

  close(): void {
    this.#decoder.drop();
  }
}
