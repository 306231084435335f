/**
 * Protobuf varints for the fast byte codecs: plain numbers (no bigint), no allocation.
 * Values above 2^35 are out of scope: every reader here treats them as "not mine" and the
 * caller falls back to the generated decoder.
 */

/** Bytes of `value` (a non-negative safe integer) as a varint. */
export function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

/** Writes `value` as a varint at `pos`; returns the position after it. */
export function writeVarint(out: Uint8Array, pos: number, value: number): number {
  while (value >= 0x80) {
    out[pos++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  out[pos++] = value;
  return pos;
}

/**
 * A cursor for reading varints: `read` returns the value and leaves `pos` after it, so a reader
 * allocates no tuple per varint. One cursor per call site that needs one (module-level, reused).
 */
export class VarintCursor {
  pos = 0;

  /** The varint at `pos` ending at or before `end`, or -1 when it is truncated or above 2^35. */
  read(b: Uint8Array, end: number): number {
    let value = 0;
    let p = this.pos;
    for (let shift = 0; shift < 35; shift += 7) {
      if (p >= end) return -1;
      const byte = b[p++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        this.pos = p;
        return value;
      }
    }
    return -1;
  }
}
