/** Unit tests of the pieces that need no service: callback queue, backoff, egress, errors, relay events. */
import { AvatarError, EgressType } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import {
  AvatarSession,
  backoffDelay,
  CallbackQueue,
  DEFAULT_RECONNECT,
  decodeRelayControl,
  egressConfigure,
  encodeRelayControl,
  httpErrorToAvatarError,
  RelayStream,
  relayEventToText,
  relayTextToBytes,
  resolveExpiry,
  SESSION_TRANSITIONS,
} from '../src/index.js';

describe('CallbackQueue', () => {
  it('runs callbacks in order, one at a time, awaiting promises, past throwing ones', async () => {
    const seen: string[] = [];
    const failures: string[] = [];
    const queue = new CallbackQueue((name, error) => failures.push(`${name}:${(error as Error).message}`));
    let active = 0;
    let maxActive = 0;
    for (let i = 0; i < 20; i++) {
      queue.push(`cb${i}`, async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, i % 3));
        seen.push(String(i));
        active--;
        if (i === 7) throw new Error('boom');
      });
      if (i === 4) queue.push('sync', () => seen.push('sync'));
    }
    expect(seen).toEqual([]); // never inside the call that queued
    await queue.idle();
    expect(seen).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      'sync',
      ...Array.from({ length: 15 }, (_, k) => String(k + 5)),
    ]);
    expect(maxActive).toBe(1);
    expect(failures).toEqual(['cb7:boom']);
  });
});

