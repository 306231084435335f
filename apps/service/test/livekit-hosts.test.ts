/**
 * `livekit_egress.url` comes from the client: the real service joins only the LiveKit hosts its
 * operator listed (a host off the list gets no connection at all), and what an upstream answered
 * never reaches the client (it goes to the service's log).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_ERROR_CODES, wire } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config.js';
import { isAllowedHost, parseAllowedHosts } from '../src/egress/livekit-hosts.js';
import type { RunningService } from '../src/service.js';
import { LogCapture, makeAvatarsDir, mintToken, startTestService, TestClient } from './support/harness.js';

/** An HTTP server that answers everything 404 with a body only it knows, and counts connections. */
async function internalServer(
  secret: string,
): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`internal service: ${secret}`);
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

const secret = `INTERNAL-${randomUUID()}`;
let listed: Awaited<ReturnType<typeof internalServer>>;
let unlisted: Awaited<ReturnType<typeof internalServer>>;
let service: RunningService;
const log = new LogCapture();

beforeAll(async () => {
  listed = await internalServer(secret);
  unlisted = await internalServer(secret);
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    standIn: true,
    log,
    extra: { liveKitEgress: { allowedHosts: [`127.0.0.1:${listed.port}`], connectTimeoutMs: 5000 } },
  });
});
afterAll(async () => {
  await service?.close();
  listed?.server.close();
  unlisted?.server.close();
});

async function configureRtc(port: number): Promise<wire.ServerError> {
  const client = await TestClient.open(service, await mintToken(service));
  client.configure(16000, {
    egressType: wire.EgressType.LIVEKIT,
    livekitEgress: {
      url: `ws://127.0.0.1:${port}`,
      apiKey: 'devkey',
      apiSecret: 'secret',
      roomName: 'room-1',
      publisherId: 'avatar-1',
    },
  });
  const m = await client.waitFor((x) => x.data.case === 'serverError', 15_000);
  await client.closed;
  return m.data.value as wire.ServerError;
}

describe('LiveKit hosts a session may make the service join', () => {
  it('a host off the list is refused with invalidEgressConfig before any connection is made', async () => {
    const error = await configureRtc(unlisted.port);
    expect(error.code).toBe(SERVER_ERROR_CODES.invalidEgressConfig);
    expect(error.message).toMatch(/^invalidEgressConfig: .*not a LiveKit server this service joins/);
    expect(unlisted.connections()).toBe(0);
  });

  it('what a listed host answered goes to the log, not to the client', async () => {
    const error = await configureRtc(listed.port);
    expect(listed.connections()).toBeGreaterThan(0);
    expect(error.code).toBe(SERVER_ERROR_CODES.egressUnavailable);
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain('internal service');
    expect(log.text).toContain(secret);
  });
});

describe('the allowlist: configuration and matching', () => {
  const env = {
    AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'app_x', apiKeyHashes: [] }]),
    AVATAR_DRIVE_SIGNING_KEY: Buffer.alloc(32, 7).toString('base64url'),
  };
  const hostsOf = async (argv: string[], extra: Record<string, string>) => {
    const resolved = await resolveConfig(argv, { ...env, ...extra });
    if ('help' in resolved) throw new Error('unexpected help');
    return resolved.options.liveKitEgress?.allowedHosts;
  };

  it('flag, then AVATAR_DRIVE_LIVEKIT_HOSTS, then the host of LIVEKIT_URL, else none', async () => {
    expect(await hostsOf([], {})).toEqual([]);
    expect(await hostsOf([], { LIVEKIT_URL: 'ws://127.0.0.1:7880' })).toEqual(['ws://127.0.0.1:7880']);
    expect(
      await hostsOf([], {
        LIVEKIT_URL: 'ws://127.0.0.1:7880',
        AVATAR_DRIVE_LIVEKIT_HOSTS: 'a.example, *.livekit.cloud',
      }),
    ).toEqual(['a.example', '*.livekit.cloud']);
    expect(
      await hostsOf(['--livekit-hosts', 'b.example:7880'], { AVATAR_DRIVE_LIVEKIT_HOSTS: 'a.example' }),
    ).toEqual(['b.example:7880']);
    await expect(hostsOf(['--livekit-hosts', 'wss://a.example/path'], {})).rejects.toThrow(/no path/);
  });

  it('matches host and port: no port means the standard ones, *.domain any subdomain', () => {
    const list = parseAllowedHosts(['lk.example', '10.0.0.5:7880', 'wss://[::1]:7881', '*.livekit.cloud']);
    const ok = (url: string) => isAllowedHost(list, new URL(url));
    expect(ok('wss://lk.example')).toBe(true);
    expect(ok('ws://LK.example:80')).toBe(true);
    expect(ok('wss://lk.example:7880')).toBe(false);
    expect(ok('ws://10.0.0.5:7880')).toBe(true);
    expect(ok('ws://10.0.0.5:22')).toBe(false);
    expect(ok('ws://[::1]:7881')).toBe(true);
    expect(ok('wss://proj.livekit.cloud')).toBe(true);
    expect(ok('wss://livekit.cloud')).toBe(false);
    expect(ok('wss://evil-livekit.cloud')).toBe(false);
    expect(ok('wss://lk.example.evil.com')).toBe(false);
  });
});
