/**
 * The hot input path: `Message{type: CLIENT_AUDIO_INPUT, client_audio_input}` bytes read and
 * written without the reflection-based codec (most frames of a session are audio chunks).
 *
 * {@link readAudioInput} answers only for frames it understands field for field: exactly the
 * fields `type` (1) and one `client_audio_input` (4) of Message, and `req_id` (1), `end` (2),
 * `audio` (3) inside, each with its canonical key byte. Anything else — an unknown or repeated
 * `client_audio_input` (protobuf merges repeats), a field of another message, a non-canonical key,
 * invalid UTF-8, a varint above 2^35 — returns `undefined`, and the caller passes the frame to
 * `decodeMessage`, which owns validation and error reporting. So whatever it returns is what
 * `decodeMessage` returns for the same bytes (the differential fuzz test in core checks it).
 */
import { utf8DecodeStrict, utf8Encode } from './utf8.js';
import { VarintCursor, varintSize, writeVarint } from './varint.js';

/** A ClientAudioInput read from the wire; `audio` is a view into the frame. */
export interface FastAudioInput {
  reqId: string;
  end: boolean;
  audio: Uint8Array;
}

/**
 * The last req_id a session decoded, as bytes and string: consecutive chunks of an utterance repeat
 * it, and a byte compare is several times cheaper than a validating UTF-8 decode per chunk.
 */
export interface ReqIdCache {
  bytes: Uint8Array;
  text: string;
}

/** An empty {@link ReqIdCache}, one per session. */
export function createReqIdCache(): ReqIdCache {
  return { bytes: new Uint8Array(0), text: '' };
}

const cursor = new VarintCursor();

const KEY_TYPE = 0x08; // Message.type, varint
const KEY_AUDIO_INPUT = 0x22; // Message.client_audio_input, length-delimited
const KEY_REQ_ID = 0x0a; // ClientAudioInput.req_id
const KEY_END = 0x10; // ClientAudioInput.end
const KEY_AUDIO = 0x1a; // ClientAudioInput.audio
const CLIENT_AUDIO_INPUT = 3; // MessageType.CLIENT_AUDIO_INPUT

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
  const text = utf8DecodeStrict(bytes);
  if (text === undefined) return undefined;
  if (cache) {
    cache.bytes = bytes.slice();
    cache.text = text;
  }
  return text;
}

/**
 * Reads an audio-input Message, or `undefined` when the frame is anything else or anything
 * unusual (then decode it with `decodeMessage`). Size limits and the binary-frame check are the
 * caller's, as for `decodeMessage`.
 */
export function readAudioInput(frame: Uint8Array, cache?: ReqIdCache): FastAudioInput | undefined {
  const length = frame.length;
  let p = 0;
  let type = -1;
  let bodyStart = -1;
  let bodyEnd = -1;
  while (p < length) {
    const key = frame[p++]!;
    cursor.pos = p;
    if (key === KEY_TYPE) {
      type = cursor.read(frame, length);
      if (type < 0) return undefined;
      p = cursor.pos;
    } else if (key === KEY_AUDIO_INPUT) {
      // A second client_audio_input would be merged into the first by protobuf: not ours.
      if (bodyStart >= 0) return undefined;
      const n = cursor.read(frame, length);
      if (n < 0 || cursor.pos + n > length) return undefined;
      bodyStart = cursor.pos;
      bodyEnd = p = bodyStart + n;
    } else {
      return undefined;
    }
  }
  if (type !== CLIENT_AUDIO_INPUT || bodyStart < 0) return undefined;
  let reqId = '';
  let end = false;
  let audio: Uint8Array | undefined;
  p = bodyStart;
  while (p < bodyEnd) {
    const key = frame[p++]!;
    cursor.pos = p;
    if (key === KEY_END) {
      const v = cursor.read(frame, bodyEnd);
      if (v < 0) return undefined;
      end = v !== 0;
      p = cursor.pos;
    } else if (key === KEY_REQ_ID || key === KEY_AUDIO) {
      const n = cursor.read(frame, bodyEnd);
      if (n < 0 || cursor.pos + n > bodyEnd) return undefined;
      const from = cursor.pos;
      p = from + n;
      if (key === KEY_AUDIO) audio = frame.subarray(from, p);
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

/**
 * The bytes of `Message{type: CLIENT_AUDIO_INPUT, client_audio_input{req_id, end, audio}}`,
 * byte-equal to `encodeMessage(audioInputMessage({reqId, audio, end}))` (fields in number order,
 * defaults omitted), for senders that encode many chunks (load generators, relays).
 */
export function encodeAudioInput(reqId: string, audio: Uint8Array, end: boolean): Uint8Array {
  const req = reqId.length ? utf8Encode(reqId) : new Uint8Array(0);
  let inner = 0;
  if (req.length) inner += 1 + varintSize(req.length) + req.length;
  if (end) inner += 2;
  if (audio.length) inner += 1 + varintSize(audio.length) + audio.length;
  const out = new Uint8Array(2 + 1 + varintSize(inner) + inner);
  let p = 0;
  out[p++] = KEY_TYPE;
  out[p++] = CLIENT_AUDIO_INPUT;
  out[p++] = KEY_AUDIO_INPUT;
  p = writeVarint(out, p, inner);
  if (req.length) {
    out[p++] = KEY_REQ_ID;
    p = writeVarint(out, p, req.length);
    out.set(req, p);
    p += req.length;
  }
  if (end) {
    out[p++] = KEY_END;
    out[p++] = 1;
  }
  if (audio.length) {
    out[p++] = KEY_AUDIO;
    p = writeVarint(out, p, audio.length);
    out.set(audio, p);
  }
  return out;
}