describe('backoff', () => {
  it('doubles, caps, and jitters within [50 %, 100 %]', () => {
    const options = { ...DEFAULT_RECONNECT, initialDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((s) => backoffDelay(s, options, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelay(2, options, () => 0)).toBe(200);
  });
});

describe('session state table', () => {
  it('closed is final and every state can close', () => {
    expect(SESSION_TRANSITIONS.closed).toEqual({});
    for (const state of ['connecting', 'connected', 'reconnecting'] as const)
      expect(SESSION_TRANSITIONS[state].close).toBe('closing');
    expect(SESSION_TRANSITIONS.idle.closed).toBe('closed');
  });

  it('close() before start() ends the session once', async () => {
    const closes: unknown[] = [];
    const s = new AvatarSession({
      avatarId: 'a',
      appId: 'b',
      sessionToken: 't',
      sampleRate: 16000,
      onClose: (e) => closes.push(e),
    });
    await s.close();
    await s.close();
    expect(closes).toEqual([{ code: 1000, reason: 'closed before start' }]);
    await expect(s.start()).rejects.toMatchObject({ code: 'invalidState' });
  });
});

describe('egress options', () => {
  it('builds LiveKit and Agora configs and refuses incomplete ones', () => {
    const lk = egressConfigure({
      provider: 'livekit',
      url: 'wss://lk',
      room: 'r',
      apiToken: 'tok',
      extraAttributes: { a: 'b' },
    });
    expect(lk.livekitEgress).toMatchObject({
      url: 'wss://lk',
      roomName: 'r',
      apiToken: 'tok',
      extraAttributes: { a: 'b' },
    });
    const agora = egressConfigure({ provider: 'agora', channel: 'c', uid: 7, token: 't' });
    expect(agora.agoraEgress).toMatchObject({ channelName: 'c', uid: 7, token: 't' });
    const bad = [
      { provider: 'livekit', url: 'lk', room: 'r', apiToken: 't' },
      { provider: 'livekit', url: 'wss://lk', room: ' ', apiToken: 't' },
      { provider: 'livekit', url: 'wss://lk', room: 'r', apiKey: 'k' },
      { provider: 'livekit', url: 'wss://lk', room: 'r', apiToken: 't', idleTimeout: -1 },
      { provider: 'livekit', url: 'wss://lk', room: 'r', apiToken: 't', extraAttributes: { a: 1 } },
      { provider: 'agora', channel: '' },
      { provider: 'agora', channel: 'c', uid: 2 ** 32 },
      { provider: 'zoom' },
    ];
    for (const egress of bad) {
      expect(() => egressConfigure(egress as never)).toThrow(
        expect.objectContaining({ code: 'invalidEgressConfig' }),
      );
    }
    expect(EgressType.LIVEKIT).toBe(1);
  });
});

describe('HTTP errors', () => {
  it('uses the body code and detail, derives from the status otherwise, and redacts secrets', () => {
    const e = httpErrorToAvatarError(
      401,
      {
        errors: [
          {
            status: 401,
            code: 'sessionTokenExpired',
            title: 'Session token expired',
            detail: 'expired SECRET-TOKEN',
          },
        ],
      },
      { action: 'Opening', phase: 'connect', secrets: ['SECRET-TOKEN'] },
    );
    expect(e).toMatchObject({
      code: 'sessionTokenExpired',
      httpStatus: 401,
      closeCode: 4010,
      retryable: false,
    });
    expect(e.message).not.toContain('SECRET-TOKEN');
    expect(httpErrorToAvatarError(503, 'not json', { action: 'x', phase: 'connect' })).toMatchObject({
      code: 'upstreamError',
      retryable: true,
    });
    expect(httpErrorToAvatarError(404, {}, { action: 'x', phase: 'connect' }).code).toBe('avatarNotFound');
    expect(
      httpErrorToAvatarError(400, { errors: [{ code: 'madeUp' }] }, { action: 'x', phase: 'connect' }).code,
    ).toBe('invalidRequest');
  });

  it('validates token expiry', () => {
    const now = 1_700_000_000_000;
    expect(resolveExpiry({}, now)).toBe(1_700_000_000 + 600);
    expect(resolveExpiry({ expireAt: new Date(now + 60_000) }, now)).toBe(1_700_000_060);
    expect(() => resolveExpiry({ ttlSeconds: 86_401 }, now)).toThrow(AvatarError);
  });
});

describe('relay events', () => {
  it('control JSON and the text form round-trip; junk is a protocolError', () => {
    const text = encodeRelayControl({ type: 'interrupt', conversationId: 'req_1' });
    expect(decodeRelayControl(text)).toEqual({ type: 'interrupt', conversationId: 'req_1' });
    expect(decodeRelayControl(encodeRelayControl({ type: 'end', reason: 'closed' }))).toEqual({
      type: 'end',
      reason: 'closed',
    });
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    const asText = relayEventToText({ type: 'audio', conversationId: 'c', data: bytes, last: false });
    expect(relayTextToBytes(asText)).toEqual(bytes);
    for (const junk of [
      'nope',
      '{"type":"interrupt"}',
      '{"avatarDriveRelay":1,"type":"interrupt"}',
      '{"avatarDriveRelay":1,"type":"x"}',
    ]) {
      expect(() => decodeRelayControl(junk)).toThrow(expect.objectContaining({ code: 'protocolError' }));
    }
    expect(() => relayTextToBytes('b64:!!')).toThrow(expect.objectContaining({ code: 'protocolError' }));
  });

  it('RelayStream buffers for its iterator, ends, and survives a throwing listener', async () => {
    const reported: unknown[] = [];
    const stream = new RelayStream((e) => reported.push(e));
    const event = { type: 'control' as const, control: { type: 'end' as const, reason: 'x' }, data: '{}' };
    stream.push(event);
    stream.push(event);
    stream.end();
    const got = [];
    for await (const e of stream) got.push(e);
    expect(got).toHaveLength(2);
    const listened = new RelayStream((e) => reported.push(e));
    listened.on('event', () => {
      throw new Error('listener bug');
    });
    listened.push(event);
    expect(reported).toHaveLength(1);
  });
});

describe('package build', () => {
  it('loads as CommonJS and as ESM; the relay client bundle is browser-safe', async () => {
    const { createRequire } = await import('node:module');
    const { readFileSync } = await import('node:fs');
    const require = createRequire(import.meta.url);
    const cjs = require('../dist/index.cjs') as Record<string, unknown>;
    expect(typeof cjs.AvatarSession).toBe('function');
    expect(typeof cjs.createSessionToken).toBe('function');
    const esm = (await import('@avatar-drive/server-sdk/relay-client')) as Record<string, unknown>;
    expect(typeof esm.RelayClient).toBe('function');
    for (const file of ['../dist/relay-client.js', '../dist/relay-client.cjs']) {
      const code = readFileSync(new URL(file, import.meta.url), 'utf8');
      expect(code).not.toMatch(/["']node:|["']ws["']|\bBuffer\b|process\./);
    }
  });
});
