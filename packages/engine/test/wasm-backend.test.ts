/**
 * The WebAssembly SIMD backend against the TypeScript one: the same frames within the tolerance on
 * real speech at every rate, its own ln, acos and exp within 2 units in the last place, many
 * drivers sharing one module, and slots freed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DriveFrame, FRAME_LAYOUT, isAvatarError, resample } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { createDriver, type Driver } from '../src/driver.js';
import { parseModelWeights, serializeModelWeights } from '../src/model.js';
import { wasmEngine, wasmUnavailableReason } from '../src/wasm/runtime.js';
import { defaultModelWeights } from '../src/weights.js';
import { espeak, noise, random, run } from './helpers.js';

/**
 * The tolerance between the backends, per value of every frame field. The features, trackers and
 * pitch compute the same operations in the same precision and order (only ln and acos are the
 * module's own, ≤ 2 ulp of a double, tested below), so everything that decides a threshold
 * (speech gating, noise floor, pitch) is the same. The MLP sums in float32 lanes instead of
 * doubles and the softmax uses the module's exp: that moves the posteriors by float32 rounding
 * (≈ 1e-6 seen), and the posteriors reach the frame only through continuous operations (gating,
 * smoothing, max, the pose mix, whose one cut-off at 1e-4 moves a value by at most 1e-4 · 0.8), so
 * nothing can amplify it to this.
 */
const TOLERANCE = 1e-4;
const FIELDS = Object.keys(FRAME_LAYOUT) as (keyof typeof FRAME_LAYOUT)[];

function maxDelta(a: DriveFrame[], b: DriveFrame[]): Record<string, number> {
  expect(b.length).toBe(a.length);
  const worst: Record<string, number> = {};
  for (const field of FIELDS) worst[field] = 0;
  for (let i = 0; i < a.length; i++) {
    expect(b[i]!.index).toBe(a[i]!.index);
    for (const field of FIELDS) {
      const x = a[i]![field];
      const y = b[i]![field];
      for (let j = 0; j < x.length; j++) worst[field] = Math.max(worst[field]!, Math.abs(x[j]! - y[j]!));
    }
  }
  return worst;
}

let sentences: Int16Array | undefined;
let sentencesRate = 0;

/** Two sentences of espeak-ng speech with a noisy pause between them, at `rate`. */
function speech(rate: number): Int16Array {
  if (sentences === undefined) [sentences, sentencesRate] = synthesise();
  return resample(sentences, sentencesRate, rate);
}

function synthesise(): [Int16Array, number] {
  const a = espeak('The quick brown fox jumps over the lazy dog, and then it rests.');
  const b = espeak('Please bring me my blue shoes from the market by noon.', 'en-gb');
  const pause = noise(Math.round(0.4 * a.sampleRate), 0.003, 7);
  const all = new Int16Array(a.pcm.length + pause.length + b.pcm.length);
  all.set(a.pcm, 0);
  all.set(pause, a.pcm.length);
  all.set(resample(b.pcm, b.sampleRate, a.sampleRate), a.pcm.length + pause.length);
  return [all, a.sampleRate];
}

function drive(
  backend: 'wasm' | 'js',
  rate: number,
  pcm: Int16Array,
  chunk: number | (() => number),
): DriveFrame[] {
  const driver = createDriver({ sampleRate: rate, backend });
  expect(driver.backend).toBe(backend);
  // Two utterances (the second keeps the adaptation), then a reset and a third.
  const frames = [...run(driver, pcm, chunk), ...run(driver, pcm.subarray(0, pcm.length >> 1), chunk)];
  driver.reset();
  frames.push(...run(driver, pcm.subarray(pcm.length >> 2), chunk));
  driver.close();
  return frames;
}

