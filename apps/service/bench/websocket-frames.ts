/**
 * RFC 6455 framing for the bench's raw client: complete client frames built once (FIN, masked
 * with an all-zero key), and an incremental reader of the server's frames.
 *
 * Client frames must carry the mask bit and a 4-byte key (RFC 6455 §5.3), but the key may be any
 * value: with 0x00000000 the XOR leaves the payload unchanged, so a frame can be encoded once and
 * written as is. Masking exists so that a hostile page cannot make a browser emit bytes an
 * intermediary would misread as HTTP (cache poisoning, Huang et al. 2011); the bench writes only
 * its own protobuf messages straight to a service on 127.0.0.1 with no proxy in between, so a
 * predictable key protects nothing that a random one would.
 */

export const OPCODE_CONTINUATION = 0x0;
export const OPCODE_TEXT = 0x1;
export const OPCODE_BINARY = 0x2;
export const OPCODE_CLOSE = 0x8;
export const OPCODE_PING = 0x9;
export const OPCODE_PONG = 0xa;

/** Close codes the reader reports for frames it refuses (RFC 6455 §7.4.1). */
export const CLOSE_PROTOCOL_ERROR = 1002;
export const CLOSE_TOO_BIG = 1009;
/** Reported for a close frame without a status code. */
export const CLOSE_NO_STATUS = 1005;

/** Header length of a masked client frame with `payloadLength` bytes of payload. */
export function clientHeaderLength(payloadLength: number): number {
  return (payloadLength < 126 ? 2 : payloadLength < 65536 ? 4 : 10) + 4;
}

/**
 * Writes a final, masked client frame header with an all-zero masking key into `target` at
 * `offset`; returns the offset where the payload goes (the payload needs no XOR).
 */
export function writeClientHeader(
  target: Buffer,
  offset: number,
  opcode: number,
  payloadLength: number,
): number {
  let p = offset;
  target[p++] = 0x80 | opcode;
  if (payloadLength < 126) target[p++] = 0x80 | payloadLength;
  else if (payloadLength < 65536) {
    target[p++] = 0x80 | 126;
    target.writeUInt16BE(payloadLength, p);
    p += 2;
  } else {
    target[p++] = 0x80 | 127;
    target.writeUInt32BE(Math.floor(payloadLength / 2 ** 32), p);
    target.writeUInt32BE(payloadLength >>> 0, p + 4);
    p += 8;
  }
  target.writeUInt32BE(0, p); // the masking key: zero, so the payload is sent as is
  return p + 4;
}

/** A complete client frame (header, zero masking key, payload), ready for one socket write. */
export function clientFrame(opcode: number, payload: Uint8Array = new Uint8Array(0)): Buffer {
  const frame = Buffer.allocUnsafe(clientHeaderLength(payload.length) + payload.length);
  frame.set(payload, writeClientHeader(frame, 0, opcode, payload.length));
  return frame;
}

/** A client close frame with a status code (and no reason). */
export function clientCloseFrame(code: number): Buffer {
  const payload = Buffer.allocUnsafe(2);
  payload.writeUInt16BE(code, 0);
  return clientFrame(OPCODE_CLOSE, payload);
}

/** What the reader calls for each complete frame; implemented once per connection, no closures. */
export interface ServerFrameHandler {
  /**
   * A complete text or binary message in `bytes[start, end)`. The bytes belong to the reader's
   * caller (often a read buffer shared by every connection): use them during the call only.
   */
  onMessage(opcode: number, bytes: Buffer, start: number, end: number): void;
  /** A ping; the payload is a copy, to be echoed in a pong. */
  onPing(payload: Buffer): void;
  /** The server's close frame (code 1005 when it carried none). No frame is read after it. */
  onClose(code: number, reason: string): void;
  /** A frame RFC 6455 forbids from a server; the connection should be failed with `code`. */
  onProtocolError(code: number, reason: string): void;
}

/**
 * Reads the server's frames from the bytes of successive TCP reads, which may split a frame or
 * hold several: complete frames in a read are handed over in place, without copying; only the
 * unfinished tail of a read is kept. Fragmented messages are reassembled; control frames may
 * arrive between fragments.
 */
export class ServerFrameReader {
  /** The unfinished tail of earlier reads, copied (reads may reuse their buffer). */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Bytes the unfinished frame needs before it can be read further (at least its header). */
  #needed = 0;
  #fragments: Buffer[] = [];
  #fragmentOpcode = 0;
  #fragmentBytes = 0;
  #done = false;

  constructor(
    private readonly handler: ServerFrameHandler,
    /** Larger messages fail the connection with 1009. */
    private readonly maxMessageBytes = 16 * 1024 * 1024,
  ) {}

