/**
 * The `ServerResponseAnimation` bytes inside a frame the session already decoded, sliced out
 * without re-encoding (the relay carries the service's bytes unchanged). Like core's
 * `extractResponseAnimation`, minus its second full decode of the frame.
 */
import { type ServerResponseAnimation, ServerResponseAnimationSchema } from '@avatar-drive/core';
import { toBinary } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

/** `Message.server_response_animation`. */
const RESPONSE_ANIMATION_FIELD = 6;

export function responseAnimationBytes(frame: Uint8Array, decoded: ServerResponseAnimation): Uint8Array {
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
  // Protobuf merges a field split over several occurrences; only then is re-encoding needed.
  if (occurrences === 1 && slice !== undefined) return slice;
  return toBinary(ServerResponseAnimationSchema, decoded);
}
