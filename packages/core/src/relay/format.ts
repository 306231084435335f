/**
 * Host-mode relay format, version 1: the bytes server-sdk hands the developer's transport and
 * client-web's `yieldAudioData` / `yieldFramesData` take back. Stateless encode/decode; sequence
 * numbers are assigned by `RelayEncoder` and checked by `RelaySequencer`.
 *
 * Layout (multi-byte integers big-endian):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 1 | magic 0xAD |
 * | 1 | 1 | version 0x01 |
 * | 2 | 1 | kind: 0x01 audio, 0x02 animation |
 * | 3 | 1 | flags: bit 0 = last message of this stream; bits 1–7 reserved, 0 |
 * | 4 | 4 | sequence number, uint32, per conversation and kind, from 0 |
 * | 8 | 1 | L = conversation id length in UTF-8 bytes, 1..255 |
 * | 9 | L | conversation id, UTF-8 |
 * | 9+L | 4 | audio only: sample rate in Hz, uint32 (one of the 7 supported rates) |
 * | 13+L (audio) / 9+L (animation) | rest | audio: mono s16le PCM, even length; animation: the ServerResponseAnimation protobuf bytes, unchanged |
 */
import { fromBinary } from '@bufbuild/protobuf';
import { getTextEncoding } from '@bufbuild/protobuf/wire';
import { isSupportedSampleRate, SUPPORTED_SAMPLE_RATES } from '../audio-format.js';
import { AvatarError } from '../errors.js';
import {
  type ServerResponseAnimation,
  ServerResponseAnimationSchema,
} from '../gen/driveningress/v2/driveningress_pb.js';
import { MAX_MESSAGE_BYTES, toBytes } from '../wire/codec.js';

/** First byte of every relay message. */
export const RELAY_MAGIC = 0xad;
/** The relay format version this code writes and reads. */
export const RELAY_VERSION = 1;
/** Kind byte values. */
export const RELAY_KIND = { audio: 0x01, animation: 0x02 } as const;
/** Longest conversation id, in UTF-8 bytes. */
export const MAX_CONVERSATION_ID_BYTES = 255;
/** Largest header: fixed 9 bytes, a 255-byte id, the 4-byte sample rate. */
export const RELAY_MAX_HEADER_BYTES = 9 + MAX_CONVERSATION_ID_BYTES + 4;
/** Default largest relay message the decoder accepts: a maximal frame plus the largest header. */
export const MAX_RELAY_MESSAGE_BYTES = MAX_MESSAGE_BYTES + RELAY_MAX_HEADER_BYTES;

const FIXED_HEADER_BYTES = 9;
const FLAG_LAST = 0x01;
const UINT32_MAX = 0xffffffff;

/** Which stream of a conversation a relay message belongs to. */
export type RelayKind = keyof typeof RELAY_KIND;

/** An audio relay message: the PCM server-sdk sent to the service for a conversation. */
export interface RelayAudioMessage {
  kind: 'audio';
  conversationId: string;
  sequence: number;
  /** True on the conversation's last audio message. */
  last: boolean;
  sampleRate: number;
  /** Mono s16le PCM, even length (may be empty on the last message). */
  pcm: Uint8Array;
}

/** An animation relay message: one ServerResponseAnimation, byte for byte as the service sent it. */
export interface RelayAnimationMessage {
  kind: 'animation';
  conversationId: string;
  sequence: number;
  /** True on the conversation's last animation message. */
  last: boolean;
  /** Serialized `ServerResponseAnimation`. */
  payload: Uint8Array;
}

/** Either kind of relay message, before encoding or after decoding. */
export type RelayMessage = RelayAudioMessage | RelayAnimationMessage;

/** A decoded animation relay message, with its payload parsed. */
export interface DecodedRelayAnimationMessage extends RelayAnimationMessage {
  animation: ServerResponseAnimation;
}

/** What {@link decodeRelayMessage} returns. */
export type DecodedRelayMessage = RelayAudioMessage | DecodedRelayAnimationMessage;

/** Options of {@link decodeRelayMessage}. */
export interface DecodeRelayOptions {
  /** Largest accepted message in bytes; default {@link MAX_RELAY_MESSAGE_BYTES}. */
  maxBytes?: number;
}

