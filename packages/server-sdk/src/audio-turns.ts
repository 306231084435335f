/**
 * The turns of a session's outgoing audio: which request id a `sendAudio` chunk belongs to,
 * resampling and Ogg Opus per turn, and which requests are over (interrupted or finished, so
 * their late animation is dropped and the rest of an interrupted turn is not sent).
 */
import { randomUUID } from 'node:crypto';
import { int16ToBytes, Resampler } from '@avatar-drive/core';
import type { OggOpusWriter } from './ogg-opus-writer.js';
import type { OpusSender } from './opus-sending.js';

/** Largest audio payload per ClientAudioInput; bigger chunks are split (the service caps frames). */
export const MAX_AUDIO_CHUNK_BYTES = 64 * 1024;

/** Requests remembered as interrupted or finished (their late animation is dropped). */
const REMEMBERED_REQUESTS = 256;

/** What to do with one `sendAudio` chunk. */
export type TurnChunk =
  | { reqId: string; dropped: true }
  | {
      reqId: string;
      dropped: false;
      /** The PCM at the sent rate (for the service, and the relay). */
      pcm: Uint8Array;
      /** With Ogg Opus: the stream's next bytes for the service (the relay still gets `pcm`). */
      ogg?: Uint8Array;
    };

/** One session's turns. */
export class AudioTurns {
  readonly #inputRate: number;
  readonly #sampleRate: number;
  /** Set once the Opus encoder loaded (Ogg Opus sending). */
  opus: OpusSender | undefined;
  readonly #finished = new Set<string>();
  #openReqId: string | undefined;
  #latestReqId: string | undefined;
  /** A turn interrupted before its end chunk: its remaining input is dropped. */
  #interruptedTurn: string | undefined;
  #resampler: Resampler | undefined;
  #opusTurn: OggOpusWriter | undefined;

  constructor(inputRate: number, sampleRate: number) {
    this.#inputRate = inputRate;
    this.#sampleRate = sampleRate;
  }

  /** The latest request sent (what interrupt, pause and resume act on). */
  get latest(): string | undefined {
    return this.#latestReqId;
  }

  /** The turn still open (no end chunk yet). */
  get open(): string | undefined {
    return this.#openReqId;
  }

  /** True while the rest of an interrupted turn is dropped. */
  get interrupted(): boolean {
    return this.#interruptedTurn !== undefined;
  }

  /** Takes one chunk: its request id, and what to send unless the turn's rest is dropped. */
  next(samples: Int16Array, end: boolean): TurnChunk {
    const dropped = this.#interruptedTurn;
    if (dropped !== undefined) {
      if (end) this.#interruptedTurn = undefined;
      return { reqId: dropped, dropped: true };
    }
    let reqId = this.#openReqId;
    if (reqId === undefined) {
      reqId = `req_${randomUUID()}`;
      this.#openReqId = reqId;
      this.#latestReqId = reqId;
      this.#resampler =
        this.#inputRate !== this.#sampleRate ? new Resampler(this.#inputRate, this.#sampleRate) : undefined;
      this.#opusTurn = this.opus?.newTurn();
    }
    let out = samples;
    if (this.#resampler) {
      const head = this.#resampler.pushInt16(samples);
      if (end) {
        const tail = this.#resampler.flushInt16();
        out = new Int16Array(head.length + tail.length);
        out.set(head);
        out.set(tail, head.length);
      } else {
        out = head;
      }
    }
    if (end) {
      this.#openReqId = undefined;
      this.#resampler = undefined;
    }
    const pcm = int16ToBytes(out);
    const turn = this.#opusTurn;
    if (!turn) return { reqId, dropped: false, pcm };
    if (end) this.#opusTurn = undefined;
    return { reqId, dropped: false, pcm, ogg: end ? turn.end(out) : turn.push(out) };
  }

  /** A new turn begins: stop dropping. True when an open turn must be ended first. */
  startTurn(): boolean {
    this.#interruptedTurn = undefined;
    return this.#openReqId !== undefined;
  }

  /** The turn `reqId` is over for the service; if it was still open, its remaining input is dropped. */
  dropRest(reqId: string): void {
    if (this.#openReqId !== reqId) return;
    this.#interruptedTurn = reqId;
    this.#openReqId = undefined;
    this.#resampler = undefined;
  }

  /** The connection dropped: the request in flight is lost. Returns it, when there is one. */
  lost(): string | undefined {
    const inFlight = this.#latestReqId;
    if (inFlight !== undefined) this.dropRest(inFlight);
    this.#openReqId = undefined;
    this.#resampler = undefined;
    return inFlight;
  }

  isFinished(reqId: string): boolean {
    return this.#finished.has(reqId);
  }

  /** Remembers `reqId` as over (the oldest of too many is forgotten). */
  finish(reqId: string): void {
    this.#finished.add(reqId);
    if (this.#finished.size > REMEMBERED_REQUESTS) {
      const oldest = this.#finished.values().next().value;
      if (oldest !== undefined) this.#finished.delete(oldest);
    }
  }
}

/** Hands `bytes` on in pieces of at most MAX_AUDIO_CHUNK_BYTES, `last` on the final one when `end`. */
export function sendPieces(
  bytes: Uint8Array,
  end: boolean,
  send: (piece: Uint8Array, last: boolean) => void,
): void {
  const pieces = bytes.byteLength === 0 ? [bytes] : splitBytes(bytes, MAX_AUDIO_CHUNK_BYTES);
  pieces.forEach((piece, i) => {
    const last = end && i === pieces.length - 1;
    if (piece.byteLength === 0 && !last) return;
    send(piece, last);
  });
}

function splitBytes(bytes: Uint8Array, max: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += max)
    out.push(bytes.subarray(i, Math.min(bytes.byteLength, i + max)));
  return out;
}
