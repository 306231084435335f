/**
 * driveningress.v2 framing: one binary WebSocket frame = one protobuf `Message`.
 *
 * `decodeMessage` is the single gate every received frame passes: anything that is not a
 * well-formed, consistently typed `Message` ends in an {@link AvatarError} here, so SDKs and the
 * service never act on a half-parsed frame.
 */
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { AvatarError } from '../errors.js';
import { type Message, MessageSchema, MessageType } from '../gen/driveningress/v2/driveningress_pb.js';

/** Default largest frame `decodeMessage` accepts: 1 MiB (about 10 s of 48 kHz audio). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The oneof case names of `Message.data`. */
export type MessageCase = NonNullable<Message['data']['case']>;

/** The `MessageType` each `Message.data` case must be sent with. */
export const MESSAGE_TYPE_BY_CASE: Readonly<Record<MessageCase, MessageType>> = Object.freeze({
  clientConfigureSession: MessageType.CLIENT_CONFIGURE_SESSION,
  serverConfirmSession: MessageType.SERVER_CONFIRM_SESSION,
  clientAudioInput: MessageType.CLIENT_AUDIO_INPUT,
  serverError: MessageType.SERVER_ERROR,
  serverResponseAnimation: MessageType.SERVER_RESPONSE_ANIMATION,
  drivenConfig: MessageType.CLIENT_DRIVEN_CONFIG,
  clientInterrupt: MessageType.CLIENT_INTERRUPT,
  clientPause: MessageType.CLIENT_PAUSE,
  clientResume: MessageType.CLIENT_RESUME,
  serverPlaybackState: MessageType.SERVER_PLAYBACK_STATE,
});

/** The `Message.data` case a `MessageType` carries; `undefined` for UNSPECIFIED and unknown values. */
export function caseForMessageType(type: number): MessageCase | undefined {
  return CASE_BY_TYPE.get(type);
}

const CASE_BY_TYPE: ReadonlyMap<number, MessageCase> = new Map(
  Object.entries(MESSAGE_TYPE_BY_CASE).map(([messageCase, type]) => [type, messageCase as MessageCase]),
);

/** Binary inputs `decodeMessage` understands (Node `Buffer` is a `Uint8Array`). */
export type BinaryInput = Uint8Array | ArrayBuffer | ArrayBufferView;

/** Options of {@link decodeMessage}. */
export interface DecodeMessageOptions {
  /** Largest accepted frame in bytes; default {@link MAX_MESSAGE_BYTES}. */
  maxBytes?: number;
  /**
   * Whether the WebSocket frame was binary (the `isBinary` argument of ws' `message` event).
   * `false` rejects the frame as a text frame even when the payload is a buffer.
   */
  isBinary?: boolean;
}

/**
 * Serializes a `Message` for one binary WebSocket frame. Rejects a message whose `type` does
 * not match its `data` case (build messages with the builders in `wire/messages` to avoid it).
 */
export function encodeMessage(message: Message): Uint8Array {
  checkType(message, 'invalidRequest', 'Build messages with the @avatar-drive/core message builders.');
  return toBinary(MessageSchema, message);
}

/**
 * Parses one received WebSocket frame into a `Message`. `bytes` fields (e.g. audio) are views
 * into `data`: copy them before reusing that buffer.
 *
 * @throws AvatarError `protocolError` for a text frame, an empty or oversize frame, malformed
 *   protobuf, an UNSPECIFIED/unknown `type`, or a `type` that does not match the payload;
 *   `invalidRequest` for an input that is not binary data at all or a bad `maxBytes`.
 */
export function decodeMessage(data: unknown, options: DecodeMessageOptions = {}): Message {
  const maxBytes = options.maxBytes ?? MAX_MESSAGE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new AvatarError('invalidRequest', `maxBytes must be a positive integer, got ${String(maxBytes)}.`);
  }
  if (typeof data === 'string' || options.isBinary === false) {
    throw new AvatarError(
      'protocolError',
      'Received a text WebSocket frame; driveningress.v2 carries only binary frames. Send each protobuf Message as a binary frame.',
    );
  }
  const bytes = toBytes(data);
  if (bytes.byteLength === 0) {
    throw new AvatarError(
      'protocolError',
      'Received an empty frame; every frame must carry one protobuf Message with its type set.',
    );
  }
  if (bytes.byteLength > maxBytes) {
    throw new AvatarError(
      'protocolError',
      `Frame of ${bytes.byteLength} bytes exceeds the ${maxBytes}-byte limit; split audio into smaller chunks.`,
      { details: { size: bytes.byteLength, maxBytes } },
    );
  }
  let message: Message;
  try {
    message = fromBinary(MessageSchema, bytes);
  } catch (cause) {
    throw new AvatarError(
      'protocolError',
      `Frame is not a valid driveningress.v2 Message (${describe(cause)}); check that the peer speaks driveningress.v2 protobuf.`,
      { cause },
    );
  }
  checkType(message, 'protocolError', 'The peer must set Message.type to match the payload it sends.');
  return message;
}

/**
 * Turns any binary input into a `Uint8Array` view without copying.
 * @throws AvatarError `invalidRequest` for anything else (Blob, arrays, numbers, …).
 */
export function toBytes(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const BlobType = (globalThis as { Blob?: abstract new (...args: never[]) => object }).Blob;
  if (BlobType !== undefined && data instanceof BlobType) {
    throw new AvatarError(
      'invalidRequest',
      "Received a Blob; set the WebSocket's binaryType to 'arraybuffer' so frames arrive as ArrayBuffer.",
    );
  }
  if (Array.isArray(data)) {
    throw new AvatarError(
      'invalidRequest',
      "Received an array of fragments; concatenate them first or use ws' default binaryType 'nodebuffer'.",
    );
  }
  throw new AvatarError(
    'invalidRequest',
    `Expected binary data (Uint8Array, ArrayBuffer or a typed array), got ${data === null ? 'null' : typeof data}.`,
  );
}

function checkType(message: Message, code: 'protocolError' | 'invalidRequest', hint: string): void {
  const messageCase = message.data.case;
  const expectedCase = caseForMessageType(message.type);
  if (expectedCase === undefined) {
    const name = message.type === MessageType.UNSPECIFIED ? 'UNSPECIFIED' : `unknown value ${message.type}`;
    throw new AvatarError(
      code,
      `Message.type is ${name}; a Message must name one of the driveningress.v2 types. ${hint}`,
      {
        details: { type: message.type },
      },
    );
  }
  if (messageCase !== expectedCase) {
    throw new AvatarError(
      code,
      `Message.type is ${MessageType[message.type]} but the payload is ${messageCase ?? 'empty'}. ${hint}`,
      { details: { type: message.type, case: messageCase ?? null } },
    );
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
