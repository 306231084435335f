import { describe, expect, it } from 'vitest';
import { refusedUpgradeError, tokenExpiry, upgradeStatus } from '../src/index.js';

const endpoint = {
  region: 'east',
  consoleUrl: 'http://127.0.0.1:1',
  ingressUrl: 'ws://127.0.0.1:1/v2/driveningress',
};
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.sig`;

describe('refused upgrades', () => {
  it('reads the HTTP status from ws, OkHttp and SocketRocket error texts; nothing from a browser event', () => {
    expect(upgradeStatus({ message: 'Unexpected server response: 401' })).toBe(401);
    expect(upgradeStatus({ message: "Expected HTTP 101 response but was '404 Not Found'" })).toBe(404);
    expect(upgradeStatus({ message: 'Received bad response code from server: 400.' })).toBe(400);
    expect(upgradeStatus({ type: 'error' })).toBeUndefined();
  });

  it('reads a JWT exp claim; anything else is unknown', () => {
    expect(tokenExpiry(jwt({ exp: 1700000000, sub: 'app' }))).toBe(1700000000);
    expect(tokenExpiry('opaque-token')).toBeUndefined();
    expect(tokenExpiry('a.%%%.c')).toBeUndefined();
  });

  it('names expired, invalid and missing-avatar refusals as final; 5xx and unknown stay retryable', () => {
    const now = 1_800_000_000;
    const expired = jwt({ exp: now - 5 });
    const fresh = jwt({ exp: now + 600 });
    expect(refusedUpgradeError(undefined, expired, endpoint, now)).toMatchObject({
      code: 'sessionTokenExpired',
      retryable: false,
    });
    expect(refusedUpgradeError(401, fresh, endpoint, now)).toMatchObject({
      code: 'sessionTokenInvalid',
      retryable: false,
      httpStatus: 401,
    });
    expect(refusedUpgradeError(404, fresh, endpoint, now)).toMatchObject({
      code: 'avatarNotFound',
      retryable: false,
    });
    expect(refusedUpgradeError(400, fresh, endpoint, now)).toMatchObject({
      code: 'invalidRequest',
      retryable: false,
    });
    expect(refusedUpgradeError(503, fresh, endpoint, now)).toMatchObject({ retryable: true });
    expect(refusedUpgradeError(undefined, fresh, endpoint, now)).toBeUndefined();
  });
});
