/**
 * The hot input path: reads `Message{type: CLIENT_AUDIO_INPUT, client_audio_input}` frames without
 * the reflection-based decoder (most frames of a session are audio chunks). Anything else, or any
 * frame it does not recognise field for field, returns undefined and goes through core's
 * `decodeMessage`, which owns validation and error reporting.
 */

/** A ClientAudioInput read from the wire; `audio` is a view into the frame. */
export interface FastAudioInput {
  reqId: string;
  end: boolean;
  audio: Uint8Array;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The last req_id a session decoded, as bytes and string: consecutive chunks of an utterance repeat
 * it, and a byte compare is several times cheaper than a validating UTF-8 decode per chunk.
 */
export interface ReqIdCache {
  bytes: Uint8Array;
  text: string;
}

export function createReqIdCache(): ReqIdCache {
  return { bytes: new Uint8Array(0), text: '' };
}

function decodeReqId(
  frame: Uint8Array,
  from: number,
  to: number,
  cache: ReqIdCache | undefined,
): string | undefined {
  const n = to - from;
  if (cache && n === cache.bytes.length) {
    const cached = cache.bytes;
    let same = true;
    for (let i = 0; i < n; i++) {
      if (frame[from + i] !== cached[i]) {
        same = false;
        break;
      }
    }
    if (same) return cache.text;
  }
  const bytes = frame.subarray(from, to);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  if (cache) {
    cache.bytes = bytes.slice();
    cache.text = text;
  }
  return text;
}

/** Where the last {@link readVarint} stopped (a module variable: no tuple per varint). */
let varintEnd = 0;

/** A varint at `p`, or -1 when it is truncated or too long; sets {@link varintEnd}. */
function readVarint(b: Uint8Array, p: number): number {
  let value = 0;
  let shift = 0;
  while (p < b.length && shift < 35) {
    const byte = b[p++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      varintEnd = p;
      return value;
    }
    shift += 7;
  }
  return -1;
}

export function readAudioInput(frame: Uint8Array, cache?: ReqIdCache): FastAudioInput | undefined {
  // Message: type (1, varint) = 3 and client_audio_input (4, bytes), in either order, nothing else.
  let p = 0;
  let type = -1;
  let bodyStart = -1;
  let bodyEnd = -1;
  while (p < frame.length) {
    const key = frame[p++]!;
    if (key === 0x08) {
      type = readVarint(frame, p);
      if (type < 0) return undefined;
      p = varintEnd;
    } else if (key === 0x22) {
      const n = readVarint(frame, p);
      if (n < 0 || varintEnd + n > frame.length) return undefined;
      bodyStart = varintEnd;
      bodyEnd = p = varintEnd + n;
    } else {
      return undefined;
    }
  }
  if (type !== 3 || bodyStart < 0) return undefined;
  let reqId = '';
  let end = false;
  let audio: Uint8Array | undefined;
  p = bodyStart;
  while (p < bodyEnd) {
    const key = frame[p++]!;
    if (key === 0x10) {
      const v = readVarint(frame, p);
      if (v < 0 || varintEnd > bodyEnd) return undefined;
      end = v !== 0;
      p = varintEnd;
    } else if (key === 0x0a || key === 0x1a) {
      const n = readVarint(frame, p);
      if (n < 0 || varintEnd + n > bodyEnd) return undefined;
      const from = varintEnd;
      p = from + n;
      if (key === 0x1a) audio = frame.subarray(from, p);
      else {
        const text = decodeReqId(frame, from, p, cache);
        if (text === undefined) return undefined;
        reqId = text;
      }
    } else {
      return undefined;
    }
  }
  return { reqId, end, audio: audio ?? new Uint8Array(0) };
}
