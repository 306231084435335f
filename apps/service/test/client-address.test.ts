import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestOrigin, TrustedProxies } from '../src/client-address.js';
import { resolveConfig } from '../src/config.js';

/** A request as the HTTP server hands it over: peer and local address, headers. */
function fakeRequest(
  peer: string,
  headers: Record<string, string> = {},
  local = { address: '127.0.0.1', port: 8710, encrypted: false },
): IncomingMessage {
  return {
    headers,
    socket: {
      remoteAddress: peer,
      localAddress: local.address,
      localPort: local.port,
      encrypted: local.encrypted || undefined,
    },
  } as unknown as IncomingMessage;
}

describe('TrustedProxies', () => {
  it('matches addresses and CIDR ranges of both families, IPv4-mapped included', () => {
    const trusted = TrustedProxies.parse('10.0.0.0/8, 192.168.1.7,fd00::/8, ::1');
    expect(trusted.has('10.200.3.4')).toBe(true);
    expect(trusted.has('::ffff:10.1.1.1')).toBe(true);
    expect(trusted.has('192.168.1.7')).toBe(true);
    expect(trusted.has('192.168.1.8')).toBe(false);
    expect(trusted.has('fd12::1')).toBe(true);
    expect(trusted.has('::1')).toBe(true);
    expect(trusted.has('fe80::1')).toBe(false);
    expect(trusted.has('not-an-ip')).toBe(false);
    expect(TrustedProxies.parse('').has('127.0.0.1')).toBe(false);
  });

  it('refuses entries that are not addresses or ranges, naming them', () => {
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/2', 'fd00::/129', '10.0.0.0/x']) {
      expect(() => TrustedProxies.parse(bad)).toThrow(`"${bad}" is not an IP address or CIDR range`);
    }
  });
});

describe('requestOrigin', () => {
  const trusted = TrustedProxies.parse('10.0.0.0/8');

  it('ignores every forwarded header from an untrusted peer, and never uses Host', () => {
    const origin = requestOrigin(
      fakeRequest('198.51.100.4', {
        host: 'evil.example',
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
      }),
      trusted,
    );
    expect(origin).toEqual({
      client: '198.51.100.4',
      protocol: 'http',
      origin: 'http://127.0.0.1:8710',
      viaProxy: false,
    });
  });

  it('takes the nearest untrusted hop of X-Forwarded-For and the proxy-set proto and host', () => {
    const origin = requestOrigin(
      fakeRequest('10.0.0.2', {
        'x-forwarded-for': '203.0.113.9, 198.51.100.4, 10.0.0.9',
        'x-forwarded-proto': 'http, https',
        'x-forwarded-host': 'spoofed.example, Avatars.Example.com',
      }),
      trusted,
    );
    expect(origin).toEqual({
      client: '198.51.100.4',
      protocol: 'https',
      origin: 'https://avatars.example.com',
      viaProxy: true,
    });
  });

  it('falls back to the local address when a trusted proxy sends no usable host', () => {
    for (const host of [undefined, 'a/b', 'x@y', 'host:99999999']) {
      const origin = requestOrigin(
        fakeRequest('10.0.0.2', host ? { 'x-forwarded-host': host } : {}, {
          address: '::1',
          port: 443,
          encrypted: true,
        }),
        trusted,
      );
      expect(origin.origin).toBe('https://[::1]:443');
      expect(origin.client).toBe('10.0.0.2');
    }
  });
});

describe('TLS and proxy configuration', () => {
  const env = {
    AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'a1', apiKeyHashes: [`sha256:${'0'.repeat(64)}`] }]),
    AVATAR_DRIVE_SIGNING_KEY: 'x'.repeat(43),
  };

  it('reads the TLS pair and trusted proxies from flags or environment', async () => {
    const fromEnv = await resolveConfig([], {
      ...env,
      AVATAR_DRIVE_TLS_CERT: '/etc/avd/tls.crt',
      AVATAR_DRIVE_TLS_KEY: '/etc/avd/tls.key',
      AVATAR_DRIVE_TRUSTED_PROXIES: '10.0.0.0/8,127.0.0.1',
    });
    if ('help' in fromEnv) throw new Error('unexpected help');
    expect(fromEnv.options.tls).toEqual({ certFile: '/etc/avd/tls.crt', keyFile: '/etc/avd/tls.key' });
    expect(fromEnv.options.trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1']);
    const fromFlags = await resolveConfig(
      ['--trusted-proxies', '::1', '--tls-cert', '/c', '--tls-key', '/k'],
      env,
    );
    if ('help' in fromFlags) throw new Error('unexpected help');
    expect(fromFlags.options.trustedProxies).toEqual(['::1']);
    expect(fromFlags.options.tls).toEqual({ certFile: '/c', keyFile: '/k' });
  });

  it('says what is missing or wrong', async () => {
    await expect(resolveConfig(['--tls-cert', '/c'], env)).rejects.toThrow(
      /needs both --tls-cert and --tls-key/,
    );
    await expect(resolveConfig(['--trusted-proxies', 'lb.internal'], env)).rejects.toThrow(
      /"lb.internal" is not an IP address or CIDR range/,
    );
    await expect(resolveConfig(['--public-url', 'avatars.example.com'], env)).rejects.toThrow(
      /--public-url must be an http\(s\) URL/,
    );
  });
});
