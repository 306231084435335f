/**
 * The LiveKit servers the service may join on a client's behalf. `livekit_egress.url` comes from
 * the client, so without this list any token holder could make the service open connections to
 * hosts of its choosing (internal addresses, port scans). The operator lists the servers; nothing
 * else is joined.
 *
 * Entries: `host`, `host:port`, a URL (`wss://host[:port]`, `ws://…`, `http(s)://…`), or
 * `*.domain` (any subdomain of domain, e.g. `*.livekit.cloud`). An entry without a port allows
 * the standard ports only (443 for wss, 80 for ws).
 */
import { AvatarError } from '@avatar-drive/core';

export interface AllowedHost {
  /** Lower-case host name or address (IPv6 without brackets); for wildcards, the `.domain` suffix. */
  host: string;
  wildcard: boolean;
  /** A port, or undefined for the scheme's standard port. */
  port?: number;
}

/** Parses allowlist entries; throws a plain Error naming the entry that is not one. */
export function parseAllowedHosts(entries: readonly string[]): AllowedHost[] {
  const list: AllowedHost[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    const wildcard = entry.startsWith('*.');
    const text = wildcard ? entry.slice(2) : entry;
    let url: URL;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `ws://${text}`);
    } catch {
      throw new Error(`LiveKit host "${entry}" is not a host, host:port or URL.`);
    }
    if (!url.hostname || (url.pathname !== '/' && url.pathname !== '') || url.username) {
      throw new Error(`LiveKit host "${entry}" must be a host, host:port or URL origin (no path).`);
    }
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    list.push({
      host: wildcard ? `.${host}` : host,
      wildcard,
      ...(url.port && { port: Number(url.port) }),
    });
  }
  return list;
}

/** True when `url` (ws:// or wss://) is on a listed host and port. */
export function isAllowedHost(list: readonly AllowedHost[], url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port ? Number(url.port) : url.protocol === 'wss:' ? 443 : 80;
  return list.some((entry) => {
    const hostMatches = entry.wildcard
      ? host.endsWith(entry.host) && host.length > entry.host.length
      : host === entry.host;
    if (!hostMatches) return false;
    return entry.port === undefined ? port === 443 || port === 80 : port === entry.port;
  });
}

/** The refusal for a URL off the list (the client's own URL is named; the list never is). */
export function hostNotAllowed(url: URL): AvatarError {
  return new AvatarError(
    'invalidEgressConfig',
    `livekit_egress.url points at ${url.host}, which is not a LiveKit server this service joins. Use the LiveKit server the service operator allowed (the service's --livekit-hosts setting).`,
    { phase: 'configure', retryable: false },
  );
}
