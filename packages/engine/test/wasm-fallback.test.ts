/** A build without the WebAssembly module (no clang): auto runs TypeScript, wasm says why it cannot. */
import { isAvatarError } from '@avatar-drive/core';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../src/gen/engine-wasm.js', () => ({ ENGINE_WASM_BASE64: null }));

const { createDriver } = await import('../src/driver.js');

describe('engine built without clang', () => {
  it('runs the TypeScript path under auto and refuses wasm with a typed error', () => {
    const driver = createDriver({ sampleRate: 16000 });
    expect(driver.backend).toBe('js');
    expect(driver.push(new Int16Array(16000)).length).toBeGreaterThan(0);
    driver.close();
    let error: unknown;
    try {
      createDriver({ sampleRate: 16000, backend: 'wasm' });
    } catch (e) {
      error = e;
    }
    expect(isAvatarError(error) && error.code).toBe('invalidRequest');
    expect((error as Error).message).toMatch(/built without clang/);
  });
});
