/**
 * The hot input path below the protobuf one: reads a client's binary data frames straight off the
 * socket, ahead of ws's receiver, and hands their (unmasked) payloads to the session.
 *
 * A session's input is 50 small binary frames per second, most arriving one per socket read. Through
 * ws each of them passes ws's receiver (a Writable stream: its write machinery, a buffer list, a
 * byte-by-byte unmask) and two `message` events. This reader takes, while ws's receiver is between
 * frames, the complete, final, masked binary frames no larger than the session's message limit,
 * keeping the start of one such frame split across reads until its rest arrives. From the first
 * frame of any other kind on — a control frame (ping, pong, close), a text, fragmented,
 * compressed, unmasked or oversize frame — the read goes to ws unchanged, and ws reads until it is
 * between frames again: ws keeps every protocol rule and error path, and the session gets those
 * messages through ws's `message` event. Messages are delivered in arrival order either way: ws
 * parses synchronously (`allowSynchronousEvents`) and each byte goes to one of the two.
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

/** {@link frameEnd}: the frame at the offset is not one for the fast path; ws reads it. */
const NOT_FAST = -1;
/** {@link frameEnd}: the read ends inside the frame; the rest comes in a later read. */
const INCOMPLETE = -2;

/**
 * Where the frame at `p` ends, if it is a complete, final, masked binary frame of at most
 * `maxPayload` bytes; else {@link NOT_FAST} or {@link INCOMPLETE}.
 */
function frameEnd(data: Buffer, p: number, maxPayload: number): number {
  const n = data.length;
  // FIN, no RSV bits, opcode binary (0x2).
  if (data[p] !== 0x82) return NOT_FAST;
  if (p + 2 > n) return INCOMPLETE;
  const b1 = data[p + 1]!;
  if ((b1 & 0x80) === 0) return NOT_FAST; // unmasked: ws reports the protocol error
  let length = b1 & 0x7f;
  let header = 6;
  if (length === 126) {
    if (p + 4 > n) return INCOMPLETE;
    length = (data[p + 2]! << 8) | data[p + 3]!;
    header = 8;
  } else if (length === 127) {
    return NOT_FAST; // 64-bit lengths are far past any session's message limit
  }
  if (length > maxPayload) return NOT_FAST; // ws and the session report oversize messages
  const end = p + header + length;
  return end > n ? INCOMPLETE : end;
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
  /** The start of a fast-path frame whose rest has not arrived yet (at most one frame). */
  let pending: Buffer | undefined;
  socket.removeListener('data', toWs);
  socket.on('data', (chunk: Buffer) => {
    // ws's receiver is between frames when it holds no bytes, waits for a frame header (state 0)
    // and has no fragmented message open; once the connection is closing, ws decides what to
    // do with what still arrives (it ignores data after a close frame).
    if (
      !pending &&
      (state._bufferedBytes !== 0 ||
        state._state !== 0 ||
        state._fragmented !== 0 ||
        ws.readyState !== ws.OPEN)
    ) {
      toWs.call(socket, chunk);
      return;
    }
    const data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = undefined;
    let p = 0;
    while (p < data.length) {
      const end = frameEnd(data, p, maxPayload);
      if (end === INCOMPLETE) {
        pending = data.subarray(p);
        return;
      }
      if (end === NOT_FAST) {
        // From here on ws reads, in order; it gets the reader back once it is between frames.
        toWs.call(socket, p === 0 ? data : data.subarray(p));
        return;
      }
      let length = data[p + 1]! & 0x7f;
      let maskAt = p + 2;
      if (length === 126) {
        length = (data[p + 2]! << 8) | data[p + 3]!;
        maskAt = p + 4;
      }
      const at = maskAt + 4;
      unmask(data, at, length, maskAt);
      onBinary(data.subarray(at, end));
      p = end;
    }
  });
  return true;
}
