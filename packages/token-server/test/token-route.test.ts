import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { AgentDispatchClient, RoomServiceClient, TokenVerifier } from 'livekit-server-sdk';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  buildTokenServer,
  DEFAULT_ROOM,
  livekitServerApi,
  ParticipantRefused,
  referenceParticipant,
  type TokenServerOptions,
  tokenServerPlugin,
} from '../src/index.js';

const livekit = inject('livekit');
const skipReason = inject('livekitSkipReason');
if (!livekit) console.log(`[token-server] LiveKit tests skipped: ${skipReason}`);

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

class LogCapture extends Writable {
  text = '';
  override _write(chunk: Buffer, _e: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

async function server(options: TokenServerOptions, log?: LogCapture): Promise<FastifyInstance> {
  const app = Fastify({ logger: log ? { level: 'debug', stream: log } : false });
  await app.register(tokenServerPlugin, options);
  apps.push(app);
  return app;
}

const uniqueRoom = () => `room-${Math.random().toString(36).slice(2, 10)}`;
const httpUrl = (url: string) => url.replace(/^ws/, 'http');

describe.skipIf(!livekit)('POST /token against the real LiveKit server', () => {
  const lk = livekit!;

  it('issues a 1 h token with the grants, creates the room and dispatches the agent', async () => {
    const room = uniqueRoom();
    const agentName = `agent-${room}`;
    const app = await server({ livekit: { ...lk, agentName }, participant: referenceParticipant() });
    const response = await app.inject({
      method: 'POST',
      url: '/token',
      payload: { room, identity: '  alice  ' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { token: string; url: string; room: string; identity: string };
    expect(body).toMatchObject({ url: lk.url, room, identity: 'alice' });
    const claims = await new TokenVerifier(lk.apiKey, lk.apiSecret).verify(body.token);
    expect(claims.sub).toBe('alice');
    expect(claims.name).toBe('alice');
    expect(claims.video).toMatchObject({
      roomJoin: true,
      room,
      canPublish: true,
      canSubscribe: true,
      canPublishData: true,
    });
    expect(claims.exp! - claims.nbf!).toBe(3600);

    const rooms = await new RoomServiceClient(httpUrl(lk.url), lk.apiKey, lk.apiSecret).listRooms([room]);
    expect(rooms.map((r) => r.name)).toEqual([room]);
    const dispatches = await new AgentDispatchClient(httpUrl(lk.url), lk.apiKey, lk.apiSecret).listDispatch(
      room,
    );
    expect(dispatches.map((d) => d.agentName)).toContain(agentName);

    // The room already exists the second time: still 200.
    const again = await app.inject({ method: 'POST', url: '/token', payload: { room } });
    expect(again.statusCode).toBe(200);
  });

  it('F5: by default a body naming an identity is refused (403) and nothing is issued; a participant hook binds it to the caller', async () => {
    const room = uniqueRoom();
    const app = await server({ livekit: lk });
    for (const identity of ['customer-alice', '  bob ']) {
      const refused = await app.inject({ method: 'POST', url: '/token', payload: { room, identity } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: expect.stringMatching(/send no identity/) });
      expect(refused.body).not.toContain('token":');
    }
    // The caller's own authentication (here a header standing in for the app's session) decides;
    // the identity the body names is not even read.
    const bound = await server({
      livekit: lk,
      participant: (request) => {
        const user = request.headers['x-user'];
        if (typeof user !== 'string') throw new ParticipantRefused(401, 'Sign in first.');
        return { room, identity: `user-${user}` };
      },
    });
    const asBob = await bound.inject({
      method: 'POST',
      url: '/token',
      headers: { 'x-user': 'bob' },
      payload: { identity: 'customer-alice' },
    });
    expect(asBob.statusCode).toBe(200);
    const claims = await new TokenVerifier(lk.apiKey, lk.apiSecret).verify(
      (asBob.json() as { token: string }).token,
    );
    expect(claims.sub).toBe('user-bob');
    expect((await bound.inject({ method: 'POST', url: '/token', payload: {} })).statusCode).toBe(401);
  });

  it('defaults: the configured room, browser-<8 hex> for an absent or blank identity, no dispatch without an agent', async () => {
    const room = uniqueRoom();
    const app = await server({ livekit: { ...lk, defaultRoom: room } });
    for (const payload of [{}, { identity: '' }, { identity: '   ' }]) {
      const response = await app.inject({ method: 'POST', url: '/token', payload });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { room: string; identity: string; token: string };
      expect(body.room).toBe(room);
      expect(body.identity).toMatch(/^browser-[0-9a-f]{8}$/);
      const claims = await new TokenVerifier(lk.apiKey, lk.apiSecret).verify(body.token);
      expect(claims.sub).toBe(body.identity);
    }
    const noBody = await app.inject({ method: 'POST', url: '/token' });
    expect(noBody.statusCode).toBe(200);
    expect((noBody.json() as { room: string }).room).toBe(room);
    const dispatches = await new AgentDispatchClient(httpUrl(lk.url), lk.apiKey, lk.apiSecret).listDispatch(
      room,
    );
    // Only LiveKit's own default dispatch (no agent name) may exist: none was requested.
    expect(dispatches.filter((d) => d.agentName !== '')).toEqual([]);
    const fallback = await server({ livekit: lk });
    expect((await fallback.inject({ method: 'POST', url: '/token', payload: {} })).json()).toMatchObject({
      room: DEFAULT_ROOM,
    });
  });

  it('a failed agent dispatch is logged and the token is still returned', async () => {
    const room = uniqueRoom();
    const log = new LogCapture();
    const app = await server(
      {
        livekit: { ...lk, agentName: 'avatar-agent' },
        // Real room creation; a dispatch that fails the way an unreachable dispatcher does.
        livekitApi: (settings) => ({
          createRoom: livekitServerApi(settings).createRoom,
          dispatchAgent: async () => {
            throw new Error('dispatch service unavailable');
          },
        }),
      },
      log,
    );
    const response = await app.inject({ method: 'POST', url: '/token', payload: { room } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ room });
    expect(log.text).toContain('agent dispatch failed');
    expect(log.text).toContain('dispatch service unavailable');
    expect(log.text).not.toContain(lk.apiSecret === 'secret' ? '"apiSecret"' : lk.apiSecret);
  });
});

describe('POST /token without LiveKit', () => {
  it('500 {error} when LiveKit credentials are not configured', async () => {
    for (const livekitOptions of [undefined, { url: 'ws://127.0.0.1:1' }, { apiKey: 'k', apiSecret: 's' }]) {
      const app = await server({ ...(livekitOptions && { livekit: livekitOptions }) });
      const response = await app.inject({ method: 'POST', url: '/token', payload: {} });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        error: expect.stringMatching(/LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET/),
      });
    }
  });

  it('502 {error} when the LiveKit server cannot be reached to create the room', async () => {
    const app = await server({
      livekit: { url: 'ws://127.0.0.1:9', apiKey: 'devkey', apiSecret: 'secret-value-xyz' },
    });
    const response = await app.inject({ method: 'POST', url: '/token', payload: { room: 'r1' } });
    expect(response.statusCode).toBe(502);
    expect((response.json() as { error: string }).error).toMatch(/Could not create LiveKit room "r1"/);
    expect(response.body).not.toContain('secret-value-xyz');
  });

  it('validates bodies with JSON schema: 400 {error}', async () => {
    const app = await server({ livekit: { url: 'ws://127.0.0.1:9', apiKey: 'k', apiSecret: 's' } });
    for (const payload of [
      { room: 'has spaces' },
      { room: '' },
      { room: 'x'.repeat(129) },
      { identity: 'x'.repeat(129) },
      { identity: { name: 'x' } },
      [],
    ]) {
      const response = await app.inject({ method: 'POST', url: '/token', payload: payload as object });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect((response.json() as { error: string }).error).toMatch(/Invalid request body/);
    }
    const notJson = await app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toHaveProperty('error');
  });
});

describe('health, CORS, rate limit, mounting', () => {
  it('GET /health reports what is configured', async () => {
    const app = await server({ livekit: { url: 'ws://x', apiKey: 'k', apiSecret: 's' } });
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.json()).toEqual({ status: 'ok', livekit: true, avatarDrive: false });
  });

  it('CORS: allowed origins get the headers (and preflight), others do not; none by default', async () => {
    const app = await server({ cors: { origin: ['https://app.example.com'] } });
    const allowed = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const other = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/token',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const plain = await server({});
    const none = await plain.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://app.example.com' },
    });
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('rate limits the token routes per client: 429 {error} with retry-after', async () => {
    const app = await server({ rateLimit: { max: 2, timeWindowMs: 60_000 } });
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push((await app.inject({ method: 'POST', url: '/token', payload: {} })).statusCode);
    expect(codes).toEqual([500, 500, 429]);
    const limited = await app.inject({ method: 'POST', url: '/token', payload: {} });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((limited.json() as { error: string }).error).toMatch(/Too many requests: at most 2/);
    // Each route has its own budget; health is not limited.
    expect((await app.inject({ method: 'POST', url: '/session-token', payload: {} })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('mounts under a prefix in an existing server', async () => {
    const app = Fastify();
    apps.push(app);
    app.get('/', async () => ({ mine: true }));
    await app.register(tokenServerPlugin, { prefix: '/api/avatar' });
    expect((await app.inject({ method: 'GET', url: '/api/avatar/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/' })).json()).toEqual({ mine: true });
  });

  it('buildTokenServer listens on a real socket', async () => {
    const app = await buildTokenServer({ logLevel: false });
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await response.json()).toEqual({ status: 'ok', livekit: false, avatarDrive: false });
  });
});
