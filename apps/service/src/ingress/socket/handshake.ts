/**
 * The WebSocket handshake checks ws makes before it upgrades (RFC 6455 §4.2.1), made first, so a
 * request ws would refuse never takes a session slot or spends a session token.
 */
import type { IncomingMessage } from 'node:http';

/** A refused handshake: the HTTP status and what the client should do. */
export interface HandshakeProblem {
  status: number;
  detail: string;
  /** Extra response headers (the versions this server speaks, on a version mismatch). */
  headers?: Record<string, string>;
}

/** 16 random bytes in base64 (RFC 6455 §4.1): 22 characters, then `==`. */
const KEY_SHAPE = /^[+/0-9A-Za-z]{22}==$/;
/** A subprotocol list: comma-separated RFC 7230 tokens. */
const PROTOCOL_LIST = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:[ \t]*,[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;

/** What is wrong with `req` as a WebSocket opening handshake, or `undefined` when nothing is. */
export function handshakeProblem(req: IncomingMessage): HandshakeProblem | undefined {
  if (req.method !== 'GET') {
    return {
      status: 405,
      detail: `A WebSocket opens with GET, not ${req.method}. Connect with a WebSocket client.`,
    };
  }
  const upgrade = req.headers.upgrade;
  if (typeof upgrade !== 'string' || upgrade.toLowerCase() !== 'websocket') {
    return {
      status: 400,
      detail: 'The Upgrade header must be "websocket". Connect with a WebSocket client.',
    };
  }
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !KEY_SHAPE.test(key)) {
    return {
      status: 400,
      detail:
        'Sec-WebSocket-Key is missing or malformed (16 random bytes in base64). Connect with a WebSocket client.',
    };
  }
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    return {
      status: 400,
      detail: 'Sec-WebSocket-Version must be 13. Connect with a WebSocket client.',
      headers: { 'Sec-WebSocket-Version': '13, 8' },
    };
  }
  const protocols = req.headers['sec-websocket-protocol'];
  if (protocols !== undefined) {
    if (!PROTOCOL_LIST.test(protocols.trim())) {
      return { status: 400, detail: 'Sec-WebSocket-Protocol is not a comma-separated list of tokens.' };
    }
    // ws refuses a repeated subprotocol after the upgrade began (the token already spent): refuse
    // it here, before anything is taken. Repeated headers arrive joined with ", ".
    const seen = new Set<string>();
    for (const name of protocols.split(',')) {
      const token = name.trim();
      if (seen.has(token)) {
        return {
          status: 400,
          detail: `Sec-WebSocket-Protocol names "${token.slice(0, 32)}" twice; name each subprotocol once.`,
        };
      }
      seen.add(token);
    }
  }
  return undefined;
}

/**
 * `pathname` without its trailing slashes, in one backward scan: the request target is the
 * client's, so no pattern that can backtrack (`/\/+$/` is quadratic on `/v2` + thousands of `/`
 * + `x`) runs on it before authentication.
 */
export function withoutTrailingSlashes(pathname: string): string {
  let end = pathname.length;
  while (end > 0 && pathname.charCodeAt(end - 1) === 0x2f) end--;
  return end === pathname.length ? pathname : pathname.slice(0, end);
}

/**
 * The request target's path (without its trailing slashes) and query, or `undefined` when the target is no
 * path at all: WHATWG URL parsing reads `///` or `//` + a NUL as an empty host and throws, and
 * that must be the client's 400, not the server's 500 with an error-level log line.
 */
export function ingressTarget(target: string): { path: string; query: URLSearchParams } | undefined {
  let url: URL;
  try {
    url = new URL(target, 'http://ingress');
  } catch {
    return undefined;
  }
  return { path: withoutTrailingSlashes(url.pathname), query: url.searchParams };
}

/** A client's path as quoted back in a refusal: at most 64 characters, so it cannot grow the reply. */
export function shownPath(path: string): string {
  return path.length <= 64 ? path : `${path.slice(0, 64)}… (${path.length} characters)`;
}

/** True when the client can no longer take an upgrade response (closed, or half-closed by it). */
export function socketGone(socket: { destroyed: boolean; readable: boolean; writable: boolean }): boolean {
  return socket.destroyed || !socket.readable || !socket.writable;
}
