/**
 * One Ogg Opus logical stream (RFC 7845) → mono s16 PCM, fed in pieces split anywhere. Pages come
 * checked from {@link OggPageReader}; this class rebuilds the packets, reads the two headers,
 * decodes the audio packets and applies the pre-skip and the end trim, so the PCM it returns is
 * exactly the encoder's input (in length), as the granule positions describe it.
 *
 * What it refuses (AvatarError `invalidAudio`, each with what to change): a first page that is not
 * a beginning-of-stream page carrying only an OpusHead; a header this server cannot decode; pages
 * of a second logical stream (another serial number: a multiplexed or chained stream); a missing,
 * repeated or reordered page (sequence numbers); a broken packet continuation; an audio packet
 * libopus cannot decode, an empty or oversized one; anything after the end-of-stream page; and a
 * stream that stops inside a page, inside a packet or before its headers.
 *
 * A stream whose pages simply stop without the end-of-stream flag is accepted when the request
 * ends (driveningress's `end = true` is what ends a request; the EOS flag only adds the end trim):
 * every sample its complete pages carry is decoded, so a client whose encoder is cut off at a page
 * boundary loses nothing.
 */
import { AvatarError } from '@avatar-drive/core';
import { BEGINNING_OF_STREAM, CONTINUED, END_OF_STREAM, type OggPage, OggPageReader } from './ogg-pages.js';
import { MAX_OPUS_PACKET_BYTES, type OpusPacketDecoder } from './opus-decoder.js';
import { parseOpusHead, startsWith } from './opus-head.js';

function refuse(message: string): never {
  throw new AvatarError('invalidAudio', message);
}

const EMPTY = new Int16Array(0);

export class OggOpusStream {
  readonly #reader = new OggPageReader();
  readonly #decoder: OpusPacketDecoder;
  /** 48000 / decode rate: one decoded sample is this many 48 kHz samples (the granule unit). */
  readonly #factor: number;
  #serial = -1;
  #nextSequence = 0;
  /** Packets completed so far (0: OpusHead, 1: OpusTags, then audio). */
  #packets = 0;
  /** The packet being assembled across lacing values and pages. */
  #parts: Uint8Array[] = [];
  #partBytes = 0;
  /** A packet continues past the last page (its last lacing value was 255). */
  #open = false;
  #ended = false;
  #sawAudioPage = false;
  /** Samples (decode rate) still to drop from the start. */
  #preSkipLeft = 0;
  /** 48 kHz samples decoded so far, pre-skip included (what granule positions count). */
  #decoded48 = 0;
  /** Pre-skip, 48 kHz samples. */
  #preSkip48 = 0;
  /** Samples handed out so far (decode rate). */
  #emitted = 0;
  /** This push's output, and the current page's. */
  #out: Int16Array[] = [];
  #pageOut: Int16Array[] = [];

  constructor(decoder: OpusPacketDecoder) {
    this.#decoder = decoder;
    this.#factor = 48000 / decoder.rate;
  }

