/**
 * Input sent while an RTC session's egress is still opening is held back by TCP (the service stops
 * reading), not queued in the service's memory. The real service process, a client whose
 * livekit_egress.url points at a loopback server that accepts connections and never answers,
 * sending audio as fast as the socket takes it: the service's RSS stays bounded and the client
 * gets only a few MiB into the socket.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { wire } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAvatarsDir, mintToken, sleep, TestClient, tone } from './support/harness.js';
import { type ServiceProcess, startServiceProcess } from './support/service-process.js';

/** Accepts TCP connections and never sends a byte. */
async function blackHole(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

const SEND_MS = 4000;
let hole: Awaited<ReturnType<typeof blackHole>>;
let service: ServiceProcess;

beforeAll(async () => {
  hole = await blackHole();
  service = await startServiceProcess({
    avatarsDir: await makeAvatarsDir(),
    args: ['--livekit-hosts', `127.0.0.1:${hole.port}`],
  });
});
afterAll(async () => {
  await service?.stop();
  for (const s of hole?.sockets ?? []) s.destroy();
  hole?.server.close();
});

describe('input while the RTC egress opens', () => {
  it(`a client sending audio flat out for ${SEND_MS / 1000} s into a never-answering egress moves the service's RSS by little`, {
    timeout: 60_000,
  }, async () => {
    const client = await TestClient.open(service, await mintToken(service));
    const rssBefore = await service.rssMiB();
    client.configure(16000, {
      egressType: wire.EgressType.LIVEKIT,
      livekitEgress: {
        url: `ws://127.0.0.1:${hole.port}`,
        apiKey: 'devkey',
        apiSecret: 'secret',
        roomName: 'room-1',
        publisherId: 'avatar-1',
      },
    });
    // 200 ms chunks (6.4 KB), as many as the socket takes; never more than 4 MiB waiting client-side.
    const chunk = tone(200);
    let queued = 0;
    let rssPeak = rssBefore;
    const started = Date.now();
    while (Date.now() - started < SEND_MS && client.ws.readyState === client.ws.OPEN) {
      while (client.ws.bufferedAmount < 4 * 1024 * 1024 && queued < 2 * 1024 * 1024 * 1024) {
        client.audio('r1', chunk);
        queued += chunk.byteLength + 8;
      }
      await sleep(20);
      rssPeak = Math.max(rssPeak, await service.rssMiB());
    }
    const delivered = (queued - client.ws.bufferedAmount) / 1024 / 1024;
    const growth = rssPeak - rssBefore;
    console.log(
      `[rtc-opening] ${delivered.toFixed(1)} MiB into the socket in ${SEND_MS} ms; service RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MiB (+${growth.toFixed(0)})`,
    );
    // TCP buffers on both ends hold a few MiB; the service itself holds a read or two.
    expect(delivered).toBeLessThan(32);
    expect(growth).toBeLessThan(64);
    // The egress never opened: the session was never confirmed.
    expect(client.inbox.some((m) => m.data.case === 'serverConfirmSession')).toBe(false);
    client.ws.terminate();
  });
});
