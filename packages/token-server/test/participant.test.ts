/**
 * POST /token issues tokens for the room and identity the mounting app decides (the participant
 * hook), never for a reserved identity (the avatar's: a caller holding it would evict the avatar
 * from the room), and never for names with control or format characters. The real token server on
 * a real socket; the real LiveKit server verifies and hosts the rooms.
 */
import type { FastifyInstance } from 'fastify';
import { TokenVerifier } from 'livekit-server-sdk';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  buildTokenServer,
  referenceParticipant,
  resolveBinConfig,
  type TokenServerOptions,
} from '../src/index.js';

const livekit = inject('livekit');
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function listen(options: TokenServerOptions): Promise<string> {
  const app = await buildTokenServer({ logLevel: false, rateLimit: false, ...options });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

async function post(base: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

// Refusals come before any LiveKit call: LiveKit settings that point nowhere are enough.
const offline = { url: 'ws://127.0.0.1:9', apiKey: 'devkey', apiSecret: 'secret' };

describe('POST /token: what no caller can get', () => {
  // These callers name their identity (referenceParticipant): the checks apply after any hook.
  it("refuses the avatar's and agents' identities (403), in any letter case", async () => {
    const base = await listen({ livekit: offline, participant: referenceParticipant() });
    for (const identity of [
      'avatar-drive-avatar',
      'Avatar-Drive-Avatar',
      ' avatar-drive-avatar ',
      'agent-AJ_x1',
    ]) {
      const { status, body } = await post(base, { room: 'victim-room', identity });
      expect(status, identity).toBe(403);
      expect(body.error).toMatch(/is reserved/);
      expect(body.token).toBeUndefined();
    }
  });

  it('refuses control and format characters in identities (NUL, newlines, ANSI escapes, bidi, zero-width): 400', async () => {
    const base = await listen({ livekit: offline, participant: referenceParticipant() });
    for (const identity of [
      'a\u0000b',
      'alice\n{"level":50,"msg":"forged"}',
      'x\r\ny',
      '\u001b[31mred',
      'evil\u202Etxt.exe',
      'zero\u200Bwidth',
      'sep\u2028line',
    ]) {
      const { status, body } = await post(base, { identity });
      expect(status, JSON.stringify(identity)).toBe(400);
      expect(body.error).toMatch(/control or format characters/);
    }
  });

  it('the reserved list is configurable (bin: RESERVED_IDENTITIES) and applies after any hook', async () => {
    const config = resolveBinConfig([], { RESERVED_IDENTITIES: 'my-avatar, bot-*' });
    expect('server' in config && config.server.reservedIdentities).toEqual(['my-avatar', 'bot-*']);
    const base = await listen({
      livekit: offline,
      reservedIdentities: ['my-avatar', 'bot-*'],
      participant: (request) => ({ room: 'r', identity: String(request.headers['x-user']) }),
    });
    expect((await post(base, {}, { 'x-user': 'bot-7' })).status).toBe(403);
    expect((await post(base, {}, { 'x-user': 'my-avatar' })).status).toBe(403);
  });
});

describe.skipIf(!livekit)('POST /token: the app decides room and identity (real LiveKit)', () => {
  const lk = livekit!;

  it("a hook gives the signed-in user's room and identity; the body cannot choose them", async () => {
    const base = await listen({
      livekit: lk,
      participant: (request) => {
        const user = request.headers['x-user'];
        if (typeof user !== 'string') throw Object.assign(new Error('Sign in first.'), { statusCode: 401 });
        return { room: `support-${user}`, identity: `user-${user}`, name: `User ${user}` };
      },
    });
    expect(await post(base, { room: 'victim-room' })).toEqual({
      status: 401,
      body: { error: 'Sign in first.' },
    });
    const { status, body } = await post(
      base,
      { room: 'victim-room', identity: 'avatar-bot' },
      { 'x-user': 'u42' },
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ room: 'support-u42', identity: 'user-u42' });
    const claims = await new TokenVerifier(lk.apiKey, lk.apiSecret).verify(body.token!);
    expect(claims.sub).toBe('user-u42');
    expect(claims.name).toBe('User u42');
    expect(claims.video?.room).toBe('support-u42');
  });

  it('referenceParticipant (chosen explicitly) still generates browser-<8 hex> and accepts ordinary identities', async () => {
    const base = await listen({ livekit: lk, participant: referenceParticipant() });
    const generated = await post(base, {});
    expect(generated.status).toBe(200);
    expect(generated.body.identity).toMatch(/^browser-[0-9a-f]{8}$/);
    const named = await post(base, { identity: '  Zoë 山田  ' });
    expect(named.status).toBe(200);
    expect(named.body.identity).toBe('Zoë 山田');
  });

  it('the bin: every identity generated by default; --trust-body-identity / TRUST_BODY_IDENTITY=1 takes the reference behaviour', async () => {
    const plain = resolveBinConfig([], {});
    if ('help' in plain) throw new Error('unexpected help');
    expect(plain.server.participant).toBeUndefined();
    for (const trusted of [
      resolveBinConfig(['--trust-body-identity'], {}),
      resolveBinConfig([], { TRUST_BODY_IDENTITY: '1' }),
    ]) {
      if ('help' in trusted) throw new Error('unexpected help');
      expect(trusted.server.participant).toBeTypeOf('function');
      const base = await listen({
        livekit: lk,
        ...(trusted.server.participant && { participant: trusted.server.participant }),
      });
      expect((await post(base, { identity: 'alice' })).body.identity).toBe('alice');
    }
    const base = await listen({ livekit: lk });
    expect((await post(base, { identity: 'alice' })).status).toBe(403);
  });

  it('the bin: TRUST_PROXY / --trust-proxy takes a hop count, true or addresses; anything else is refused', async () => {
    const trust = (argv: string[], env: NodeJS.ProcessEnv) => {
      const config = resolveBinConfig(argv, env);
      if ('help' in config) throw new Error('unexpected help');
      return config.server.trustProxy;
    };
    expect(trust([], {})).toBeUndefined();
    expect(trust([], { TRUST_PROXY: '1' })).toBe(1);
    expect(trust(['--trust-proxy', 'true'], {})).toBe(true);
    expect(trust([], { TRUST_PROXY: '10.0.0.0/8, 192.0.2.10' })).toBe('10.0.0.0/8,192.0.2.10');
    expect(() => trust([], { TRUST_PROXY: 'ingress.local' })).toThrow(/hop count, true, or addresses/);
    // One trusted hop: the client's address is the one the proxy appended, so each client has its own
    // rate-limit budget and a forged header further left changes nothing.
    const app = await buildTokenServer({
      logLevel: false,
      trustProxy: trust([], { TRUST_PROXY: '1' })!,
      rateLimit: { max: 1, timeWindowMs: 60_000 },
    });
    const status = async (forwarded: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/session-token',
          headers: { 'x-forwarded-for': forwarded },
          payload: {},
        })
      ).statusCode;
    expect(await status('203.0.113.1')).toBe(500); // not configured, but counted for 203.0.113.1
    expect(await status('203.0.113.2')).toBe(500); // another client: its own budget
    expect(await status('198.51.100.9, 203.0.113.1')).toBe(429); // forged left entry: still 203.0.113.1
    await app.close();
  });
});