  /** True once the end-of-stream page was read. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Takes the next bytes of the stream; returns the PCM of the pages they complete (often empty).
   * @throws AvatarError `invalidAudio` (see the module comment).
   */
  push(bytes: Uint8Array): Int16Array {
    if (bytes.length === 0) return EMPTY;
    if (this.#ended) this.#afterEnd();
    this.#out = [];
    this.#reader.push(bytes, (page) => this.#page(page));
    const out = this.#out;
    this.#out = [];
    return concat(out);
  }

  /**
   * The request ended (end = true): checks that the stream is complete up to a page boundary.
   * @throws AvatarError `invalidAudio` for a stream cut inside a page, a packet or its headers.
   */
  finish(): void {
    if (this.#reader.position === 0) return; // an empty request: no stream at all
    if (this.#reader.pending > 0) {
      refuse(
        `the Ogg Opus stream ended inside a page (${this.#reader.pending} bytes of an incomplete page). Send every page whole before end=true.`,
      );
    }
    if (this.#open)
      refuse(
        'the Ogg Opus stream ended inside a packet that its last page said continues. Send the rest of the stream before end=true.',
      );
    if (this.#packets < 2)
      refuse('the Ogg Opus stream ended before its OpusHead and OpusTags headers were complete.');
  }

  #afterEnd(): never {
    refuse(
      'bytes arrived after the Ogg end-of-stream page (a chained stream?). Send one Ogg Opus stream per req_id and set end=true on its last chunk; start the next stream under a new req_id.',
    );
  }

  #page(page: OggPage): void {
    if (this.#ended) this.#afterEnd();
    this.#checkPlace(page);
    const { lacing, body } = page;
    const continued = (page.flags & CONTINUED) !== 0;
    if (continued !== this.#open) {
      refuse(
        continued
          ? `Ogg page ${page.sequence} says it continues a packet, but the previous page ended its packets.`
          : `Ogg page ${page.sequence} does not continue the packet the previous page left open.`,
      );
    }
    const first = this.#packets === 0;
    const decodedBefore = this.#decoded48;
    let at = 0;
    let completed = 0;
    for (let i = 0; i < lacing.length; i++) {
      const n = lacing[i]!;
      this.#append(body.subarray(at, at + n), page);
      at += n;
      if (n === 255) continue;
      completed++;
      this.#packet(page);
    }
    this.#open = lacing.length > 0 && lacing[lacing.length - 1] === 255;
    if (first && (completed !== 1 || this.#open)) {
      refuse(
        'the first Ogg page must carry the OpusHead alone (RFC 7845 §3). Send Ogg Opus as an Opus encoder writes it.',
      );
    }
    const eos = (page.flags & END_OF_STREAM) !== 0;
    if (this.#decoded48 > decodedBefore && page.granule >= 0) this.#checkGranule(page, eos);
    for (const pcm of this.#pageOut) {
      this.#out.push(pcm);
      this.#emitted += pcm.length;
    }
    this.#pageOut = [];
    if (eos) {
      if (this.#open) refuse(`the end-of-stream page ${page.sequence} leaves a packet unfinished.`);
      this.#ended = true;
    }
  }

  /** The page's place in the stream: first page BOS, one serial number, consecutive sequence numbers. */
  #checkPlace(page: OggPage): void {
    const bos = (page.flags & BEGINNING_OF_STREAM) !== 0;
    if (this.#serial === -1) {
      if (!bos) {
        refuse(
          'the first Ogg page of the req_id is not a beginning-of-stream page. Start a new Ogg Opus stream (with its OpusHead) for each req_id, and send its pages from the first.',
        );
      }
      this.#serial = page.serial;
    } else if (page.serial !== this.#serial || bos) {
      refuse(
        `a second Ogg logical stream (serial ${page.serial}) appeared in the stream of serial ${this.#serial}. Send exactly one Ogg Opus logical stream per req_id (no multiplexed or chained streams); use a new req_id for the next one.`,
      );
    } else if (page.sequence !== this.#nextSequence) {
      refuse(
        `Ogg page ${page.sequence} arrived where page ${this.#nextSequence} was expected: a page is missing, repeated or out of order. Send every page once, in order.`,
      );
    }
    this.#nextSequence = (page.sequence + 1) >>> 0;
  }

  #append(part: Uint8Array, page: OggPage): void {
    if (part.length === 0) return;
    // The OpusTags packet can be large (cover art); only its magic is needed, so it is not kept.
    if (this.#packets === 1) {
      if (this.#partBytes < 8) this.#parts.push(part.slice(0, 8 - this.#partBytes));
      this.#partBytes += part.length;
      return;
    }
    if (this.#partBytes + part.length > MAX_OPUS_PACKET_BYTES) {
      refuse(
        `a packet of the Ogg Opus stream (page ${page.sequence}) is larger than ${MAX_OPUS_PACKET_BYTES} bytes; Opus packets of up to 120 ms are far smaller. Send Ogg Opus as an Opus encoder writes it.`,
      );
    }
    this.#parts.push(part.slice());
    this.#partBytes += part.length;
  }

  #packet(page: OggPage): void {
    const packet = concatBytes(
      this.#parts,
      Math.min(this.#partBytes, this.#packets === 1 ? 8 : this.#partBytes),
    );
    this.#parts = [];
    this.#partBytes = 0;
    const index = this.#packets++;
    if (index === 0) {
      const head = parseOpusHead(packet);
      this.#decoder.reset(head.gainQ8);
      this.#preSkip48 = head.preSkip;
      this.#preSkipLeft = Math.round(head.preSkip / this.#factor);
      return;
    }
    if (index === 1) {
      if (!startsWith(packet, 'OpusTags')) {
        refuse('the second packet of the Ogg Opus stream is not its OpusTags header (RFC 7845 §5.2).');
      }
      return;
    }
    if (packet.length === 0) {
      refuse(`Ogg page ${page.sequence} carries an empty audio packet; an Ogg Opus stream has none.`);
    }
    let pcm: Int16Array;
    try {
      pcm = this.#decoder.decode(packet);
    } catch (error) {
      refuse(
        `audio packet ${index - 1} (Ogg page ${page.sequence}) is not a valid Opus packet (${(error as Error).message}). Send the encoder's packets unchanged.`,
      );
    }
    this.#decoded48 += pcm.length * this.#factor;
    if (this.#preSkipLeft > 0) {
      const skip = Math.min(this.#preSkipLeft, pcm.length);
      this.#preSkipLeft -= skip;
      pcm = pcm.subarray(skip);
    }
    if (pcm.length > 0) this.#pageOut.push(pcm);
  }

  /**
   * A page on which audio packets end: its granule position is the 48 kHz sample count at its
   * end. The first such page may not claim fewer samples than were decoded (RFC 7845 §4.5 makes
   * that invalid); the end-of-stream page's count is where the audio stops (the end trim).
   */
  #checkGranule(page: OggPage, eos: boolean): void {
    if (!this.#sawAudioPage && !eos && page.granule < this.#decoded48) {
      refuse(
        `the first audio page (${page.sequence}) has granule position ${page.granule}, fewer than the ${this.#decoded48} samples (48 kHz) it completes: the stream is invalid (RFC 7845 §4.5).`,
      );
    }
    this.#sawAudioPage = true;
    if (!eos || page.granule >= this.#decoded48) return;
    // End trim: keep the samples up to the granule position (earlier pages are already out).
    const total = Math.max(0, Math.round((page.granule - this.#preSkip48) / this.#factor));
    let keep = Math.max(0, total - this.#emitted);
    const kept: Int16Array[] = [];
    for (const pcm of this.#pageOut) {
      if (keep <= 0) break;
      const part = pcm.length <= keep ? pcm : pcm.subarray(0, keep);
      kept.push(part);
      keep -= part.length;
    }
    this.#pageOut = kept;
  }
}

function concat(parts: Int16Array[]): Int16Array {
  if (parts.length === 0) return EMPTY;
  if (parts.length === 1) return parts[0]!;
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Int16Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function concatBytes(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.length === length) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    const n = Math.min(p.length, length - at);
    out.set(p.subarray(0, n), at);
    at += n;
    if (at === length) break;
  }
  return out;
}
