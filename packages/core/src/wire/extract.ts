/** Getting at a frame's ServerResponseAnimation bytes without re-encoding them (for the relay). */
import { toBinary } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { AvatarError } from '../errors.js';
import {
  MessageType,
  type ServerResponseAnimation,
  ServerResponseAnimationSchema,
} from '../gen/driveningress/v2/driveningress_pb.js';
import { type DecodeMessageOptions, decodeMessage } from './codec.js';

/** Field number of `Message.server_response_animation`. */
const RESPONSE_ANIMATION_FIELD = 6;

/**
 * Returns the serialized `ServerResponseAnimation` inside a received driveningress.v2 frame,
 * as a view of `frame` (byte for byte what the service sent). The frame is fully validated
 * first.
 * @throws AvatarError `protocolError` when `frame` is not a valid ServerResponseAnimation message.
 */
export function extractResponseAnimation(frame: Uint8Array, options: DecodeMessageOptions = {}): Uint8Array {
  const message = decodeMessage(frame, options);
  if (message.data.case !== 'serverResponseAnimation') {
    throw new AvatarError(
      'protocolError',
      `Expected a SERVER_RESPONSE_ANIMATION frame, got ${MessageType[message.type]}; relay only animation frames as animation.`,
    );
  }
  return responseAnimationBytes(frame, message.data.value);
}

/**
 * The `ServerResponseAnimation` bytes inside a frame the caller has already decoded (to
 * `decoded`), as a view of `frame`: no second decode, no re-encoding. Protobuf merges a field
 * split over several occurrences; only then are the bytes re-serialized from `decoded`.
 */
export function responseAnimationBytes(frame: Uint8Array, decoded: ServerResponseAnimation): Uint8Array {
  const reader = new BinaryReader(frame);
  let slice: Uint8Array | undefined;
  let occurrences = 0;
  try {
    while (reader.pos < reader.len) {
      const [fieldNo, wireType] = reader.tag();
      if (fieldNo === RESPONSE_ANIMATION_FIELD && wireType === WireType.LengthDelimited) {
        const length = reader.uint32();
        slice = frame.subarray(reader.pos, reader.pos + length);
        reader.pos += length;
        occurrences += 1;
      } else {
        reader.skip(wireType, fieldNo);
      }
    }
  } catch (error) {
    // The generated decoder reads a message field whatever its wire type says, so a frame it
    // accepted can still be one this stricter walk cannot step through (e.g. field 6 tagged
    // fixed64 with one byte left). Such a frame is not a valid animation message.
    throw new AvatarError(
      'protocolError',
      `Malformed SERVER_RESPONSE_ANIMATION frame (${(error as Error).message}); the sender is not speaking driveningress.v2.`,
    );
  }
  if (occurrences === 1 && slice !== undefined) return slice;
  return toBinary(ServerResponseAnimationSchema, decoded);
}
