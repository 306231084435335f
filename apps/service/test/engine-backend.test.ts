/**
 * The engine backend through the real service: a session's frames are the same whether the service
 * runs the engine's WebAssembly SIMD path or its TypeScript path, and `--engine-backend` /
 * AVATAR_DRIVE_ENGINE_BACKEND choose between them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARKIT_BLENDSHAPES, parseWav, resample, wavToMonoInt16, type wire } from '@avatar-drive/core';
import { createDriver } from '@avatar-drive/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config.js';
import type { RunningService } from '../src/service.js';
import { animations, makeAvatarsDir, mintToken, startTestService, TestClient } from './support/harness.js';

/** The engine's stated tolerance between its backends (packages/engine/test/wasm-backend.test.ts). */
const TOLERANCE = 1e-4;
const JAW_OPEN = ARKIT_BLENDSHAPES.indexOf('jawOpen');

function speech(rate: number): Int16Array {
  const dir = mkdtempSync(join(tmpdir(), 'engine-backend-'));
  try {
    const file = join(dir, 'speech.wav');
    const run = spawnSync('espeak-ng', [
      '-v',
      'en-us',
      '-w',
      file,
      'Maybe we should meet at the old bridge.',
    ]);
    if (run.status !== 0)
      throw new Error(`espeak-ng failed (bash scripts/setup.sh installs it): ${run.stderr}`);
    const wav = parseWav(readFileSync(file));
    return resample(wavToMonoInt16(wav), wav.sampleRate, rate);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const services: Partial<Record<'wasm' | 'js', RunningService>> = {};
beforeAll(async () => {
  const avatarsDir = await makeAvatarsDir();
  for (const backend of ['wasm', 'js'] as const) {
    services[backend] = await startTestService({
      avatarsDir,
      extra: { engine: { driverFactory: createDriver, backend } },
    });
  }
});
afterAll(async () => {
  await services.wasm?.close();
  await services.js?.close();
});

async function session(service: RunningService, rate: number, pcm: Int16Array): Promise<wire.Flame[]> {
  const client = await TestClient.open(service, await mintToken(service));
  client.configure(rate);
  await client.confirmed();
  const chunk = rate / 50;
  for (let i = 0; i < pcm.length; i += chunk) client.audio('u1', pcm.subarray(i, i + chunk));
  client.audio('u1', new Int16Array(0), true);
  await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end, 15_000);
  const frames = animations(client, 'u1').flatMap((a) => a.animation?.keyframes ?? []);
  client.close();
  return frames;
}

describe('engine backend in the service', () => {
  it('gives the same frames on the WebAssembly and the TypeScript engine, at 16 and 48 kHz', async () => {
    for (const rate of [16000, 48000]) {
      const pcm = speech(rate);
      const wasm = await session(services.wasm!, rate, pcm);
      const js = await session(services.js!, rate, pcm);
      expect(wasm.length).toBe(Math.ceil((pcm.length / rate) * 25));
      expect(js.length).toBe(wasm.length);
      let worst = 0;
      let jaw = 0;
      for (let f = 0; f < wasm.length; f++) {
        for (const key of ['visemes', 'expression'] as const) {
          const a = wasm[f]![key];
          const b = js[f]![key];
          for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
        }
        jaw = Math.max(jaw, js[f]!.expression[JAW_OPEN]!);
      }
      expect(jaw, 'speech moved the mouth').toBeGreaterThan(0.05);
      expect(worst, `${rate} Hz`).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  it('takes --engine-backend or AVATAR_DRIVE_ENGINE_BACKEND, and refuses anything else', async () => {
    const env = {
      AVATAR_DRIVE_APPS: JSON.stringify([{ appId: 'app_x', apiKeyHashes: [] }]),
      AVATAR_DRIVE_SIGNING_KEY: Buffer.alloc(32, 7).toString('base64url'),
    };
    const backendOf = async (argv: string[], extra: Record<string, string> = {}) => {
      const resolved = await resolveConfig(argv, { ...env, ...extra });
      if ('help' in resolved) throw new Error('unexpected help');
      return resolved.options.engine?.backend;
    };
    expect(await backendOf([])).toBeUndefined();
    expect(await backendOf(['--engine-backend', 'js'])).toBe('js');
    expect(await backendOf([], { AVATAR_DRIVE_ENGINE_BACKEND: 'wasm' })).toBe('wasm');
    expect(await backendOf(['--engine-backend', 'auto'], { AVATAR_DRIVE_ENGINE_BACKEND: 'js' })).toBe('auto');
    await expect(backendOf(['--engine-backend', 'gpu'])).rejects.toThrow(/must be auto, wasm or js/);
  });
});
