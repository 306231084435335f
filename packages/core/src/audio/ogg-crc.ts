/**
 * The Ogg page checksum (RFC 3533 §6): CRC-32 with polynomial 0x04c11db7, initial value 0, no
 * reflection and no final XOR — not the zlib CRC-32, which is reflected. Shared by the service's
 * Ogg reader and the server SDK's Ogg writer.
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

/**
 * Continues a checksum over `bytes` (start with 0). A page's CRC is computed over the whole page
 * with its 4 checksum bytes (22–25) set to zero.
 * @example
 * ```ts
 * const crc = oggCrc(new TextEncoder().encode('OggS')); // then oggCrc(rest, crc) continues it
 * ```
 */
export function oggCrc(bytes: Uint8Array, crc = 0): number {
  let c = crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = ((c << 8) ^ TABLE[((c >>> 24) ^ bytes[i]!) & 0xff]!) >>> 0;
  return c;
}
