/** The exact contents of every golden fixture file, computed from the vectors. */
import { toJsonString } from '@bufbuild/protobuf';
import { encodeMessage, encodeRelayMessage, MessageSchema, type RelayMessage } from '../../src/index.js';
import { RELAY_VECTORS, WIRE_VECTORS } from './vectors.js';

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Bytes of a hex string; whitespace is ignored. */
export function fromHex(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) throw new Error('not an even-length hex string');
  return Uint8Array.from(clean.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** The relay message as JSON (bytes as hex), for other languages to compare decoded fields. */
export function relayToJson(message: RelayMessage): string {
  const fields =
    message.kind === 'audio'
      ? { ...message, pcm: toHex(message.pcm) }
      : { ...message, payload: toHex(message.payload) };
  return `${JSON.stringify(fields, null, 2)}\n`;
}

/** File name → content for every fixture. */
export function goldenFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { name, message } of WIRE_VECTORS) {
    files.set(`${name}.hex`, `${toHex(encodeMessage(message))}\n`);
    files.set(`${name}.json`, `${toJsonString(MessageSchema, message, { prettySpaces: 2 })}\n`);
  }
  for (const { name, message } of RELAY_VECTORS) {
    files.set(`${name}.hex`, `${toHex(encodeRelayMessage(message))}\n`);
    files.set(`${name}.json`, relayToJson(message));
  }
  return files;
}
