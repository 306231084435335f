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

function decodeReqId(bytes: Uint8Array, cache: ReqIdCache | undefined): string | undefined {
  if (cache && bytes.length === cache.bytes.length) {
    let same = true;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== cache.bytes[i]) {
        same = false;
        break;
      }
    }
    if (same) return cache.text;
  }
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

function readVarint(b: Uint8Array, p: number): [value: number, next: number] | undefined {
  let value = 0;
  let shift = 0;
  while (p < b.length && shift < 35) {
    const byte = b[p++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, p];
    shift += 7;
  }
  return undefined;
}

export function readAudioInput(frame: Uint8Array, cache?: ReqIdCache): FastAudioInput | undefined {
  // Message: type (1, varint) = 3 and client_audio_input (4, bytes), in either order, nothing else.
  let p = 0;
  let type = -1;
  let body: Uint8Array | undefined;
  while (p < frame.length) {
    const key = frame[p++]!;
    if (key === 0x08) {
      const v = readVarint(frame, p);
      if (!v) return undefined;
      [type, p] = v;
    } else if (key === 0x22) {
      const v = readVarint(frame, p);
      if (!v || v[1] + v[0] > frame.length) return undefined;
      body = frame.subarray(v[1], v[1] + v[0]);
      p = v[1] + v[0];
    } else {
      return undefined;
    }
  }
  if (type !== 3 || !body) return undefined;
  let reqId = '';
  let end = false;
  let audio: Uint8Array = new Uint8Array(0);
  p = 0;
  while (p < body.length) {
    const key = body[p++]!;
    if (key === 0x10) {
      const v = readVarint(body, p);
      if (!v) return undefined;
      end = v[0] !== 0;
      p = v[1];
    } else if (key === 0x0a || key === 0x1a) {
      const v = readVarint(body, p);
      if (!v || v[1] + v[0] > body.length) return undefined;
      const bytes = body.subarray(v[1], v[1] + v[0]);
      p = v[1] + v[0];
      if (key === 0x1a) audio = bytes;
      else {
        const text = decodeReqId(bytes, cache);
        if (text === undefined) return undefined;
        reqId = text;
      }
    } else {
      return undefined;
    }
  }
  return { reqId, end, audio };
}
