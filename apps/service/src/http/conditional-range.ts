/**
 * Conditional and partial GETs of immutable assets, the way static file servers answer them:
 * If-None-Match with weak comparison (RFC 9110 §13.1.2: `W/"x"` matches `"x"`), and a single
 * byte range (RFC 9110 §14) honoured with 206, or 416 when it lies outside the file. If-Range
 * (with the strong ETag) guards the range; several ranges at once are answered with the whole
 * file, which the RFC allows.
 */

/** True when `ifNoneMatch` names `etag` (weak comparison) or is `*`. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** A range to send: bytes `start` to `end` inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Range` header asks of a `size`-byte resource: a range, `'unsatisfiable'` (416), or
 * `undefined` to send the whole resource (no header, another unit, several ranges, a syntax
 * error, or an If-Range that does not match `etag`).
 */
export function requestedRange(
  range: string | undefined,
  ifRange: string | undefined,
  size: number,
  etag: string,
): ByteRange | 'unsatisfiable' | undefined {
  if (!range) return undefined;
  // If-Range needs a strong match; a date there cannot be compared with an ETag-only resource.
  if (ifRange !== undefined && ifRange.trim() !== etag) return undefined;
  const parsed = bytesRangeSpec(range);
  if (!parsed) return undefined;
  const { first, last } = parsed;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}

/**
 * `bytes = first - last` (optional whitespace around each part, either number may be empty) read
 * in one forward scan; `undefined` for anything else. The header is the client's, before any
 * authentication, so no backtracking pattern runs on it (`\s*(\d*)\s*` is quadratic on
 * `bytes=` + thousands of spaces + `x`).
 */
export function bytesRangeSpec(value: string): { first: string; last: string } | undefined {
  const n = value.length;
  let i = 0;
  const skipSpace = () => {
    while (i < n && isSpace(value.charCodeAt(i))) i++;
  };
  const digits = () => {
    const from = i;
    while (i < n && isDigit(value.charCodeAt(i))) i++;
    return value.slice(from, i);
  };
  skipSpace();
  if (value.slice(i, i + 5).toLowerCase() !== 'bytes') return undefined;
  i += 5;
  skipSpace();
  if (value.charCodeAt(i) !== 0x3d /* = */) return undefined;
  i++;
  skipSpace();
  const first = digits();
  skipSpace();
  if (value.charCodeAt(i) !== 0x2d /* - */) return undefined;
  i++;
  skipSpace();
  const last = digits();
  skipSpace();
  return i === n ? { first, last } : undefined;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** What `\s` matched in the pattern this replaces, for the characters a header can carry. */
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0;
