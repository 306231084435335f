import { describe, expect, it } from 'vitest';
import {
  AvatarError,
  attemptDelay,
  backoffDelay,
  connectWithFallback,
  DEFAULT_RECONNECT_POLICY,
  resolveReconnectPolicy,
  shouldReconnectAfterDrop,
} from '../src/index.js';

const policy = resolveReconnectPolicy({ initialDelayMs: 100, maxDelayMs: 1000 });
const endpoints = [{ region: 'east' }, { region: 'west' }];

describe('reconnect policy', () => {
  it('doubles, caps, and jitters within [1 − jitter, 1] of the step', () => {
    expect([0, 1, 2, 3, 4, 10].map((s) => backoffDelay(s, policy, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelay(2, policy, () => 0)).toBe(200);
    expect(backoffDelay(2, { ...policy, jitter: 0 }, () => 0)).toBe(400);
  });

  it('waits only at the start of each round after the first', () => {
    expect([0, 1, 2, 3, 4, 5].map((a) => attemptDelay(a, 2, policy, () => 1))).toEqual([
      0, 0, 100, 0, 200, 0,
    ]);
    expect([0, 1, 2, 3].map((a) => attemptDelay(a, 1, policy, () => 1))).toEqual([0, 100, 200, 400]);
  });

  it('rejects a bad policy with a message naming the field', () => {
    expect(() => resolveReconnectPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => resolveReconnectPolicy({ jitter: 2 })).toThrow(/jitter/);
    expect(resolveReconnectPolicy()).toEqual(DEFAULT_RECONNECT_POLICY);
  });

  it('falls back to the next region on a retryable failure, never retries 40xx', async () => {
    const tried: string[] = [];
    const result = await connectWithFallback({
      endpoints,
      policy,
      sleep: async () => undefined,
      attempt: async (e) => {
        tried.push(e.region);
        if (e.region === 'east') throw AvatarError.fromClose(4503, 'down');
        return e.region;
      },
    });
    expect(result).toBe('west');
    expect(tried).toEqual(['east', 'west']);

    tried.length = 0;
    const error = await connectWithFallback({
      endpoints,
      policy,
      sleep: async () => undefined,
      attempt: async (e) => {
        tried.push(e.region);
        throw AvatarError.fromClose(4010, 'bad token');
      },
    }).catch((e: AvatarError) => e);
    expect(error).toMatchObject({ code: 'sessionTokenInvalid', closeCode: 4010, retryable: false });
    expect(tried).toEqual(['east']);
  });

  it('gives up after maxAttempts with the last failure, waiting between rounds', async () => {
    const waits: number[] = [];
    const error = await connectWithFallback({
      endpoints,
      policy: { ...policy, maxAttempts: 5 },
      random: () => 1,
      sleep: async (ms) => {
        waits.push(ms);
      },
      attempt: async () => {
        throw AvatarError.fromClose(1006, '');
      },
    }).catch((e: AvatarError) => e);
    expect(error).toMatchObject({ code: 'connectionClosed', closeCode: 1006, retryable: true });
    expect((error as AvatarError).message).toMatch(/gave up after 5 attempts at regions east, west\)/);
    expect(waits).toEqual([100, 200]);
  });

  it('names explicit endpoints as such when it gives up, not by their placeholder region', async () => {
    const fail = async () => {
      throw AvatarError.fromClose(1006, '');
    };
    const only = await connectWithFallback({
      endpoints: [{ region: 'custom' }],
      policy: { ...policy, maxAttempts: 2 },
      sleep: async () => {},
      attempt: fail,
    }).catch((e: AvatarError) => e);
    expect((only as AvatarError).message).toMatch(
      /gave up after 2 attempts at the endpoint you configured\)$/,
    );
    const withBackup = await connectWithFallback({
      endpoints: [{ region: 'custom' }, { region: 'us-west' }],
      policy: { ...policy, maxAttempts: 2 },
      sleep: async () => {},
      attempt: fail,
    }).catch((e: AvatarError) => e);
    expect((withBackup as AvatarError).message).toMatch(
      /gave up after 2 attempts at the endpoint you configured and region us-west\)$/,
    );
  });

  it('stops when the caller closes', async () => {
    let closed = false;
    const stop = new Error('closed');
    const error = await connectWithFallback({
      endpoints,
      policy,
      sleep: async () => {
        closed = true;
      },
      checkStopped: () => {
        if (closed) throw stop;
      },
      attempt: async () => {
        throw AvatarError.fromClose(4503, '');
      },
    }).catch((e: unknown) => e);
    expect(error).toBe(stop);
  });

  it('reconnects after a drop only when retryable and a fresh token can be had', () => {
    expect(shouldReconnectAfterDrop(AvatarError.fromClose(4503, ''), true)).toBe(true);
    expect(shouldReconnectAfterDrop(AvatarError.fromClose(4503, ''), false)).toBe(false);
    expect(shouldReconnectAfterDrop(AvatarError.fromClose(4003, ''), true)).toBe(false);
  });
});
