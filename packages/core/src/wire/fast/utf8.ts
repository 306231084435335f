/**
 * UTF-8 for the fast byte codecs. Core's TypeScript lib is ES2022 only (no DOM, no Node), so the
 * Encoding API every runtime core targets has (browsers, workers, Node) is typed here.
 */
interface Encoding {
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string };
}

const { TextEncoder, TextDecoder } = globalThis as unknown as Encoding;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of `text`. */
export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The text of UTF-8 `bytes`, or `undefined` when they are not valid UTF-8. */
export function utf8DecodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}
