/**
 * A bounded reader of zip archives (the container of LAM avatars): the central directory is read
 * and checked before a byte is inflated, every entry name is checked for traversal, and each
 * entry inflates in small steps that stop as soon as it passes the size its header declares, so a
 * zip bomb costs at most the declared total (itself bounded) — never what the stream would expand to.
 * Runs unchanged in Node and in browsers (fflate, no platform streams).
 */
import { Inflate } from 'fflate';
import type { AvatarFileProblem } from '../avatar-file-problems.js';
import { AvatarError } from '../errors.js';

/** Bounds of {@link readZip}. */
export interface ZipLimits {
  /** Most entries in the central directory (default 64; a LAM zip has 5 to 12). */
  maxEntries?: number;
  /** Largest total of the declared uncompressed sizes of the entries read (default 96 MiB). */
  maxUncompressedBytes?: number;
}

/** One file of the archive, inflated on demand. */
export interface ZipEntry {
  /** The entry's path inside the archive (`/`-separated, checked: no `..`, not absolute). */
  readonly name: string;
  /** Declared uncompressed size in bytes. */
  readonly size: number;
  /** Inflates (or copies) the entry, checking its size and CRC-32. */
  read(): Uint8Array;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Compressed bytes pushed into the inflater per step: what one step can expand to is bounded (deflate tops out near 1:1032, so ~33 MiB). */
const STEP = 32 * 1024;

/** The typed refusal of a LAM archive (`avatarInvalid`, or `avatarTooLarge` for a bomb). */
export function lamProblem(problem: AvatarFileProblem, message: string): AvatarError {
  const tooLarge = problem === 'tooLarge' || problem === 'zipBomb';
  return new AvatarError(tooLarge ? 'avatarTooLarge' : 'avatarInvalid', message, {
    httpStatus: tooLarge ? 413 : 422,
    details: { problem },
  });
}

/** True when `bytes` start like a zip archive (a local file header). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

/**
 * Lists the entries of the zip in `bytes` (directories left out). Throws an AvatarError with
 * problem `zipMalformed`, `zipBomb` or `unsafeName`.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits = {}): ZipEntry[] {
  const maxEntries = limits.maxEntries ?? 64;
  const maxTotal = limits.maxUncompressedBytes ?? 96 * 1024 * 1024;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) {
    throw lamProblem(
      'zipMalformed',
      'The zip is a ZIP64 archive; LAM avatars are small: zip them without ZIP64.',
    );
  }
  if (count > maxEntries) {
    throw lamProblem(
      'zipBomb',
      `The zip holds ${count} entries; a LAM avatar zip may hold at most ${maxEntries}. Zip only the avatar's folder.`,
    );
  }
  if (cdOffset + cdSize > eocd) {
    throw lamProblem(
      'zipMalformed',
      'The zip central directory points past the end of the file: the file is truncated or not a zip.',
    );
  }
  const entries: ZipEntry[] = [];
  let total = 0;
  let at = cdOffset;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL) {
      throw lamProblem(
        'zipMalformed',
        `Zip central directory entry ${i} is broken: the file is truncated or not a zip.`,
      );
    }
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > eocd) {
      throw lamProblem('zipMalformed', `Zip entry ${i}'s name runs past the central directory.`);
    }
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    checkName(name);
    if (name.endsWith('/')) continue;
    if (flags & 0x1) {
      throw lamProblem(
        'zipMalformed',
        `Zip entry "${name}" is encrypted. Zip the avatar without a password.`,
      );
    }
    if (method !== 0 && method !== 8) {
      throw lamProblem(
        'zipMalformed',
        `Zip entry "${name}" uses compression method ${method}; only stored (0) and deflate (8) are read. Re-zip it with a standard zip tool.`,
      );
    }
    total += size;
    if (total > maxTotal) {
      throw lamProblem(
        'zipBomb',
        `The zip's files add up to more than ${maxTotal} bytes uncompressed (the limit). A LAM avatar is about 8 MB.`,
      );
    }
    const data = localData(bytes, view, localOffset, compressedSize, name);
    entries.push({
      name,
      size,
      read: () => (method === 0 ? stored(data, size, crc, name) : inflateBounded(data, size, crc, name)),
    });
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - 22;
  const first = Math.max(0, last - 0xffff);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw lamProblem(
    'zipMalformed',
    'The file has no zip end-of-central-directory record: it is truncated or not a zip.',
  );
}

/** Refuses names that could write or read outside a folder if anyone ever extracted them. */
function checkName(name: string): void {
  const unsafe =
    name === '' ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.includes('\\') ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    /[\u0000-\u001f\u007f]/.test(name) ||
    name.split('/').some((part) => part === '..');
  if (unsafe) {
    throw lamProblem(
      'unsafeName',
      `The zip entry name ${JSON.stringify(name.slice(0, 120))} is absolute or climbs out of the archive. Zip the avatar's folder with relative names.`,
    );
  }
}

function localData(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  compressedSize: number,
  name: string,
): Uint8Array {
  if (offset + 30 > bytes.byteLength || view.getUint32(offset, true) !== LOCAL) {
    throw lamProblem(
      'zipMalformed',
      `Zip entry "${name}" points at no local header: the file is truncated or not a zip.`,
    );
  }
  const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
  if (start + compressedSize > bytes.byteLength) {
    throw lamProblem(
      'zipMalformed',
      `Zip entry "${name}" runs past the end of the file: the file is truncated.`,
    );
  }
  return bytes.subarray(start, start + compressedSize);
}

function stored(data: Uint8Array, size: number, crc: number, name: string): Uint8Array {
  if (data.byteLength !== size) {
    throw lamProblem(
      'zipMalformed',
      `Zip entry "${name}" is stored with ${data.byteLength} bytes but declares ${size}.`,
    );
  }
  checkCrc(data, crc, name);
  return data;
}

function inflateBounded(data: Uint8Array, size: number, crc: number, name: string): Uint8Array {
  const out = new Uint8Array(size);
  let written = 0;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    if (written + chunk.byteLength > size) {
      throw lamProblem(
        'zipBomb',
        `Zip entry "${name}" inflates past the ${size} bytes it declares (a zip bomb, or a corrupt archive). Re-zip the avatar.`,
      );
    }
    out.set(chunk, written);
    written += chunk.byteLength;
    if (final) ended = true;
  });
  try {
    for (let at = 0; at < data.byteLength; at += STEP) {
      const end = Math.min(data.byteLength, at + STEP);
      inflater.push(data.subarray(at, end), end === data.byteLength);
    }
    if (data.byteLength === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof AvatarError) throw error;
    throw lamProblem(
      'zipMalformed',
      `Zip entry "${name}" does not inflate (${(error as Error).message}): the archive is corrupt.`,
    );
  }
  if (!ended || written !== size) {
    throw lamProblem(
      'zipMalformed',
      `Zip entry "${name}" inflates to ${written} bytes but declares ${size}: the archive is corrupt.`,
    );
  }
  checkCrc(out, crc, name);
  return out;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, the zip checksum) of `data`. */
export function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.byteLength; i++) c = crcTable[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function checkCrc(data: Uint8Array, crc: number, name: string): void {
  if (crc32(data) !== crc) {
    throw lamProblem(
      'zipMalformed',
      `Zip entry "${name}" fails its CRC-32 check: the archive is corrupt. Re-zip the avatar.`,
    );
  }
}
