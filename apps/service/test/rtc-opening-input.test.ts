/**
 * Input sent while an RTC session's egress is still opening is held back by TCP (the service stops
 * reading), not queued in the service's memory. The real service process, a client whose
 * livekit_egress.url points at a loopback server that accepts connections and never answers,
 * sending audio as fast as the socket takes it: the service's RSS stays bounded and the client
 * gets only a few MiB into the socket.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { SERVER_ERROR_CODES, wire } from '@avatar-drive/core';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFrame, OPCODE_BINARY } from '../bench/websocket-frames.js';
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
/** The same, with a 4 KiB cap on what may wait. */
let small: ServiceProcess;

beforeAll(async () => {
  hole = await blackHole();
  const avatarsDir = await makeAvatarsDir();
  const args = ['--livekit-hosts', `127.0.0.1:${hole.port}`];
  service = await startServiceProcess({ avatarsDir, args });
  small = await startServiceProcess({
    avatarsDir,
    args,
    env: { AVATAR_DRIVE_MAX_PENDING_WHILE_OPENING_BYTES: '4096' },
  });
});
afterAll(async () => {
  await service?.stop();
  await small?.stop();
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

describe('input that was already read when the egress started opening', () => {
  it('past the cap ends the session with ServerError 4000 invalidRequest', { timeout: 30_000 }, async () => {
    const client = await TestClient.open(small, await mintToken(small));
    // Configure and 12 KiB of audio in one socket write: the service reads them together, so the
    // audio arrives after the socket was paused and waits, up to the cap.
    const configure = toBinary(
      wire.MessageSchema,
      create(wire.MessageSchema, {
        type: wire.MessageType.CLIENT_CONFIGURE_SESSION,
        data: {
          case: 'clientConfigureSession',
          value: {
            sampleRate: 16000,
            egressType: wire.EgressType.LIVEKIT,
            livekitEgress: {
              url: `ws://127.0.0.1:${hole.port}`,
              apiKey: 'devkey',
              apiSecret: 'secret',
              roomName: 'room-1',
              publisherId: 'avatar-1',
            },
          },
        },
      }),
    );
    const pcm = tone(100);
    const audio = toBinary(
      wire.MessageSchema,
      create(wire.MessageSchema, {
        type: wire.MessageType.CLIENT_AUDIO_INPUT,
        data: {
          case: 'clientAudioInput',
          value: { reqId: 'r1', audio: new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength) },
        },
      }),
    );
    const socket = (client.ws as unknown as { _socket: Socket })._socket;
    socket.write(
      Buffer.concat([
        clientFrame(OPCODE_BINARY, configure),
        ...Array.from({ length: 4 }, () => clientFrame(OPCODE_BINARY, audio)),
      ]),
    );
    const error = await client.waitFor((m) => m.data.case === 'serverError', 10_000);
    expect(error.data.case === 'serverError' && error.data.value.code).toBe(
      SERVER_ERROR_CODES.invalidRequest,
    );
    expect(error.data.case === 'serverError' && error.data.value.message).toMatch(
      /^invalidRequest: More than 4 KiB arrived before ServerConfirmSession/,
    );
    expect((await client.closed).code).toBe(4000);
  });
});