  /** Bytes `chunk[start, end)` as read from the socket. */
  push(chunk: Buffer, start = 0, end = chunk.length): void {
    if (this.#done || start === end) return;
    let bytes = chunk;
    let p = start;
    let stop = end;
    if (this.#pendingBytes > 0) {
      // Gather reads until the unfinished frame is whole: each byte is copied once more at most.
      this.#pending.push(Buffer.from(chunk.subarray(start, end)));
      this.#pendingBytes += end - start;
      if (this.#pendingBytes < this.#needed) return;
      bytes = Buffer.concat(this.#pending, this.#pendingBytes);
      this.#pending = [];
      this.#pendingBytes = 0;
      p = 0;
      stop = bytes.length;
    }
    while (p < stop) {
      const used = this.#frame(bytes, p, stop);
      if (this.#done) return;
      if (used === 0) break;
      p += used;
    }
    if (p < stop) {
      this.#pending.push(Buffer.from(bytes.subarray(p, stop)));
      this.#pendingBytes = stop - p;
    }
  }

  /**
   * Handles the frame at `p` and returns its length, or 0 while it is incomplete (then
   * `#needed` says how many bytes from `p` it takes to read on).
   */
  #frame(b: Buffer, p: number, stop: number): number {
    if (stop - p < 2) return this.#incomplete(2);
    const b0 = b[p]!;
    const b1 = b[p + 1]!;
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if ((b0 & 0x70) !== 0)
      return this.#fail(CLOSE_PROTOCOL_ERROR, 'RSV bits set, but no extension was negotiated');
    if ((b1 & 0x80) !== 0) return this.#fail(CLOSE_PROTOCOL_ERROR, 'a server frame was masked');
    let header = 2;
    let length = b1 & 0x7f;
    if (length === 126) {
      if (stop - p < 4) return this.#incomplete(4);
      length = b.readUInt16BE(p + 2);
      header = 4;
    } else if (length === 127) {
      if (stop - p < 10) return this.#incomplete(10);
      const high = b.readUInt32BE(p + 2);
      if (high > 0x1fffff) return this.#fail(CLOSE_TOO_BIG, 'frame length beyond 2^53');
      length = high * 2 ** 32 + b.readUInt32BE(p + 6);
      header = 10;
    }
    if (opcode >= 0x8) {
      if (!fin || length > 125)
        return this.#fail(CLOSE_PROTOCOL_ERROR, 'a control frame was fragmented or longer than 125 bytes');
    } else if (this.#fragmentBytes + length > this.maxMessageBytes) {
      return this.#fail(CLOSE_TOO_BIG, `a message longer than ${this.maxMessageBytes} bytes`);
    }
    if (stop - p < header + length) return this.#incomplete(header + length);
    const from = p + header;
    const to = from + length;
    switch (opcode) {
      case OPCODE_TEXT:
      case OPCODE_BINARY:
        if (this.#fragmentOpcode !== 0)
          return this.#fail(CLOSE_PROTOCOL_ERROR, 'a new message began inside a fragmented one');
        if (fin) this.handler.onMessage(opcode, b, from, to);
        else {
          this.#fragmentOpcode = opcode;
          this.#fragments.push(Buffer.from(b.subarray(from, to)));
          this.#fragmentBytes = length;
        }
        break;
      case OPCODE_CONTINUATION:
        if (this.#fragmentOpcode === 0)
          return this.#fail(CLOSE_PROTOCOL_ERROR, 'a continuation frame outside a fragmented message');
        this.#fragments.push(Buffer.from(b.subarray(from, to)));
        this.#fragmentBytes += length;
        if (fin) {
          const message = Buffer.concat(this.#fragments);
          const messageOpcode = this.#fragmentOpcode;
          this.#fragments = [];
          this.#fragmentOpcode = 0;
          this.#fragmentBytes = 0;
          this.handler.onMessage(messageOpcode, message, 0, message.length);
        }
        break;
      case OPCODE_CLOSE:
        if (length === 1) return this.#fail(CLOSE_PROTOCOL_ERROR, 'a close frame with a 1-byte payload');
        this.#done = true;
        this.handler.onClose(
          length >= 2 ? b.readUInt16BE(from) : CLOSE_NO_STATUS,
          length > 2 ? b.toString('utf8', from + 2, to) : '',
        );
        break;
      case OPCODE_PING:
        this.handler.onPing(Buffer.from(b.subarray(from, to)));
        break;
      case OPCODE_PONG:
        break;
      default:
        return this.#fail(CLOSE_PROTOCOL_ERROR, `unknown opcode ${opcode}`);
    }
    return header + length;
  }

  #incomplete(needed: number): number {
    this.#needed = needed;
    return 0;
  }

  #fail(code: number, reason: string): number {
    this.#done = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.handler.onProtocolError(code, reason);
    return 0;
  }
}
