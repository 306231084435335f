/**
 * FileAssetStore's bookkeeping over the harness's in-memory stand-in for expo-file-system (the
 * real library needs a device): assets by hash, per-avatar indexes, `clear(id)` keeping assets
 * another avatar still uses, `clearAll()`, no partial file left behind.
 */

// Resolved to the harness's stand-in by vitest.config.ts (the real module needs a device).
import { Directory, Paths } from 'expo-file-system';
import { describe, expect, it } from 'vitest';
import { FileAssetStore } from '../../src/file-asset-store.js';

const bytes = (...values: number[]) => Uint8Array.from(values).buffer;
const hash = (c: string) => c.repeat(64);

describe('FileAssetStore', () => {
  it('stores by hash, keeps shared assets on clear(id), empties on clearAll()', async () => {
    const root = new Directory(Paths.cache, 'unit-store');
    const store = new FileAssetStore(root);
    expect(store.persistent).toBe(true);
    await store.put(hash('a'), bytes(1, 2, 3));
    await store.put(hash('b'), bytes(4));
    await store.put(hash('c'), bytes(5, 6));
    await store.setIndex('mika', [hash('a'), hash('b')]);
    await store.setIndex('juno', [hash('b'), hash('c')]);
    expect(new Uint8Array((await store.get(hash('a')))!)).toEqual(Uint8Array.from([1, 2, 3]));
    expect(await store.get(hash('d'))).toBeUndefined();
    // No temporary file survives a put.
    const names = new Directory(root, 'asset').list().map((f) => f.uri.split('/').pop());
    expect(names.sort()).toEqual([hash('a'), hash('b'), hash('c')]);

    await store.clear('mika');
    expect(await store.get(hash('a'))).toBeUndefined();
    expect(await store.get(hash('b'))).toBeDefined(); // juno still uses it
    expect(await store.get(hash('c'))).toBeDefined();

    // A second store over the same directory sees what the first wrote (an app relaunch).
    const relaunched = new FileAssetStore(root);
    expect(new Uint8Array((await relaunched.get(hash('c')))!)).toEqual(Uint8Array.from([5, 6]));
    await relaunched.clearAll();
    expect(await relaunched.get(hash('b'))).toBeUndefined();
    expect(await relaunched.get(hash('c'))).toBeUndefined();
    await relaunched.put(hash('e'), bytes(7));
    expect(await relaunched.get(hash('e'))).toBeDefined();
  });
});
