/**
 * A streaming Ogg page reader (RFC 3533): bytes in, in pieces split anywhere, whole checked pages
 * out. Each page is verified (capture pattern, version, CRC) before any of it is handed on, so a
 * packet is never decoded from a page that turns out to be corrupt. The stream is expected to be
 * continuous (it arrives over a reliable WebSocket): bytes that are not a page are refused, not
 * skipped over to the next "OggS".
 */
import { AvatarError, oggCrc } from '@avatar-drive/core';

/** Page header flags (header_type). */
export const CONTINUED = 0x01;
export const BEGINNING_OF_STREAM = 0x02;
export const END_OF_STREAM = 0x04;

const HEADER_BYTES = 27;
/** The largest page: a full header, 255 lacing values of 255. */
export const MAX_PAGE_BYTES = HEADER_BYTES + 255 + 255 * 255;

/** One checked page. Its arrays are views into the reader's buffer: read them before the next push. */
export interface OggPage {
  /** header_type: {@link CONTINUED}, {@link BEGINNING_OF_STREAM}, {@link END_OF_STREAM}. */
  readonly flags: number;
  /** Granule position; -1 when no packet ends on this page. */
  readonly granule: number;
  readonly serial: number;
  readonly sequence: number;
  /** The lacing values (segment table). */
  readonly lacing: Uint8Array;
  readonly body: Uint8Array;
  /** Byte offset of the page in the stream, for error messages. */
  readonly offset: number;
}

function refuse(message: string): never {
  throw new AvatarError('invalidAudio', message);
}

export class OggPageReader {
  readonly #buf = new Uint8Array(MAX_PAGE_BYTES);
  /** Bytes of the current (incomplete) page held in #buf. */
  #have = 0;
  /** Size of the current page once its header and lacing are known, else 0. */
  #size = 0;
  /** Stream offset of the current page's first byte. */
  #offset = 0;

  /** Bytes of an incomplete page held back (0 at a page boundary). */
  get pending(): number {
    return this.#have;
  }

  /** Total bytes consumed so far. */
  get position(): number {
    return this.#offset + this.#have;
  }

  /**
   * Consumes `bytes`; calls `onPage` synchronously for each page it completes.
   * @throws AvatarError `invalidAudio` for bytes that are not a valid Ogg page.
   */
  push(bytes: Uint8Array, onPage: (page: OggPage) => void): void {
    let at = 0;
    while (at < bytes.length) {
      const need = (this.#size || this.#headerNeed()) - this.#have;
      const take = Math.min(need, bytes.length - at);
      this.#buf.set(bytes.subarray(at, at + take), this.#have);
      this.#have += take;
      at += take;
      if (take < need) return;
      if (this.#size === 0) {
        // The header is complete: check it, then wait for its lacing values (if any).
        if (this.#have === HEADER_BYTES) {
          this.#checkHeader();
          if (this.#buf[26]! > 0) continue;
        }
        this.#size = this.#pageSize();
        if (this.#have < this.#size) continue;
      }
      onPage(this.#finishPage());
    }
  }

  /** Bytes still needed before the page's size is known: the header, then its lacing values. */
  #headerNeed(): number {
    return this.#have < HEADER_BYTES ? HEADER_BYTES : HEADER_BYTES + this.#buf[26]!;
  }

  #checkHeader(): void {
    const b = this.#buf;
    if (b[0] !== 0x4f || b[1] !== 0x67 || b[2] !== 0x67 || b[3] !== 0x53) {
      refuse(
        `bytes at offset ${this.#offset} of the stream are not an Ogg page (no "OggS" capture pattern). Send one continuous Ogg Opus stream per req_id, every byte in order, starting with its first page.`,
      );
    }
    if (b[4] !== 0)
      refuse(
        `the Ogg page at offset ${this.#offset} has stream structure version ${b[4]}; only version 0 exists.`,
      );
    if (b[5]! & ~0x07)
      refuse(`the Ogg page at offset ${this.#offset} sets undefined header flags (0x${b[5]!.toString(16)}).`);
  }

  #pageSize(): number {
    const b = this.#buf;
    let size = HEADER_BYTES + b[26]!;
    for (let i = HEADER_BYTES; i < HEADER_BYTES + b[26]!; i++) size += b[i]!;
    return size;
  }

  #finishPage(): OggPage {
    const b = this.#buf;
    const size = this.#size;
    const view = new DataView(b.buffer, b.byteOffset, size);
    const stored = view.getUint32(22, true);
    let crc = oggCrc(b.subarray(0, 22));
    crc = oggCrc(ZERO_CRC, crc);
    crc = oggCrc(b.subarray(26, size), crc);
    if (crc !== stored) {
      refuse(
        `the Ogg page at offset ${this.#offset} (sequence ${view.getUint32(18, true)}) fails its CRC check: the bytes were changed or reordered on the way. Send the encoder's pages unchanged and in order.`,
      );
    }
    const lo = view.getUint32(6, true);
    const hi = view.getUint32(10, true);
    let granule: number;
    if (lo === 0xffffffff && hi === 0xffffffff) granule = -1;
    else if (hi >= 0x200000)
      refuse(`the Ogg page at offset ${this.#offset} has a granule position beyond 2^53 (or negative).`);
    else granule = hi * 0x100000000 + lo;
    const segments = b[26]!;
    const page: OggPage = {
      flags: b[5]!,
      granule,
      serial: view.getUint32(14, true),
      sequence: view.getUint32(18, true),
      lacing: b.subarray(HEADER_BYTES, HEADER_BYTES + segments),
      body: b.subarray(HEADER_BYTES + segments, size),
      offset: this.#offset,
    };
    this.#offset += size;
    this.#have = 0;
    this.#size = 0;
    return page;
  }
}

const ZERO_CRC = new Uint8Array(4);
