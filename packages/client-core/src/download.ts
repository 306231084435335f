/** Streamed HTTP downloads with byte progress. */
import { AvatarError } from '@avatar-drive/core';

/**
 * Fetches `url` to an ArrayBuffer, calling `onBytes(n)` for every `n` bytes received.
 * @throws AvatarError `assetDownloadFailed` for a network failure or a non-2xx status.
 */
export async function download(
  url: string,
  onBytes: (n: number) => void,
  init: { cache?: 'no-store' } = {},
): Promise<ArrayBuffer> {
  let response: Response;
  try {
    // `cache` is a browser fetch option; other platforms' fetch ignores it.
    response = await fetch(url, init as Parameters<typeof fetch>[1]);
  } catch (cause) {
    throw new AvatarError(
      'assetDownloadFailed',
      `Could not download ${url}: network error. Check the connection and retry.`,
      {
        cause,
        retryable: true,
        phase: 'load',
      },
    );
  }
  if (!response.ok) {
    throw new AvatarError('assetDownloadFailed', `Downloading ${url} failed with HTTP ${response.status}.`, {
      httpStatus: response.status,
      retryable: response.status >= 500,
      phase: 'load',
    });
  }
  const reader = response.body?.getReader();
  if (!reader) {
    const bytes = await response.arrayBuffer();
    onBytes(bytes.byteLength);
    return bytes;
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      total += value.byteLength;
      onBytes(value.byteLength);
    }
  } catch (cause) {
    throw new AvatarError(
      'assetDownloadFailed',
      `The download of ${url} broke off after ${total} bytes; retry.`,
      {
        cause,
        retryable: true,
        phase: 'load',
      },
    );
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out.buffer;
}

/**
 * Lowercase hex SHA-256 of `bytes`, or `undefined` where WebCrypto is unavailable (insecure
 * origins, React Native): the bytes are then cached unverified.
 */
export async function sha256Hex(bytes: ArrayBuffer): Promise<string | undefined> {
  const subtle = (
    globalThis as {
      crypto?: { subtle?: { digest(algorithm: string, data: ArrayBuffer): Promise<ArrayBuffer> } };
    }
  ).crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}