// Bounded work, but a shared CI machine can be slow: generous per-test time.
describe('WebAssembly backend', { timeout: 120_000 }, () => {
  it('is built and available here (clang and lld are installed by setup)', () => {
    expect(wasmUnavailableReason()).toBe('');
    expect(createDriver({ sampleRate: 16000 }).backend).toBe('wasm');
    expect(createDriver({ sampleRate: 16000, backend: 'js' }).backend).toBe('js');
  });

  for (const rate of [8000, 16000, 22050, 24000, 32000, 44100, 48000]) {
    it(`gives the TypeScript path's frames on real speech at ${rate} Hz`, () => {
      const pcm = speech(rate);
      const r = random(rate);
      const js = drive('js', rate, pcm, rate / 50);
      const wasm = drive('wasm', rate, pcm, () => Math.floor(r() * 3000));
      expect(js.length).toBeGreaterThan(300);
      // Speech moved the mouth, so the comparison covers real model output.
      expect(Math.max(...js.map((f) => f.jawPose[0]!))).toBeGreaterThan(0.05);
      const worst = maxDelta(js, wasm);
      for (const field of FIELDS) expect(worst[field], field).toBeLessThanOrEqual(TOLERANCE);
    });
  }

  it('keeps drivers apart when many share the module, interleaved chunk by chunk', () => {
    const rates = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
    const base = speech(16000).subarray(0, 16000 * 2);
    const inputs = rates.map((rate) => resample(base, 16000, rate));
    const drivers: Driver[] = rates.map((rate) => createDriver({ sampleRate: rate, backend: 'wasm' }));
    const together: DriveFrame[][] = rates.map(() => []);
    const steps = Math.ceil(inputs[0]!.length / (8000 / 50));
    for (let s = 0; s < steps; s++) {
      drivers.forEach((d, i) => {
        const step = rates[i]! / 50;
        together[i]!.push(...d.push(inputs[i]!.subarray(s * step, (s + 1) * step)));
      });
    }
    drivers.forEach((d, i) => {
      together[i]!.push(...d.end());
      d.close();
      const alone = run(createDriver({ sampleRate: rates[i]!, backend: 'js' }), inputs[i]!, rates[i]! / 50);
      const worst = maxDelta(alone, together[i]!);
      for (const field of FIELDS) expect(worst[field], `${rates[i]} ${field}`).toBeLessThanOrEqual(TOLERANCE);
    });
  });

  it("frees a closed driver's slot: 10,000 sessions leave the heap where one left it", () => {
    const engine = wasmEngine()!;
    const pcm = speech(16000).subarray(0, 16000 / 5);
    const first = createDriver({ sampleRate: 16000, backend: 'wasm' });
    first.push(pcm);
    first.close();
    const before = engine.stats();
    for (let i = 0; i < 10000; i++) {
      const driver = createDriver({ sampleRate: i % 2 ? 16000 : 48000, backend: 'wasm' });
      driver.push(pcm);
      driver.close();
      driver.close(); // idempotent
    }
    const after = engine.stats();
    expect(after.liveBlocks).toBe(before.liveBlocks);
    // One 48 kHz slot more at most (the first session was 16 kHz), not 10,000.
    expect(after.heapBytes - before.heapBytes).toBeLessThan(32 * 1024);
    expect(after.memoryBytes).toBe(before.memoryBytes);
  });

  it("frees a custom model's tables with its last driver, and keeps the bundled one placed", () => {
    const engine = wasmEngine()!;
    const bytes = serializeModelWeights(defaultModelWeights());
    createDriver({ sampleRate: 16000, backend: 'wasm' }).close(); // the bundled model placed
    const before = engine.stats().liveBlocks;
    for (let i = 0; i < 3; i++) {
      const custom = parseModelWeights(bytes); // a new weights object each time
      const a = createDriver({ sampleRate: 16000, backend: 'wasm', weights: custom });
      const b = createDriver({ sampleRate: 16000, backend: 'wasm', weights: custom });
      const placed = engine.stats().liveBlocks;
      expect(placed).toBeGreaterThan(before + 2); // two slots and the model's blocks
      a.close();
      expect(engine.stats().liveBlocks).toBe(placed - 1); // b still uses the model
      b.close();
      expect(engine.stats().liveBlocks).toBe(before);
    }
    createDriver({ sampleRate: 16000, backend: 'wasm' }).close();
    expect(engine.stats().liveBlocks).toBe(before);
  });

  it('refuses a closed driver with a typed error', () => {
    const driver = createDriver({ sampleRate: 16000, backend: 'wasm' });
    driver.close();
    let error: unknown;
    try {
      driver.push(new Int16Array(320));
    } catch (e) {
      error = e;
    }
    expect(isAvatarError(error) && error.code).toBe('invalidRequest');
  });

  it('rejects an unknown backend', () => {
    expect(() => createDriver({ sampleRate: 16000, backend: 'gpu' as 'js' })).toThrow(/backend must be/);
  });

  it('has ln within 2 ulp of Math.log over the range the features use', () => {
    const ex = wasmEngine()!.exports;
    const r = random(1);
    let worst = 0;
    for (let i = 0; i < 200000; i++) {
      const x = Math.exp((r() - 0.5) * 80); // e^-40 .. e^40
      const want = Math.log(x);
      const ulp = want === 0 ? Number.MIN_VALUE : 2 ** (Math.floor(Math.log2(Math.abs(want))) - 52);
      worst = Math.max(worst, Math.abs(ex.test_ln(x) - want) / ulp);
    }
    for (const x of [1, 2, 0.5, Math.SQRT2, Math.SQRT1_2, 1e-10, 1 + 2 ** -52, 1 - 2 ** -53]) {
      const want = Math.log(x);
      expect(Math.abs(ex.test_ln(x) - want)).toBeLessThanOrEqual(Math.abs(want) * 2 ** -51);
    }
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('has acos within 2 ulp of Math.acos on [-1, 1]', () => {
    const ex = wasmEngine()!.exports;
    const r = random(2);
    let worst = 0;
    for (let i = 0; i < 200000; i++) {
      const x = i < 100 ? [-1, 1, 0, 0.5, -0.5][i % 5]! : 2 * r() - 1;
      const want = Math.acos(x);
      const ulp = want === 0 ? Number.MIN_VALUE : 2 ** (Math.floor(Math.log2(want)) - 52);
      worst = Math.max(worst, Math.abs(ex.test_acos(x) - want) / ulp);
    }
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('has exp within 2 ulp of Math.exp over the softmax range', () => {
    const ex = wasmEngine()!.exports;
    const r = random(3);
    let worst = 0;
    for (let i = 0; i < 200000; i++) {
      const x = i < 4 ? [0, -Math.LN2, -0.5 * Math.LN2, -1e-300][i]! : -(r() ** 2) * 700;
      const want = Math.exp(x);
      const ulp = 2 ** (Math.floor(Math.log2(want)) - 52);
      worst = Math.max(worst, Math.abs(ex.test_exp(x) - want) / ulp);
    }
    expect(worst).toBeLessThanOrEqual(2);
    // Far below, 0: a softmax term that small is 0 in float32 and adds nothing to a sum ≥ 1.
    expect(ex.test_exp(-701)).toBe(0);
  });

  it('builds without clang: the TypeScript path only, said so', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'engine-wasm-test-')), 'engine-wasm.ts');
    const script = join(import.meta.dirname, '..', 'scripts', 'build-wasm.mjs');
    const result = spawnSync(process.execPath, [script], {
      encoding: 'utf8',
      env: { ...process.env, CLANG: '/nonexistent/clang', ENGINE_WASM_OUT: out },
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/TypeScript path only/);
    expect(readFileSync(out, 'utf8')).toMatch(/ENGINE_WASM_BASE64: string \| null = null;/);
  });
});
