/**
 * Server messages as complete WebSocket frames: the header (server → client: FIN, binary,
 * unmasked) and the protobuf bytes in one Buffer, so that a session hands one buffer to one
 * socket write. ws's own `send` allocates a header and writes header and payload as two buffers
 * (a corked `writev`), 25 times per session-second for the animation alone.
 */
import type { AnimationBytes, DriveFrame } from '@avatar-drive/core';

/** Bytes of the header of a server → client frame with `payload` bytes. */
function headerSize(payload: number): number {
  return payload < 126 ? 2 : payload < 0x10000 ? 4 : 10;
}

/**
 * A Buffer for one final binary frame of `payload` bytes, its header written; the payload goes at
 * {@link headerSize}. The same header bytes as ws's sender writes for an unmasked binary message.
 */
function frameBuffer(payload: number): Buffer {
  // allocUnsafe: small sizes come from Node's shared pool; every byte is written by the caller.
  const out = Buffer.allocUnsafe(headerSize(payload) + payload);
  out[0] = 0x82; // FIN, opcode binary
  if (payload < 126) {
    out[1] = payload;
  } else if (payload < 0x10000) {
    out[1] = 126;
    out.writeUInt16BE(payload, 2);
  } else {
    out[1] = 127;
    out.writeUInt32BE(Math.floor(payload / 2 ** 32), 2);
    out.writeUInt32BE(payload >>> 0, 6);
  }
  return out;
}

/** The message `encoder` writes for these arguments, as one WebSocket frame. */
export function animationFrame(
  encoder: AnimationBytes,
  reqId: string,
  frames: readonly DriveFrame[],
  end: boolean,
): Buffer {
  const payload = encoder.measure(reqId, frames, end);
  const out = frameBuffer(payload);
  encoder.writeTo(out, headerSize(payload));
  return out;
}

/** Encoded message bytes (any server message) as one WebSocket frame. */
export function binaryFrame(bytes: Uint8Array): Buffer {
  const out = frameBuffer(bytes.length);
  out.set(bytes, headerSize(bytes.length));
  return out;
}
