/**
 * One turn's PCM → one Ogg Opus logical stream (RFC 7845), written as the audio comes: each
 * `push` encodes the whole 20 ms frames it completes and returns them as Ogg pages (the first
 * call also returns the OpusHead and OpusTags pages); `end` pads the last frame and the encoder's
 * lookahead with silence and writes the end-of-stream page, whose granule position trims the
 * padding off again, so a decoder gets back exactly as many samples as were pushed.
 */
import { AvatarError, oggCrc } from '@avatar-drive/core';

/** The part of a libopus encoder the writer uses (an `@evan/opus` Encoder has it). */
export interface OpusFrameEncoder {
  /** Encodes one frame of mono s16 samples to a packet. */
  encode(pcm: Int16Array): Uint8Array;
  /** `opus_encoder_ctl`: OPUS_GET_LOOKAHEAD (4027) and OPUS_RESET_STATE (4028) are used. */
  ctl(cmd: number, arg?: number): number;
}

const GET_LOOKAHEAD = 4027;
const RESET_STATE = 4028;
const VENDOR = new TextEncoder().encode('avatar-drive server-sdk');
/** Lacing values per page (the format's limit). */
const MAX_SEGMENTS = 255;

export class OggOpusWriter {
  readonly #encoder: OpusFrameEncoder;
  readonly #rate: number;
  /** Samples per 20 ms frame. */
  readonly #frame: number;
  /** 48 kHz samples per input sample (the granule unit). */
  readonly #factor: number;
  readonly #serial: number;
  readonly #lookahead: number;
  #sequence = 0;
  #started = false;
  /** Samples pushed (what the decoder must give back). */
  #samples = 0;
  /** Frames encoded. */
  #frames = 0;
  /** Samples of an incomplete frame. */
  readonly #held: Int16Array;
  #heldCount = 0;

  /**
   * @param encoder a mono encoder at `rate`, used by this writer alone (it is reset here).
   * @param serial the stream's serial number (random per stream).
   */
  constructor(encoder: OpusFrameEncoder, rate: number, serial: number) {
    if (![8000, 12000, 16000, 24000, 48000].includes(rate)) {
      throw new AvatarError(
        'unsupportedSampleRate',
        `Opus encodes at 8, 12, 16, 24 or 48 kHz, not ${rate} Hz.`,
      );
    }
    this.#encoder = encoder;
    this.#rate = rate;
    this.#frame = rate / 50;
    this.#factor = 48000 / rate;
    this.#serial = serial >>> 0;
    encoder.ctl(RESET_STATE);
    this.#lookahead = encoder.ctl(GET_LOOKAHEAD);
    this.#held = new Int16Array(this.#frame);
  }

  /** The Ogg bytes for `pcm` (possibly none yet, while a frame is incomplete). */
  push(pcm: Int16Array): Uint8Array {
    const pages: Uint8Array[] = this.#headers();
    const packets = this.#encodeFrames(pcm);
    if (packets.length > 0) pages.push(...this.#audioPages(packets, false));
    return join(pages);
  }

  /**
   * The rest of the stream after `pcm`: the last frames padded with silence (through the
   * encoder's lookahead) and the end-of-stream page.
   */
  end(pcm: Int16Array = new Int16Array(0)): Uint8Array {
    const pages: Uint8Array[] = this.#headers();
    const packets = this.#encodeFrames(pcm);
    // Decoded output lags the input by the lookahead: encode until it is all out.
    const needed = this.#samples + this.#lookahead;
    while (this.#frames * this.#frame < needed) {
      this.#held.fill(0, this.#heldCount);
      this.#heldCount = 0;
      packets.push(this.#encodeFrame(this.#held));
    }
    pages.push(...this.#audioPages(packets, true));
    return join(pages);
  }

  #headers(): Uint8Array[] {
    if (this.#started) return [];
    this.#started = true;
    const head = new Uint8Array(19);
    const view = new DataView(head.buffer);
    head.set(new TextEncoder().encode('OpusHead'));
    head[8] = 1; // version
    head[9] = 1; // mono
    view.setUint16(10, this.#lookahead * this.#factor, true); // pre-skip, 48 kHz samples
    view.setUint32(12, this.#rate, true);
    // Output gain 0 and channel mapping family 0 are the zeros already there.
    const tags = new Uint8Array(8 + 4 + VENDOR.length + 4);
    tags.set(new TextEncoder().encode('OpusTags'));
    new DataView(tags.buffer).setUint32(8, VENDOR.length, true);
    tags.set(VENDOR, 12);
    return [this.#page([head], 0x02, 0), this.#page([tags], 0, 0)];
  }

  #encodeFrames(pcm: Int16Array): Uint8Array[] {
    const packets: Uint8Array[] = [];
    this.#samples += pcm.length;
    let at = 0;
    while (at < pcm.length) {
      const take = Math.min(this.#frame - this.#heldCount, pcm.length - at);
      this.#held.set(pcm.subarray(at, at + take), this.#heldCount);
      this.#heldCount += take;
      at += take;
      if (this.#heldCount === this.#frame) {
        this.#heldCount = 0;
        packets.push(this.#encodeFrame(this.#held));
      }
    }
    return packets;
  }

  #encodeFrame(frame: Int16Array): Uint8Array {
    this.#frames++;
    // A copy: an encoder may return a view of its own buffer (Node's Buffer.slice is one).
    return new Uint8Array(this.#encoder.encode(frame));
  }

  /** Packets into pages of at most 255 lacing values; granule = 48 kHz samples decoded so far. */
  #audioPages(packets: Uint8Array[], last: boolean): Uint8Array[] {
    const pages: Uint8Array[] = [];
    let decoded = (this.#frames - packets.length) * this.#frame * this.#factor;
    let page: Uint8Array[] = [];
    let segments = 0;
    const flush = (eos: boolean) => {
      const granule = eos ? (this.#samples + this.#lookahead) * this.#factor : decoded;
      pages.push(this.#page(page, eos ? 0x04 : 0, granule));
      page = [];
      segments = 0;
    };
    for (const packet of packets) {
      const need = Math.floor(packet.length / 255) + 1;
      if (segments + need > MAX_SEGMENTS) flush(false);
      page.push(packet);
      segments += need;
      decoded += this.#frame * this.#factor;
    }
    if (page.length > 0 || last) flush(last);
    return pages;
  }

  /** One page holding whole `packets`. */
  #page(packets: Uint8Array[], flags: number, granule: number): Uint8Array {
    const lacing: number[] = [];
    let bodyBytes = 0;
    for (const p of packets) {
      for (let n = p.length; ; n -= 255) {
        lacing.push(Math.min(n, 255));
        if (n < 255) break;
      }
      bodyBytes += p.length;
    }
    const page = new Uint8Array(27 + lacing.length + bodyBytes);
    const view = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53]); // "OggS", version 0
    page[5] = flags;
    view.setUint32(6, granule % 0x100000000, true);
    view.setUint32(10, Math.floor(granule / 0x100000000), true);
    view.setUint32(14, this.#serial, true);
    view.setUint32(18, this.#sequence++, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    let at = 27 + lacing.length;
    for (const p of packets) {
      page.set(p, at);
      at += p.length;
    }
    view.setUint32(22, oggCrc(page), true);
    return page;
  }
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
