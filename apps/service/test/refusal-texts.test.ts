/**
 * Golden texts of the service's refusals. Existing driveningress.v2 SDKs turn a refused upgrade
 * or a ServerError into their own error codes by matching phrases ("Invalid session token",
 * "app id mismatch", "unsupported sample rate"), so each refusal's status, code and full text is
 * pinned here: a reworded message must be a deliberate change of this table. Also the contract's
 * rules on input: expireAt strictly inside (now, now + 24 h), and an unset sample_rate = 16000.
 */
import { wire } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionTokens } from '../src/credentials/session-tokens.js';
import type { RunningService } from '../src/service.js';
import {
  API_KEY,
  APP_ID,
  AVATAR_ID,
  makeAvatarsDir,
  mintToken,
  OTHER_APP_ID,
  SIGNING_KEY,
  sleep,
  startTestService,
  states,
  TestClient,
  tone,
} from './support/harness.js';

let service: RunningService;

beforeAll(async () => {
  service = await startTestService({ avatarsDir: await makeAvatarsDir(), standIn: true });
});
afterAll(async () => {
  await service?.close();
});

interface UpgradeRefusal {
  status: number;
  body: { errors: { status: number; code: string; title: string; detail: string }[] };
}

/** Opens an upgrade that must be refused; returns the HTTP status and JSON body. */
async function refusedUpgrade(
  headers: Record<string, string>,
  avatarId = AVATAR_ID,
): Promise<UpgradeRefusal> {
  const client = new TestClient(`${service.ingressUrl}?id=${avatarId}`, headers);
  try {
    await client.opened;
  } catch (error) {
    return error as UpgradeRefusal;
  }
  client.close();
  throw new Error('the upgrade was accepted');
}

/** The phrases the existing SDKs look for (their classification, reduced to what we must say). */
function classify(text: string): string {
  if (text.includes('Invalid session token')) return 'sessionTokenInvalid';
  if (/expired/i.test(text)) return 'sessionTokenExpired';
  if (text.toLowerCase().includes('app id mismatch')) return 'appIDMismatch';
  if (text.toLowerCase().includes('unsupported sample rate')) return 'unsupportedSampleRate';
  return 'other';
}

describe('upgrade refusals: status, code, title and detail', () => {
  const golden: {
    name: string;
    headers: () => Promise<Record<string, string>>;
    avatarId?: string;
    status: number;
    code: string;
    title: string;
    detail: string;
    classifiedAs: string;
  }[] = [
    {
      name: 'no session token',
      headers: async () => ({ 'X-App-ID': APP_ID }),
      status: 401,
      code: 'sessionTokenInvalid',
      title: 'Invalid session token',
      detail: 'No session token. Pass it as X-Session-Key (or ?sessionKey= in browsers).',
      classifiedAs: 'sessionTokenInvalid',
    },
    {
      name: 'a token signed by someone else',
      headers: async () => ({
        'X-App-ID': APP_ID,
        'X-Session-Key': (
          await new SessionTokens(new Uint8Array(32).fill(7)).mint(APP_ID, Math.floor(Date.now() / 1000) + 60)
        ).token,
      }),
      status: 401,
      code: 'sessionTokenInvalid',
      title: 'Invalid session token',
      detail:
        'The session token is not valid for this service. Mint a new one with your API key (POST /v1/console/session-tokens).',
      classifiedAs: 'sessionTokenInvalid',
    },
    {
      name: 'a token already used',
      headers: async () => {
        const token = await mintToken(service);
        const first = await TestClient.open(service, token);
        first.close();
        await first.closed;
        return { 'X-App-ID': APP_ID, 'X-Session-Key': token };
      },
      status: 401,
      code: 'sessionTokenInvalid',
      title: 'Invalid session token',
      detail:
        'This session token was already used. Session tokens are single-use: mint a new one for each connection (or set the token policy to sequential: PUT /v1/console/token-policy).',
      classifiedAs: 'sessionTokenInvalid',
    },
    {
      name: 'an expired token',
      headers: async () => ({
        'X-App-ID': APP_ID,
        'X-Session-Key': (
          await new SessionTokens(SIGNING_KEY).mint(APP_ID, Math.floor(Date.now() / 1000) - 5)
        ).token,
      }),
      status: 401,
      code: 'sessionTokenExpired',
      title: 'Session token expired',
      detail:
        'The session token has expired. Mint a new one (POST /v1/console/session-tokens) and connect again.',
      classifiedAs: 'sessionTokenExpired',
    },
    {
      name: 'an app id other than the token’s',
      headers: async () => ({ 'X-App-ID': OTHER_APP_ID, 'X-Session-Key': await mintToken(service) }),
      status: 400,
      code: 'appIDMismatch',
      title: 'App id mismatch',
      detail:
        'app id mismatch: the app id does not match the session token. Use the app id the token was minted for.',
      classifiedAs: 'appIDMismatch',
    },
    {
      name: 'an unknown avatar',
      headers: async () => ({ 'X-App-ID': APP_ID, 'X-Session-Key': await mintToken(service) }),
      avatarId: 'nobody',
      status: 404,
      code: 'avatarNotFound',
      title: 'Avatar not found',
      detail: 'Avatar "nobody" does not exist here. GET /v1/console/avatars lists the avatars.',
      classifiedAs: 'other',
    },
  ];

  it.each(golden)('$name', async (g) => {
    const refusal = await refusedUpgrade(await g.headers(), g.avatarId);
    expect(refusal.status).toBe(g.status);
    expect(refusal.body).toEqual({
      errors: [{ status: g.status, code: g.code, title: g.title, detail: g.detail }],
    });
    const [entry] = refusal.body.errors;
    expect(classify(`${entry!.title}: ${entry!.detail}`)).toBe(g.classifiedAs);
  });
});

