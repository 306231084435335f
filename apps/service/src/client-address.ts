/**
 * Who is on the other end of a request, and under which origin it reached us — proxy-aware.
 *
 * `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Forwarded-Host` are believed only when the TCP
 * peer is a configured trusted proxy (`--trusted-proxies`); from anyone else they are ignored, so
 * a client cannot choose the address it is logged and limited under, nor the origin written into
 * asset URLs that other clients fetch. Used by the HTTP routes and the ingress upgrade alike
 * (both hand in the raw `IncomingMessage`).
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** A set of proxy addresses and CIDR ranges (IPv4 and IPv6). */
export class TrustedProxies {
  readonly #list = new BlockList();
  /** The entries as configured, for the banner and logs. */
  readonly entries: readonly string[];

  /**
   * @param entries addresses (`10.0.0.7`, `::1`) or CIDR ranges (`10.0.0.0/8`, `fd00::/8`).
   * @throws Error naming the first entry that is neither.
   */
  constructor(entries: readonly string[] = []) {
    for (const entry of entries) {
      const [address = '', prefixText, ...rest] = entry.split('/');
      const family = isIP(address);
      const prefix = prefixText === undefined ? undefined : Number(prefixText);
      const maxPrefix = family === 6 ? 128 : 32;
      if (
        family === 0 ||
        rest.length > 0 ||
        (prefix !== undefined && (!/^\d+$/.test(prefixText!) || prefix > maxPrefix))
      ) {
        throw new Error(
          `--trusted-proxies: "${entry}" is not an IP address or CIDR range. Use e.g. 10.0.0.5, 10.0.0.0/8 or fd00::/8, comma-separated.`,
        );
      }
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.#list.addAddress(address, type);
      else this.#list.addSubnet(address, prefix, type);
    }
    this.entries = [...entries];
  }

  /** Parses the comma-separated flag / environment value (empty: none). */
  static parse(text: string | undefined): TrustedProxies {
    const entries = (text ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return new TrustedProxies(entries);
  }

  get size(): number {
    return this.entries.length;
  }

  /** True when `address` (IPv4, IPv6 or IPv4-mapped IPv6) is a trusted proxy. */
  has(address: string | undefined): boolean {
    if (!address || this.entries.length === 0) return false;
    const plain = unmapIPv4(address);
    const family = isIP(plain);
    if (family === 0) return false;
    return this.#list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** No proxy trusted: forwarded headers are ignored from everyone. */
export const NO_TRUSTED_PROXIES = new TrustedProxies();

/**
 * The TCP peer of `socket` (IPv4-mapped addresses unmapped). Before a request arrives this is all
 * there is to go on: per-connection decisions (connection caps) use it.
 */
export function peerAddress(socket: Pick<Socket, 'remoteAddress'>): string {
  return socket.remoteAddress ? unmapIPv4(socket.remoteAddress) : 'unknown';
}

/** The client address of `req`: see {@link RequestOrigin.client}. */
export function clientAddress(req: IncomingMessage, trusted: TrustedProxies = NO_TRUSTED_PROXIES): string {
  return requestOrigin(req, trusted).client;
}

/** What a request tells about its client and the origin it used. */
export interface RequestOrigin {
  /** The client's address: the TCP peer, or the nearest untrusted hop of X-Forwarded-For. */
  client: string;
  /** The scheme the client used: the socket's, or X-Forwarded-Proto from a trusted proxy. */
  protocol: 'http' | 'https';
  /**
   * The origin to write into URLs handed to clients: `protocol://X-Forwarded-Host` from a trusted
   * proxy, else the local address and port the connection arrived on. Never the Host header.
   */
  origin: string;
  /** True when a trusted proxy supplied any of the above. */
  viaProxy: boolean;
}

/** Reads the client address, scheme and origin of `req` (see {@link RequestOrigin}). */
export function requestOrigin(req: IncomingMessage, trusted: TrustedProxies): RequestOrigin {
  const socket = req.socket;
  const peer = peerAddress(socket);
  const localProtocol = (socket as TLSSocket).encrypted ? 'https' : 'http';
  const local = `${localProtocol}://${hostPart(unmapIPv4(socket.localAddress ?? '127.0.0.1'))}:${socket.localPort}`;
  if (!trusted.has(peer)) return { client: peer, protocol: localProtocol, origin: local, viaProxy: false };

  // Walk X-Forwarded-For from the nearest hop outwards: trusted hops are proxies of ours; the
  // first untrusted one is the client (anything further left was written by that client).
  const hops = headerList(req, 'x-forwarded-for')
    .map(unmapIPv4)
    .filter((hop) => isIP(hop) !== 0);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    client = hops[i]!;
    if (!trusted.has(client)) break;
  }
  // Proto and host: the value the nearest proxy added (the last one), which it is trusted to set.
  const proto = headerList(req, 'x-forwarded-proto').at(-1)?.toLowerCase();
  const protocol = proto === 'https' || proto === 'http' ? proto : localProtocol;
  const host = headerList(req, 'x-forwarded-host').at(-1);
  const origin = host && isHostPort(host) ? `${protocol}://${host.toLowerCase()}` : local;
  return { client, protocol, origin, viaProxy: true };
}

/** The comma-separated values of a header (repeated headers joined), trimmed, empty ones dropped. */
function headerList(req: IncomingMessage, name: string): string[] {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `host` or `host:port` with a DNS name, IPv4 or bracketed IPv6 — nothing that could bend a URL. */
function isHostPort(value: string): boolean {
  return /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(
    value,
  );
}

function unmapIPv4(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function hostPart(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}
