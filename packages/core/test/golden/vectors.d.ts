/**
 * The values behind the golden byte vectors in test/fixtures. Every float is exactly
 * representable in float32 so other languages can compare decoded values exactly.
 */
import { type DriveFrame, type Message, type RelayMessage } from '../../src/index.js';
/** Two keyframes of rig arkit-52. */
export declare const GOLDEN_FRAMES: readonly DriveFrame[];
/** Eight bytes of s16le PCM: samples 0, 1, -1, 32767. */
export declare const GOLDEN_PCM: Uint8Array<ArrayBuffer>;
export declare const GOLDEN_RESPONSE_ANIMATION: Message;
/** driveningress.v2 Message vectors: test/fixtures/<name>.hex. */
export declare const WIRE_VECTORS: ReadonlyArray<{
    name: string;
    message: Message;
}>;
/** The ServerResponseAnimation bytes inside the response-animation vector. */
export declare const GOLDEN_RESPONSE_ANIMATION_PAYLOAD: Uint8Array<ArrayBufferLike>;
/** Host-mode relay vectors: test/fixtures/<name>.hex. */
export declare const RELAY_VECTORS: ReadonlyArray<{
    name: string;
    message: RelayMessage;
}>;
