import { type RelayMessage } from '../../src/index.js';
/** Lowercase hex of `bytes`. */
export declare function toHex(bytes: Uint8Array): string;
/** Bytes of a hex string; whitespace is ignored. */
export declare function fromHex(hex: string): Uint8Array;
/** The relay message as JSON (bytes as hex), for other languages to compare decoded fields. */
export declare function relayToJson(message: RelayMessage): string;
/** File name → content for every fixture. */
export declare function goldenFiles(): Map<string, string>;
