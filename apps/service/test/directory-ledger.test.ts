import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirectoryLedger } from '../src/store/directory-ledger.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { StoreUnavailableError } from '../src/store/shared-store.js';

// A token's id and expiry are both fixed by its signature, so every use presents the same pair.
const IN_AN_HOUR = (Math.floor(Date.now() / 1000) + 3600) * 1000;

describe('DirectoryLedger (the embedded default’s shared single-use ledger)', () => {
  it('lets exactly one of several stores sharing the directory take a token, however many race', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'avd-ledger-')), 'used-tokens');
    const stores = [new MemoryStore({ tokenLedgerDir: dir }), new MemoryStore({ tokenLedgerDir: dir })];
    const jti = '6f1d3c52-0d7e-4b9e-9a51-2f1f5e1c9a10';
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => stores[i % 2]!.consumeToken(jti, IN_AN_HOUR)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await stores[1]!.consumeToken('another-token', IN_AN_HOUR)).toBe(true);
    expect(await stores[0]!.consumeToken('another-token', IN_AN_HOUR)).toBe(false);
    // A store without the directory keeps its own ledger (what each region had before).
    expect(await new MemoryStore().consumeToken(jti, IN_AN_HOUR)).toBe(true);
    for (const store of stores) await store.close();
  });

  it('sequential use: one holder at a time across stores, free again on release or when its process is gone', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'avd-ledger-')), 'used-tokens');
    const [a, b] = [new MemoryStore({ tokenLedgerDir: dir }), new MemoryStore({ tokenLedgerDir: dir })];
    const jti = 'seq-token';
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => [a, b][i % 2]!.claimToken(jti, IN_AN_HOUR, 'app', `s${i}`)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const holder = `s${claims.indexOf(true)}`;
    await b.releaseToken(jti, 'not-the-holder');
    expect(await b.claimToken(jti, IN_AN_HOUR, 'app', 'next')).toBe(false);
    await a.releaseToken(jti, holder);
    expect(await b.claimToken(jti, IN_AN_HOUR, 'app', 'next')).toBe(true);
    // An entry left by a process that no longer exists does not hold the token.
    const [name] = (await readdir(dir)).filter((n) => n.endsWith('-seq-token'));
    await writeFile(join(dir, name!), '2147483646 crashed-session');
    expect(await a.claimToken(jti, IN_AN_HOUR, 'app', 'after-crash')).toBe(true);
    // A token spent single-use is not reopened sequentially.
    expect(await a.consumeToken('spent', IN_AN_HOUR)).toBe(true);
    expect(await b.claimToken('spent', IN_AN_HOUR, 'app', 'x')).toBe(false);
    // The policy is shared through the directory too.
    expect(await b.tokenPolicy('app')).toBe('single');
    await a.setTokenPolicy('app', 'sequential');
    expect(await b.tokenPolicy('app')).toBe('sequential');
    for (const store of [a, b]) await store.close();
  });

  it('sequential use in one process (no directory): spent single-use stays spent, release frees', async () => {
    const store = new MemoryStore();
    expect(await store.consumeToken('spent', IN_AN_HOUR)).toBe(true);
    expect(await store.claimToken('spent', IN_AN_HOUR, 'app', 'x')).toBe(false);
    expect(await store.acquireSession('app', 'one', 5)).toBe(true);
    expect(await store.claimToken('t', IN_AN_HOUR, 'app', 'one')).toBe(true);
    expect(await store.claimToken('t', IN_AN_HOUR, 'app', 'two')).toBe(false);
    // A holder whose session slot is gone no longer holds it, even without a release.
    await store.releaseSession('app', 'one');
    expect(await store.claimToken('t', IN_AN_HOUR, 'app', 'two')).toBe(true);
    await store.releaseToken('t', 'two');
    expect(await store.claimToken('t', IN_AN_HOUR, 'app', 'three')).toBe(true);
    await store.close();
  });

  it('keeps ids that are not plain names inside its directory', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'avd-ledger-')), 'used-tokens');
    const ledger = new DirectoryLedger(dir);
    expect(await ledger.consume('../../escape', IN_AN_HOUR)).toBe(true);
    expect(await ledger.consume('../../escape', IN_AN_HOUR)).toBe(false);
    const names = await readdir(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\d+-[0-9a-f]{64}$/);
    ledger.close();
  });

  it('recreates its directory when it was removed while running', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'avd-ledger-')), 'used-tokens');
    const ledger = new DirectoryLedger(dir);
    expect(await ledger.consume('first', IN_AN_HOUR)).toBe(true);
    await rm(dir, { recursive: true });
    expect(await ledger.consume('second', IN_AN_HOUR)).toBe(true);
    expect(await ledger.consume('second', IN_AN_HOUR)).toBe(false);
    ledger.close();
  });

  it('prunes entries of tokens expired more than a minute ago, and only those', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'avd-ledger-')), 'used-tokens');
    const ledger = new DirectoryLedger(dir);
    const now = Date.now();
    await ledger.consume('long-gone', now - 120_000);
    await ledger.consume('just-expired', now - 1_000);
    await ledger.consume('live', now + 60_000);
    await ledger.prune(now);
    expect((await readdir(dir)).map((n) => n.slice(n.indexOf('-') + 1)).sort()).toEqual([
      'just-expired',
      'live',
    ]);
    ledger.close();
  });

  it('reports a directory it cannot use as the store being unavailable (new sessions get 4503)', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'avd-ledger-'));
    await writeFile(join(parent, 'not-a-dir'), 'x');
    const store = new MemoryStore({ tokenLedgerDir: join(parent, 'not-a-dir', 'used-tokens') });
    await expect(store.consumeToken('t', IN_AN_HOUR)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    await store.close();
  });
});
