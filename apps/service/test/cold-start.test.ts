/**
 * A session's first words through the real service: speech that starts at sample 0 of the first
 * utterance (as a voice agent's TTS sends it) opens the avatar's mouth within 80 ms of its first
 * loud frame, at every input rate. The service makes a fresh driver per session, so this is the
 * cold start every user sees.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ARKIT_BLENDSHAPES,
  parseWav,
  resample,
  SUPPORTED_SAMPLE_RATES,
  VISEMES,
  wavToMonoInt16,
  type wire,
} from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import { animations, makeAvatarsDir, mintToken, startTestService, TestClient } from './support/harness.js';

const JAW_OPEN = ARKIT_BLENDSHAPES.indexOf('jawOpen');
const SIL = VISEMES.indexOf('sil');
const FRAME_MS = 40;

/** espeak-ng's "One, two, three." with its leading silence cut: speech from sample 0. */
function speechFromSampleZero(): { pcm: Int16Array; sampleRate: number } {
  const dir = mkdtempSync(join(tmpdir(), 'cold-start-'));
  try {
    const file = join(dir, 'speech.wav');
    const run = spawnSync('espeak-ng', ['-v', 'en-us', '-w', file, 'One, two, three.']);
    if (run.status !== 0)
      throw new Error(`espeak-ng failed (bash scripts/setup.sh installs it): ${run.stderr}`);
    const wav = parseWav(readFileSync(file));
    const pcm = wavToMonoInt16(wav);
    return { pcm: pcm.slice(pcm.findIndex((v) => Math.abs(v) > 100)), sampleRate: wav.sampleRate };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Start (ms) of the first 10 ms window at −35 dBFS RMS or louder. */
function firstLoudMs(pcm: Int16Array, sampleRate: number): number {
  const w = sampleRate / 100;
  for (let i = 0; i + w <= pcm.length; i += w) {
    let sum = 0;
    for (let j = 0; j < w; j++) sum += (pcm[i + j]! / 32768) ** 2;
    if (10 * Math.log10(sum / w) >= -35) return (i / sampleRate) * 1000;
  }
  throw new Error('no loud frame');
}

/** An open mouth: jawOpen above 0.1, or a viseme other than sil winning. */
function isOpen(frame: wire.Flame): boolean {
  let best = 0;
  for (let k = 1; k < frame.visemes.length; k++) if (frame.visemes[k]! > frame.visemes[best]!) best = k;
  return frame.expression[JAW_OPEN]! > 0.1 || best !== SIL;
}

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({ avatarsDir: await makeAvatarsDir() });
});
afterAll(async () => {
  await service?.close();
});

describe('cold start through the service', () => {
  const source = speechFromSampleZero();

  it('opens the mouth within 80 ms of the first loud frame of a new session’s first utterance, at every rate', async () => {
    for (const rate of SUPPORTED_SAMPLE_RATES) {
      const pcm = rate === source.sampleRate ? source.pcm : resample(source.pcm, source.sampleRate, rate);
      const client = await TestClient.open(service, await mintToken(service));
      client.configure(rate);
      await client.confirmed();
      const chunk = rate / 50;
      for (let i = 0; i < pcm.length; i += chunk) client.audio('first', pcm.subarray(i, i + chunk));
      client.audio('first', new Int16Array(0), true);
      await client.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end, 15_000);
      const frames = animations(client, 'first').flatMap((a) => a.animation?.keyframes ?? []);
      client.close();
      expect(frames.length, `${rate} Hz`).toBe(Math.ceil((pcm.length / rate) * 25));
      const loud = firstLoudMs(pcm, rate);
      const open = frames.findIndex(isOpen);
      expect(open, `${rate} Hz: the mouth never opened`).toBeGreaterThanOrEqual(0);
      expect(open * FRAME_MS - loud, `${rate} Hz`).toBeLessThanOrEqual(80);
      expect(frames.slice(open, open + 5).filter(isOpen).length, `${rate} Hz`).toBeGreaterThanOrEqual(3);
    }
  });
});