/**
 * Encodes one relay message with the sequence number it carries. Prefer `RelayEncoder`, which
 * assigns sequence numbers.
 * @throws AvatarError `invalidRequest` / `unsupportedSampleRate` / `invalidAudio` for bad fields.
 */
export function encodeRelayMessage(message: RelayMessage): Uint8Array {
  const id = encodeConversationId(message.conversationId);
  if (!Number.isInteger(message.sequence) || message.sequence < 0 || message.sequence > UINT32_MAX) {
    throw new AvatarError(
      'invalidRequest',
      `Relay sequence number must be an integer 0..${UINT32_MAX}, got ${message.sequence}.`,
    );
  }
  let body: Uint8Array;
  let extra = 0;
  if (message.kind === 'audio') {
    if (!isSupportedSampleRate(message.sampleRate)) {
      throw new AvatarError(
        'unsupportedSampleRate',
        `Relay audio sample rate ${String(message.sampleRate)} Hz is not supported; use one of ${SUPPORTED_SAMPLE_RATES.join(', ')} Hz.`,
      );
    }
    body = toBytes(message.pcm);
    if (body.byteLength % 2 !== 0) {
      throw new AvatarError(
        'invalidAudio',
        `Relay audio has ${body.byteLength} bytes; s16le PCM needs an even byte count (whole samples).`,
      );
    }
    extra = 4;
  } else if (message.kind === 'animation') {
    body = toBytes(message.payload);
  } else {
    throw new AvatarError('invalidRequest', "Relay message kind must be 'audio' or 'animation'.");
  }
  const headerBytes = FIXED_HEADER_BYTES + id.byteLength + extra;
  const out = new Uint8Array(headerBytes + body.byteLength);
  const view = new DataView(out.buffer);
  out[0] = RELAY_MAGIC;
  out[1] = RELAY_VERSION;
  out[2] = RELAY_KIND[message.kind];
  out[3] = message.last ? FLAG_LAST : 0;
  view.setUint32(4, message.sequence);
  out[8] = id.byteLength;
  out.set(id, FIXED_HEADER_BYTES);
  if (message.kind === 'audio') view.setUint32(FIXED_HEADER_BYTES + id.byteLength, message.sampleRate);
  out.set(body, headerBytes);
  return out;
}

/**
 * Decodes one relay message (no sequence checks: see `RelaySequencer`). The returned `pcm` /
 * `payload` are views into `data`.
 * @throws AvatarError `protocolError` for anything that is not a well-formed version-1 message.
 */
