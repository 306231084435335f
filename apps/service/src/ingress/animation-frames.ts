/**
 * Animation messages as complete WebSocket frames: the header (server → client: FIN, binary,
 * unmasked) and core's {@link AnimationBytes} protobuf bytes in one Buffer, so that a session
 * hands one buffer to one socket write. ws's own `send` allocates a header and writes header and
 * payload as two buffers (a corked `writev`), 25 times per session-second.
 */
import type { AnimationBytes, DriveFrame } from '@avatar-drive/core';

/** The message `encoder` writes for these arguments, as one WebSocket frame. */
export function animationFrame(
  encoder: AnimationBytes,
  reqId: string,
  frames: readonly DriveFrame[],
  end: boolean,
): Buffer {
  const payload = encoder.measure(reqId, frames, end);
  const header = payload < 126 ? 2 : payload < 0x10000 ? 4 : 10;
  // allocUnsafe: small sizes come from Node's shared pool; every byte is written below.
  const out = Buffer.allocUnsafe(header + payload);
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
  encoder.writeTo(out, header);
  return out;
}
