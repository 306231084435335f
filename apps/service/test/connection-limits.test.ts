/**
 * Connections that never finish a request are closed (header, request and idle timeouts), and one
 * address cannot hold more than its share of connections: slowloris sockets and an idle flood from
 * one loopback address (127.0.0.2) against the real service, while a client on another address
 * (127.0.0.1) still opens a session.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config.js';
import type { RunningService } from '../src/service.js';
import { makeAvatarsDir, mintToken, sleep, startTestService, TestClient } from './support/harness.js';

const ATTACKER = '127.0.0.2';
const CAP = 40;

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({
    avatarsDir: await makeAvatarsDir(),
    standIn: true,
    limits: {
      headersTimeoutMs: 1500,
      requestTimeoutMs: 3000,
      connectionIdleTimeoutMs: 2000,
      maxConnectionsPerAddress: CAP,
    },
  });
});
const created: Socket[] = [];
afterAll(async () => {
  for (const socket of created) socket.destroy();
  await service?.close();
});

interface Held {
  socket: Socket;
  closed: boolean;
}

/** Opens a connection from `localAddress`; resolves once connected (or closed at once). */
async function open(localAddress: string): Promise<Held> {
  const { port } = new URL(service.url);
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress });
  const held: Held = { socket, closed: false };
  created.push(socket);
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  socket.once('close', () => {
    held.closed = true;
  });
  await new Promise<void>((resolve) => {
    socket.once('connect', () => resolve());
    socket.once('close', () => resolve());
  });
  return held;
}

const stillOpen = (all: Held[]) => all.filter((h) => !h.closed).length;

describe('slow and idle connections', () => {
  it('slowloris: a request whose headers trickle in is closed after the header timeout', async () => {
    const sockets: Held[] = [];
    for (let i = 0; i < 20; i++) {
      const held = await open('127.0.0.1');
      held.socket.write('GET /v1/console/avatars HTTP/1.1\r\nHost: x\r\n');
      sockets.push(held);
    }
    // One more header line per socket every 500 ms, never the blank line that ends them.
    const drip = setInterval(() => {
      for (const h of sockets) if (!h.closed) h.socket.write(`X-Drip-${Date.now()}: 1\r\n`);
    }, 500);
    const deadline = Date.now() + 15_000;
    while (stillOpen(sockets) > 0 && Date.now() < deadline) await sleep(200);
    clearInterval(drip);
    expect(stillOpen(sockets)).toBe(0);
  });

  it('a connection that sends nothing is closed', async () => {
    const sockets = await Promise.all(Array.from({ length: 10 }, () => open('127.0.0.1')));
    const deadline = Date.now() + 15_000;
    while (stillOpen(sockets) > 0 && Date.now() < deadline) await sleep(200);
    expect(stillOpen(sockets)).toBe(0);
  });

  it(`one address holds at most ${CAP} pre-session connections; a client elsewhere still opens a session`, async () => {
    const flood: Held[] = [];
    for (let i = 0; i < CAP + 30; i++) flood.push(await open(ATTACKER));
    await sleep(200);
    // The ones past the cap were closed at once; the first CAP are held.
    expect(stillOpen(flood)).toBe(CAP);
    expect(flood.slice(0, CAP).every((h) => !h.closed)).toBe(true);

    const client = await TestClient.open(service, await mintToken(service));
    client.configure(16000);
    await client.confirmed();

    // Connections that close give their place back.
    for (const h of flood) h.socket.destroy();
    await sleep(200);
    const again = await open(ATTACKER);
    await sleep(200);
    expect(again.closed).toBe(false);
    again.socket.destroy();
    client.close();
    await client.closed;
  });
});

describe('configuration', () => {
  it('the connection and intake limits come from the environment (seconds → ms)', async () => {
    const resolved = await resolveConfig([], {
      AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'app_x', apiKeyHashes: [] }]),
      AVATAR_DRIVE_SIGNING_KEY: Buffer.alloc(32, 7).toString('base64url'),
      AVATAR_DRIVE_HEADERS_TIMEOUT_SECONDS: '5',
      AVATAR_DRIVE_REQUEST_TIMEOUT_SECONDS: '20',
      AVATAR_DRIVE_KEEP_ALIVE_TIMEOUT_SECONDS: '3',
      AVATAR_DRIVE_CONNECTION_IDLE_TIMEOUT_SECONDS: '15',
      AVATAR_DRIVE_MAX_CONNECTIONS_PER_ADDRESS: '64',
      AVATAR_DRIVE_MAX_INTAKE_REALTIME_FACTOR: '2',
      AVATAR_DRIVE_INTAKE_WINDOW_SECONDS: '5',
      AVATAR_DRIVE_MAX_PENDING_WHILE_OPENING_BYTES: '65536',
    });
    if ('help' in resolved) throw new Error('unexpected help');
    expect(resolved.options.limits).toMatchObject({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 20_000,
      keepAliveTimeoutMs: 3000,
      connectionIdleTimeoutMs: 15_000,
      maxConnectionsPerAddress: 64,
      maxIntakeRealtimeFactor: 2,
      intakeWindowMs: 5000,
      maxPendingWhileOpeningBytes: 65_536,
    });
  });
});