export function decodeRelayMessage(data: unknown, options: DecodeRelayOptions = {}): DecodedRelayMessage {
  const maxBytes = options.maxBytes ?? MAX_RELAY_MESSAGE_BYTES;
  const bytes = relayBytes(data);
  if (bytes.byteLength > maxBytes) {
    throw malformed(`it has ${bytes.byteLength} bytes, over the ${maxBytes}-byte limit`);
  }
  const header = readHeader(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (header.kind === 'audio') {
    if (bytes.byteLength < header.bodyOffset + 4) throw malformed('the audio sample rate is cut off');
    const sampleRate = view.getUint32(header.bodyOffset);
    if (!isSupportedSampleRate(sampleRate)) {
      throw malformed(`its sample rate ${sampleRate} Hz is not one of ${SUPPORTED_SAMPLE_RATES.join(', ')}`);
    }
    const pcm = bytes.subarray(header.bodyOffset + 4);
    if (pcm.byteLength % 2 !== 0) throw malformed(`its PCM has an odd byte count (${pcm.byteLength})`);
    return {
      kind: 'audio',
      conversationId: header.conversationId,
      sequence: header.sequence,
      last: header.last,
      sampleRate,
      pcm,
    };
  }
  const payload = bytes.subarray(header.bodyOffset);
  let animation: ServerResponseAnimation;
  try {
    animation = fromBinary(ServerResponseAnimationSchema, payload);
  } catch (cause) {
    throw malformed(
      `its payload is not a ServerResponseAnimation (${cause instanceof Error ? cause.message : String(cause)})`,
      cause,
    );
  }
  return {
    kind: 'animation',
    conversationId: header.conversationId,
    sequence: header.sequence,
    last: header.last,
    payload,
    animation,
  };
}

/**
 * Reads only the conversation id of a relay message (cheap: no payload parsing).
 * @throws AvatarError `protocolError` for a malformed header.
 */
export function peekConversationId(data: unknown): string {
  return readHeader(relayBytes(data)).conversationId;
}

/** Reads only the kind of a relay message. */
export function peekRelayKind(data: unknown): RelayKind {
  return readHeader(relayBytes(data)).kind;
}

interface RelayHeader {
  kind: RelayKind;
  last: boolean;
  sequence: number;
  conversationId: string;
  bodyOffset: number;
}

function readHeader(bytes: Uint8Array): RelayHeader {
  if (bytes.byteLength < FIXED_HEADER_BYTES) {
    throw malformed(`it has ${bytes.byteLength} bytes, shorter than the ${FIXED_HEADER_BYTES}-byte header`);
  }
  if (bytes[0] !== RELAY_MAGIC) {
    throw malformed(`its first byte is 0x${hex(bytes[0]!)}, not the relay magic 0xad`);
  }
  if (bytes[1] !== RELAY_VERSION) {
    throw malformed(
      `it is relay version ${bytes[1]}; this SDK reads version ${RELAY_VERSION} (update both ends)`,
    );
  }
  const kindByte = bytes[2];
  const kind: RelayKind | undefined =
    kindByte === RELAY_KIND.audio ? 'audio' : kindByte === RELAY_KIND.animation ? 'animation' : undefined;
  if (kind === undefined) throw malformed(`its kind byte 0x${hex(kindByte!)} is neither audio nor animation`);
  const flags = bytes[3]!;
  if ((flags & ~FLAG_LAST) !== 0) throw malformed(`it sets reserved flag bits (0x${hex(flags)})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sequence = view.getUint32(4);
  const idLength = bytes[8]!;
  if (idLength === 0) throw malformed('its conversation id is empty');
  const bodyOffset = FIXED_HEADER_BYTES + idLength;
  if (bytes.byteLength < bodyOffset) throw malformed('its conversation id is cut off');
  let conversationId: string;
  try {
    conversationId = getTextEncoding().decodeUtf8(bytes.subarray(FIXED_HEADER_BYTES, bodyOffset), true);
  } catch (cause) {
    throw malformed('its conversation id is not valid UTF-8', cause);
  }
  return { kind, last: (flags & FLAG_LAST) !== 0, sequence, conversationId, bodyOffset };
}

function encodeConversationId(conversationId: unknown): Uint8Array {
  if (typeof conversationId !== 'string' || conversationId.length === 0) {
    throw new AvatarError('invalidRequest', 'A relay message needs a non-empty conversation id string.');
  }
  // protobuf-es' Text Encoding wrapper: the same runtime requirement as the wire codec itself.
  const id = getTextEncoding().encodeUtf8(conversationId);
  if (id.byteLength > MAX_CONVERSATION_ID_BYTES) {
    throw new AvatarError(
      'invalidRequest',
      `Conversation id is ${id.byteLength} UTF-8 bytes; the relay format allows at most ${MAX_CONVERSATION_ID_BYTES}.`,
    );
  }
  // A lone surrogate would encode to U+FFFD and decode to a different id.
  if (!getTextEncoding().checkUtf8(conversationId)) {
    throw new AvatarError(
      'invalidRequest',
      'Conversation id contains unpaired UTF-16 surrogates; use valid text.',
    );
  }
  return id;
}

function relayBytes(data: unknown): Uint8Array {
  if (typeof data === 'string') {
    throw new AvatarError(
      'protocolError',
      'Received a relay message as text; relay messages are binary. Carry them as bytes (or base64-decode them first).',
    );
  }
  return toBytes(data);
}

function malformed(why: string, cause?: unknown): AvatarError {
  return new AvatarError(
    'protocolError',
    `Not a valid relay message: ${why}. Pass the bytes server-sdk produced, unchanged.`,
    cause === undefined ? {} : { cause },
  );
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}
