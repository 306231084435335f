/**
 * The client side of the RFC 6455 opening handshake (§4.1), for the bench's raw client: the
 * HTTP/1.1 upgrade request, and the check of the server's response.
 */
import { createHash, randomBytes } from 'node:crypto';

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** A fresh Sec-WebSocket-Key: 16 random bytes, base64. */
export function handshakeKey(): string {
  return randomBytes(16).toString('base64');
}

/** The Sec-WebSocket-Accept a server must answer `key` with. */
export function acceptFor(key: string): string {
  return createHash('sha1')
    .update(key + ACCEPT_GUID)
    .digest('base64');
}

/** The upgrade request: no extensions, no subprotocol; `headers` added as given (e.g. auth). */
export function upgradeRequest(
  host: string,
  path: string,
  key: string,
  headers: Record<string, string> = {},
): string {
  let request =
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n`;
  for (const [name, value] of Object.entries(headers)) request += `${name}: ${value}\r\n`;
  return `${request}\r\n`;
}

/** The status and headers of the server's response, once its header block is complete. */
export interface UpgradeResponse {
  status: number;
  /** Header names in lower case. */
  headers: Map<string, string>;
  /** Bytes of the header block, including the blank line: what follows is frames (or a body). */
  headerBytes: number;
}

/** Parses the response header block in `bytes`, or returns undefined while it is incomplete. */
export function parseUpgradeResponse(bytes: Buffer): UpgradeResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = bytes.toString('latin1', 0, end).split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`not an HTTP/1.1 response: ${JSON.stringify(statusLine)}`);
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(status[1]), headers, headerBytes: end + 4 };
}

/**
 * Why a 101 response does not complete the handshake for `key` (§4.1, the client's checks), or
 * undefined when it does. The bench offers no extension or subprotocol, so any is refused.
 */
export function handshakeProblem(response: UpgradeResponse, key: string): string | undefined {
  const h = response.headers;
  if (response.status !== 101) return `HTTP ${response.status}`;
  if (h.get('upgrade')?.toLowerCase() !== 'websocket') return 'no "Upgrade: websocket"';
  if (
    !h
      .get('connection')
      ?.toLowerCase()
      .split(/\s*,\s*/)
      .includes('upgrade')
  )
    return 'no "Connection: Upgrade"';
  if (h.get('sec-websocket-accept') !== acceptFor(key)) return 'a wrong Sec-WebSocket-Accept';
  if (h.has('sec-websocket-extensions')) return 'an extension the client did not offer';
  if (h.has('sec-websocket-protocol')) return 'a subprotocol the client did not offer';
  return undefined;
}
