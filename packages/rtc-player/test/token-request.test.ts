/**
 * fetchRtcToken against the reference token server (packages/token-server, on a loopback port):
 * a complete answer becomes a connect config; an answer without url, token or room, an HTTP
 * error and an unreachable server are failures with a typed error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTokenServer, referenceParticipant } from '@avatar-drive/token-server';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchRtcToken } from '../src/token-request.js';

const apps: Awaited<ReturnType<typeof buildTokenServer>>[] = [];
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const LIVEKIT = {
  url: 'ws://127.0.0.1:7880',
  apiKey: 'devkey',
  apiSecret: 'secret-of-at-least-32-characters!',
};

/** The reference token server; `livekitApi` stands in for the room server (not under test here). */
async function tokenServer(withCredentials: boolean): Promise<string> {
  const app = await buildTokenServer({
    logLevel: false,
    rateLimit: false,
    // The caller names its identity here: fetchRtcToken's mapping is under test, not the policy.
    participant: referenceParticipant(),
    ...(withCredentials && {
      livekit: LIVEKIT,
      livekitApi: () => ({ createRoom: async () => undefined, dispatchAgent: async () => undefined }),
    }),
  });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/token`;
}

/** A business server of your own whose /token answers `body` (a broken one, for the failures). */
async function answering(status: number, body: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
}

describe('fetchRtcToken', () => {
  it('turns the token server’s answer into a connect config', async () => {
    const endpoint = await tokenServer(true);
    const answer = await fetchRtcToken(endpoint, { room: 'support-42', identity: 'alice' });
    expect(answer).toMatchObject({ url: LIVEKIT.url, room: 'support-42', identity: 'alice' });
    expect(answer.token.split('.')).toHaveLength(3);
    expect(answer.connectConfig).toEqual({ url: LIVEKIT.url, token: answer.token, roomName: 'support-42' });
    const generated = await fetchRtcToken(endpoint);
    expect(generated.room).toBe('avatar-drive');
    expect(generated.identity).toMatch(/^browser-[0-9a-f]{8}$/);
  });

  it('fails with the server’s error text when RTC credentials are not configured (HTTP 500)', async () => {
    const endpoint = await tokenServer(false);
    const error = await fetchRtcToken(endpoint).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'serverError', httpStatus: 500, retryable: true });
    expect((error as Error).message).toMatch(/^The token endpoint answered HTTP 500: .+/);
  });

  it.each([
    ['url', { token: 'a.b.c', room: 'r', identity: 'i' }],
    ['token', { url: 'wss://rtc.example.com', room: 'r', identity: 'i' }],
    ['room', { url: 'wss://rtc.example.com', token: 'a.b.c', identity: 'i' }],
    ['url, token, room', { identity: 'i' }],
    ['room (empty)', { url: 'wss://rtc.example.com', token: 'a.b.c', room: '' }],
  ])('an answer without %s is a failure', async (missing, body) => {
    const endpoint = await answering(200, JSON.stringify(body));
    const error = await fetchRtcToken(endpoint).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'protocolError', retryable: false });
    expect((error as Error).message).toBe(
      `The token endpoint's answer lacks ${missing.replace(' (empty)', '')}; it must return { url, token, room, identity } (strings).`,
    );
  });

  it('an answer that is not JSON is a failure; an unreachable server is retryable', async () => {
    const endpoint = await answering(200, '<html>oops</html>');
    await expect(fetchRtcToken(endpoint)).rejects.toMatchObject({ code: 'protocolError' });
    const closed = await answering(200, '{}');
    servers.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetchRtcToken(closed)).rejects.toMatchObject({ code: 'connectionFailed', retryable: true });
  });
});
