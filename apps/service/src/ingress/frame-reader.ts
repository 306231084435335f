/**
 * The hot input path below the protobuf one: reads a client's binary data frames straight off the
 * socket, ahead of ws's receiver, and hands their (unmasked) payloads to the session.
 *
 * A session's input is 50 small binary frames per second, each arriving as one socket read. Through
 * ws each of them passes the socket's `data` event, ws's receiver (a Writable stream: its write
 * machinery, a buffer list, a byte-by-byte unmask) and two `message` events. This reader takes a
 * read only when it holds nothing but complete, final, masked binary frames no larger than the
 * session's message limit and ws's receiver is between frames; everything else — a partial frame,
 * a control frame (ping, pong, close), a text, fragmented, compressed or oversize frame — goes to
 * ws unchanged, so ws keeps every protocol rule and error path, and the session still gets those
 * messages through ws's `message` event. Messages are delivered in arrival order either way: ws
 * parses synchronously (`allowSynchronousEvents`) and a read goes wholly to one of the two.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** The part of ws's (private) receiver state the reader checks, to hand over only between frames. */
interface WsReceiverState {
  _state: number;
  _bufferedBytes: number;
  _fragmented: number;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Unmasks `length` bytes of `data` at `at` in place with the 4-byte mask at `maskAt`. */
function unmask(data: Buffer, at: number, length: number, maskAt: number): void {
  // The mask as one little-endian word: payload byte k is XORed with byte k & 3 of it.
  const mask =
    data[maskAt]! | (data[maskAt + 1]! << 8) | (data[maskAt + 2]! << 16) | (data[maskAt + 3]! << 24);
  const end = at + length;
  // Byte by byte up to a 4-byte boundary of the memory, then a word at a time, then the tail.
  const lead = LITTLE_ENDIAN && length >= 16 ? (4 - ((data.byteOffset + at) & 3)) & 3 : length;
  let i = at;
  for (; i < at + lead; i++) data[i] = data[i]! ^ (mask >>> (((i - at) & 3) * 8));
  if (i >= end) return;
  const shift = lead * 8; // lead < 4 here
  const word = shift === 0 ? mask : (mask >>> shift) | (mask << (32 - shift));
  const words = (end - i) >> 2;
  const view = new Int32Array(data.buffer, data.byteOffset + i, words);
  for (let w = 0; w < words; w++) view[w] = view[w]! ^ word;
  i += words * 4;
  for (; i < end; i++) data[i] = data[i]! ^ (mask >>> (((i - at) & 3) * 8));
}

/** True when `chunk` is nothing but complete fast-path frames (else ws gets the whole read). */
function scan(chunk: Buffer, maxPayload: number): boolean {
  let p = 0;
  const n = chunk.length;
  while (p < n) {
    if (p + 2 > n) return false;
    const b0 = chunk[p]!;
    const b1 = chunk[p + 1]!;
    // FIN, no RSV bits, opcode binary (0x2); masked, as every client frame must be.
    if (b0 !== 0x82 || (b1 & 0x80) === 0) return false;
    let length = b1 & 0x7f;
    let header = 6;
    if (length === 126) {
      if (p + 4 > n) return false;
      length = (chunk[p + 2]! << 8) | chunk[p + 3]!;
      header = 8;
    } else if (length === 127) {
      return false; // never within a session's message limit
    }
    if (length > maxPayload) return false;
    p += header + length;
  }
  return p === n;
}

/**
 * Routes `ws`'s socket reads through the fast path; `onBinary` gets each fast-path payload (a view
 * into the read, unmasked). Returns false, leaving ws alone, when ws's socket listener or receiver
 * is not what this version of the reader expects.
 */
export function readBinaryFramesAhead(
  ws: WebSocket,
  socket: Socket,
  maxPayload: number,
  onBinary: (payload: Buffer) => void,
): boolean {
  const receiver = (ws as unknown as { _receiver?: Partial<WsReceiverState> })._receiver;
  const wsOnData = socket.listeners('data');
  if (
    wsOnData.length !== 1 ||
    !receiver ||
    typeof receiver._state !== 'number' ||
    typeof receiver._bufferedBytes !== 'number' ||
    typeof receiver._fragmented !== 'number'
  ) {
    return false;
  }
  const state = receiver as WsReceiverState;
  const toWs = wsOnData[0] as (chunk: Buffer) => void;
  socket.removeListener('data', toWs);
  socket.on('data', (chunk: Buffer) => {
    // ws's receiver is between frames when it holds no bytes, waits for a frame header (state 0)
    // and has no fragmented message open.
    const wsIdle = state._bufferedBytes === 0 && state._state === 0 && state._fragmented === 0;
    if (!wsIdle || !scan(chunk, maxPayload)) {
      toWs.call(socket, chunk);
      return;
    }
    let p = 0;
    while (p < chunk.length) {
      let length = chunk[p + 1]! & 0x7f;
      let maskAt = p + 2;
      if (length === 126) {
        length = (chunk[p + 2]! << 8) | chunk[p + 3]!;
        maskAt = p + 4;
      }
      const at = maskAt + 4;
      unmask(chunk, at, length, maskAt);
      onBinary(chunk.subarray(at, at + length));
      p = at + length;
    }
  });
  return true;
}
