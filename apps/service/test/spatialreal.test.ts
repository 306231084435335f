/**
 * Interop: the public `spatialreal` Python SDK (installed by scripts/setup.sh into .venv) streams a
 * WAV to this service and receives ordered animation ending in end=true.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { wire } from '@avatar-drive/core';
import { fromBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRepoRoot } from '../src/config.js';
import type { RunningService } from '../src/service.js';
import { API_KEY, APP_ID, AVATAR_ID, makeAvatarsDir, startTestService } from './support/harness.js';

const run = promisify(execFile);
const python = process.env.AVATAR_DRIVE_PYTHON ?? join(findRepoRoot(import.meta.dirname), '.venv/bin/python');
let service: RunningService;

beforeAll(async () => {
  service = await startTestService({ avatarsDir: await makeAvatarsDir() });
});
afterAll(async () => {
  await service?.close();
});

/** A mono 16-bit WAV of speech-like sound: syllables of a two-formant vowel. */
function speechWav(seconds: number, sampleRate: number): Buffer {
  const n = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const envelope = Math.max(0, Math.sin(Math.PI * 4 * t)) ** 0.5;
    const voice = Math.sin(2 * Math.PI * 700 * t) * 0.6 + Math.sin(2 * Math.PI * 1200 * t) * 0.3;
    data.writeInt16LE(
      Math.round(envelope * voice * 9000 * (1 + 0.2 * Math.sin(2 * Math.PI * 130 * t))),
      i * 2,
    );
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

interface SdkRun {
  connection_id: string;
  capabilities: string[];
  req_id: string;
  frames: { bytes: string; last: boolean }[];
  states: { req_id: string; state: string; played_ms: number }[];
  errors: string[];
}

describe('spatialreal Python SDK', () => {
  it('streams a WAV and receives ordered animation ending in end (header and query auth)', async () => {
    expect(existsSync(python), `${python} missing: run bash scripts/setup.sh`).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'avd-sdk-'));
    const wav = join(dir, 'speech.wav');
    await writeFile(wav, speechWav(1.2, 24000));
    const { stdout } = await run(
      python,
      [
        join(import.meta.dirname, 'python/stream_wav.py'),
        '--console-url',
        service.url,
        '--ingress-url',
        service.ingressUrl,
        '--app-id',
        APP_ID,
        '--avatar-id',
        AVATAR_ID,
        '--wav',
        wav,
      ],
      { env: { ...process.env, AVATAR_DRIVE_API_KEY: API_KEY }, timeout: 60_000 },
    );
    const results = JSON.parse(stdout) as Record<'headers' | 'query', SdkRun>;
    for (const result of Object.values(results)) {
      expect(result.errors).toEqual([]);
      expect(result.connection_id).toMatch(/^conn_/);
      expect(result.capabilities).toEqual(['playback_control', 'playback_state']);
      const messages = result.frames.map((f) =>
        fromBinary(wire.MessageSchema, Buffer.from(f.bytes, 'base64')),
      );
      const animations = messages.map((m) => {
        if (m.data.case !== 'serverResponseAnimation') throw new Error(`unexpected ${m.data.case}`);
        return m.data.value;
      });
      expect(animations.every((a) => a.reqId === result.req_id)).toBe(true);
      // Ordered: only the last one ends, and together they cover the audio at 25 fps.
      expect(animations.at(-1)!.end).toBe(true);
      expect(result.frames.at(-1)!.last).toBe(true);
      expect(animations.slice(0, -1).some((a) => a.end)).toBe(false);
      const keyframes = animations.flatMap((a) => a.animation?.keyframes ?? []);
      expect(keyframes).toHaveLength(30); // 1.2 s × 25 fps
      expect(keyframes.every((k) => k.expression.length === 52)).toBe(true);
      expect(result.states.map((s) => s.state)).toEqual(['playing', 'ended']);
      expect(result.states[1]!.played_ms).toBe(1200);
    }
  });
});
