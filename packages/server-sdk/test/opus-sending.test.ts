/**
 * `audioFormat: 'ogg_opus'`: the SDK's Ogg Opus writer checked by Debian's opus-tools (a decoder
 * that shares no code with it), and a Host-mode session against the real service whose frames
 * follow the PCM session's frames for the same speech, while the relay still carries the PCM.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AvatarError, type DriveFrame, parseWav, wavToMonoInt16 } from '@avatar-drive/core';
import { Encoder } from '@evan/opus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AvatarSession,
  type AvatarSessionOptions,
  OggOpusWriter,
  type OpusFrameEncoder,
} from '../src/index.js';
import { decodeRelay } from './support/relay-check.js';
import {
  AVATAR_ID,
  createFixtures,
  type ServiceFixtures,
  type ServiceProcess,
  speech,
  startServiceProcess,
  stopAllServices,
} from './support/service-process.js';

let fixtures: ServiceFixtures;
let service: ServiceProcess;

beforeAll(async () => {
  fixtures = await createFixtures();
  service = await startServiceProcess({ region: 'ap-northeast', fixtures });
});
afterAll(stopAllServices);

/** Writes `pcm` as Ogg Opus in `chunk`-sample pushes, then decodes it with opusdec. */
function roundTrip(
  pcm: Int16Array,
  rate: number,
  chunk: number,
): { ogg: Uint8Array; decoded: Int16Array; info: string } {
  const encoder = new Encoder({ channels: 1, sample_rate: rate as 16000, application: 'voip' });
  encoder.bitrate = 24000;
  const writer = new OggOpusWriter(encoder as unknown as OpusFrameEncoder, rate, 1234);
  const parts: Uint8Array[] = [];
  for (let at = 0; at + chunk < pcm.length; at += chunk)
    parts.push(writer.push(pcm.subarray(at, at + chunk)));
  parts.push(writer.end(pcm.subarray(Math.floor((pcm.length - 1) / chunk) * chunk)));
  const ogg = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    ogg.set(p, at);
    at += p.length;
  }
  const dir = mkdtempSync(join(tmpdir(), 'avd-opus-'));
  try {
    writeFileSync(join(dir, 'a.opus'), ogg);
    const info = spawnSync('opusinfo', [join(dir, 'a.opus')]);
    execFileSync('opusdec', ['--quiet', '--rate', String(rate), join(dir, 'a.opus'), join(dir, 'a.wav')]);
    const decoded = wavToMonoInt16(parseWav(readFileSync(join(dir, 'a.wav'))));
    return { ogg, decoded, info: `${info.stdout}${info.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the Ogg Opus writer', () => {
  it('writes a stream opus-tools reads without a warning, decoding to exactly the pushed samples', () => {
    for (const rate of [8000, 16000, 48000]) {
      const pcm = speech(1500, rate);
      const { decoded, info } = roundTrip(pcm, rate, rate / 50 + 7); // chunks that straddle frames
      expect(info, `${rate} Hz`).not.toMatch(/WARNING|ERROR|[Ff]ailed/);
      expect(info).toMatch(/Pre-skip: \d+/);
      expect(decoded.length, `${rate} Hz`).toBe(pcm.length);
      // The decoded speech is the input (lossy): correlation over the whole utterance.
      let xy = 0;
      let xx = 0;
      let yy = 0;
      for (let i = 0; i < pcm.length; i++) {
        xy += pcm[i]! * decoded[i]!;
        xx += pcm[i]! * pcm[i]!;
        yy += decoded[i]! * decoded[i]!;
      }
      expect(xy / Math.sqrt(xx * yy), `${rate} Hz`).toBeGreaterThan(0.8);
    }
  });
});

function session(extra: Partial<AvatarSessionOptions>): AvatarSession {
  return new AvatarSession({
    avatarId: AVATAR_ID,
    appId: fixtures.appId,
    apiKey: fixtures.apiKey,
    consoleUrl: service.url,
    ingressUrl: service.ingressUrl,
    sampleRate: 16000,
    ...extra,
  });
}

/** Runs one utterance through a Host-mode session; the relayed frames and PCM. */
async function drive(
  extra: Partial<AvatarSessionOptions>,
  pcm: Int16Array,
): Promise<{ frames: DriveFrame[]; audio: Int16Array }> {
  const relayed: Uint8Array[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const s = session({
    ...extra,
    onAudio: (msg) => {
      relayed.push(msg);
    },
    onFrames: (msg, isLast) => {
      relayed.push(msg);
      if (isLast) done();
    },
  });
  await s.start();
  let reqId = '';
  const step = 320; // 20 ms
  for (let at = 0; at < pcm.length; at += step)
    reqId = s.sendAudio(pcm.subarray(at, at + step), at + step >= pcm.length);
  await finished;
  await s.close();
  const conversation = decodeRelay(relayed).get(reqId)!;
  return { frames: conversation.frames, audio: conversation.audio };
}

describe("audioFormat: 'ogg_opus' against the real service", () => {
  it('animates like PCM (same tolerance as the service’s own Opus tests); the relay carries the PCM', async () => {
    const pcm = speech(3000);
    const reference = await drive({}, pcm);
    const opus = await drive({ audioFormat: 'ogg_opus', opusBitrate: 24000 }, pcm);
    expect(reference.frames.length).toBe(75);
    expect(opus.frames.length).toBe(75);
    expect(opus.audio).toEqual(pcm);
    let same = 0;
    let diff = 0;
    for (let i = 0; i < 75; i++) {
      const a = reference.frames[i]!;
      const b = opus.frames[i]!;
      if (a.visemes.indexOf(Math.max(...a.visemes)) === b.visemes.indexOf(Math.max(...b.visemes))) same++;
      let d = 0;
      for (let k = 0; k < a.expression.length; k++) d += Math.abs(a.expression[k]! - b.expression[k]!);
      diff += d / a.expression.length;
    }
    expect(same / 75).toBeGreaterThanOrEqual(0.8);
    expect(diff / 75).toBeLessThanOrEqual(0.01);
  });

  it('refuses options it cannot send', () => {
    const refused = (extra: Partial<AvatarSessionOptions>) => {
      try {
        session(extra);
      } catch (error) {
        return error as AvatarError;
      }
      throw new Error('accepted');
    };
    expect(refused({ audioFormat: 'ogg_opus', sampleRate: 22050 }).code).toBe('unsupportedSampleRate');
    expect(refused({ audioFormat: 'ogg_opus', opusBitrate: 1000 }).message).toMatch(/6000 to 510000/);
    expect(refused({ opusBitrate: 24000 }).message).toMatch(/is for audioFormat: 'ogg_opus'/);
  });
});
