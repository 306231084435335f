/** Getting at a frame's ServerResponseAnimation bytes without re-encoding them (for the relay). */
import { toBinary } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { AvatarError } from '../errors.js';
import { MessageType, ServerResponseAnimationSchema } from '../gen/driveningress/v2/driveningress_pb.js';
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
  const reader = new BinaryReader(frame);
  let slice: Uint8Array | undefined;
  let occurrences = 0;
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
  // A field split over several occurrences is merged by protobuf; only then re-serialize.
  if (occurrences === 1 && slice !== undefined) return slice;
  return toBinary(ServerResponseAnimationSchema, message.data.value);
}