describe('ServerError refusals: close code and message', () => {
  it('an unsupported sample rate', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(11025);
    const error = await client.waitFor((m) => m.data.case === 'serverError');
    expect(error.data.case === 'serverError' && error.data.value).toMatchObject({
      code: 4006,
      message:
        'unsupportedSampleRate: unsupported sample rate 11025 Hz. Use 8000, 16000, 22050, 24000, 32000, 44100 or 48000 Hz, or leave sample_rate unset for 16000.',
    });
    expect(classify(error.data.case === 'serverError' ? error.data.value.message : '')).toBe(
      'unsupportedSampleRate',
    );
    expect((await client.closed).code).toBe(4006);
  });

  it('an unset sample_rate is the default 16000 Hz, not a refusal', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(0); // proto3: 0 is "not set"
    await client.confirmed();
    // 400 ms at 16 kHz = 6400 samples: played_ms says which rate the service assumed.
    client.audio('unset-rate', tone(400, 16000), true);
    await client.waitFor(
      (m) => m.data.case === 'serverPlaybackState' && m.data.value.state === wire.PlaybackState.ENDED,
    );
    expect(states(client, 'unset-rate').map((s) => Number(s.playedMs))).toEqual([0, 400]);
    expect(client.inbox.some((m) => m.data.case === 'serverError')).toBe(false);
    client.close();
  });
});

describe('session-token expireAt: now < expireAt < now + 24 h, both strict', () => {
  async function mint(offsetSeconds: number) {
    // Start at the beginning of a second, so the service's "now" is the same second as ours.
    while (Date.now() % 1000 > 200) await sleep(20);
    const now = Math.floor(Date.now() / 1000);
    const response = await fetch(`${service.url}/v1/console/session-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ expireAt: now + offsetSeconds }),
    });
    return { now, status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it.each([
    ['now', 400, 0],
    ['now + 1 s', 200, 1],
    ['now + 24 h - 1 s', 200, 86_399],
    ['now + 24 h', 400, 86_400],
  ])('expireAt = %s → %i', async (_name, status, offset) => {
    const r = await mint(offset);
    expect(r.status).toBe(status);
    if (status === 200) {
      expect(r.body.expireAt).toBe(r.now + offset);
      return;
    }
    expect(r.body).toEqual({
      errors: [
        {
          status: 400,
          code: 'invalidRequest',
          title: 'Invalid request',
          detail: `expireAt must be an epoch time in seconds after now (${r.now}) and less than 24 h ahead (< ${r.now + 86_400}); got ${r.now + offset}.`,
        },
      ],
    });
  });
});
