/**
 * The Ogg page checksum (RFC 3533 §6): CRC-32 with polynomial 0x04c11db7, initial value 0, no
 * reflection and no final XOR — not the zlib CRC-32, which is reflected.
 */

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Continues a checksum over `bytes` (start with 0). */
export function oggCrc(bytes: Uint8Array, crc = 0): number {
  let c = crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = ((c << 8) ^ TABLE[((c >>> 24) ^ bytes[i]!) & 0xff]!) >>> 0;
  return c;
}
