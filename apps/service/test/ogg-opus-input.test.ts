/**
 * OGG_OPUS input through the real service over real WebSockets: streams written by Debian's
 * opusenc at every Opus rate and several bitrates and frame sizes, sent split at random byte
 * boundaries, animate like the same audio sent as PCM; each kind of bad stream ends its own
 * session with 4007 and a text saying what to fix, while another session keeps getting frames.
 *
 * Tolerance. Opus is lossy, so the frames cannot be bit-identical to the PCM path's. The yardstick
 * is what the service already accepts as "the same audio": the same speech sent as 8 kHz PCM
 * instead of 48 kHz PCM gives 82 % viseme-argmax agreement and a 0.0072 mean absolute blendshape
 * difference (apps/service/bench/opus-decode.ts prints the Opus figures: 89–96 % and
 * 0.005–0.007 at 24 kbit/s). So a stream must agree with its PCM on the winning viseme in at
 * least 80 % of frames and stay within 0.01 mean absolute difference over the 52 blendshapes, and
 * have exactly the PCM path's frame count (the decoder restores the exact sample count).
 */
import { wire } from '@avatar-drive/core';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../src/service.js';
import {
  animations,
  makeAvatarsDir,
  mintToken,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';
import { atRate, opusenc, speech, splitAtRandom } from './support/ogg-opus-files.js';
import { joinBytes, pagesOf, reseal } from './support/ogg-pages.js';

type Flame = wire.Flame;

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({ avatarsDir: await makeAvatarsDir() });
});
afterAll(async () => {
  await service?.close();
});

const source = speech('The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore.');

function sendBytes(client: TestClient, reqId: string, audio: Uint8Array, end = false): void {
  client.ws.send(
    toBinary(
      wire.MessageSchema,
      create(wire.MessageSchema, {
        type: wire.MessageType.CLIENT_AUDIO_INPUT,
        data: { case: 'clientAudioInput', value: { reqId, end, audio } },
      }),
    ),
  );
}

async function opusSession(rate: number, kbps: number): Promise<TestClient> {
  const client = await TestClient.open(service, await mintToken(service));
  client.configure(rate, { audioFormat: wire.AudioFormat.OGG_OPUS, bitrate: kbps * 1000 });
  await client.confirmed();
  return client;
}

async function framesOf(client: TestClient, reqId: string): Promise<Flame[]> {
  await client.waitFor(
    (m) =>
      (m.data.case === 'serverResponseAnimation' && m.data.value.reqId === reqId && m.data.value.end) ||
      m.data.case === 'serverError',
    30_000,
  );
  expect(client.inbox.filter((m) => m.data.case === 'serverError')).toEqual([]);
  return animations(client, reqId).flatMap((a) => a.animation?.keyframes ?? []);
}

/** Streams `ogg` in `pieces` random pieces (the last with end) and collects the frames. */
async function sendOpus(
  rate: number,
  kbps: number,
  ogg: Uint8Array,
  pieces: number,
  seed: number,
): Promise<Flame[]> {
  const client = await opusSession(rate, kbps);
  const parts = splitAtRandom(ogg, pieces, seed);
  for (const [i, part] of parts.entries()) sendBytes(client, 'u', part, i === parts.length - 1);
  const frames = await framesOf(client, 'u');
  client.close();
  return frames;
}

async function sendPcm(rate: number, pcm: Int16Array): Promise<Flame[]> {
  const client = await TestClient.open(service, await mintToken(service));
  client.configure(rate);
  await client.confirmed();
  const chunk = rate / 50;
  for (let at = 0; at < pcm.length; at += chunk) client.audio('u', pcm.subarray(at, at + chunk));
  client.audio('u', new Int16Array(0), true);
  const frames = await framesOf(client, 'u');
  client.close();
  return frames;
}

function agreement(a: Flame[], b: Flame[]): { argmax: number; mad: number } {
  let same = 0;
  let diff = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.visemes.indexOf(Math.max(...x.visemes)) === y.visemes.indexOf(Math.max(...y.visemes))) same++;
    let d = 0;
    for (let k = 0; k < x.expression.length; k++) d += Math.abs(x.expression[k]! - y.expression[k]!);
    diff += d / x.expression.length;
  }
  return { argmax: same / a.length, mad: diff / a.length };
}

describe('OGG_OPUS through the service', () => {
  // Every Opus rate; bitrates from 12 to 64 kbit/s; 10–60 ms frames; pages of 1 s (opusenc's
  // default) or of 100 ms.
  const cases = [
    { rate: 8000, kbps: 12, frameMs: 20, maxDelayMs: undefined },
    { rate: 12000, kbps: 16, frameMs: 40, maxDelayMs: 100 },
    { rate: 16000, kbps: 24, frameMs: 20, maxDelayMs: 100 },
    { rate: 24000, kbps: 32, frameMs: 10, maxDelayMs: undefined },
    { rate: 48000, kbps: 64, frameMs: 60, maxDelayMs: 100 },
  ] as const;

  it.each(cases)('animates like the PCM path: $rate Hz, $kbps kbit/s, $frameMs ms frames', async (c) => {
    const pcm = atRate(source, c.rate);
    const ogg = opusenc(pcm, c.rate, c);
    // 12 kHz is not a PCM rate: the PCM path gets the same audio at 16 kHz.
    const pcmRate = c.rate === 12000 ? 16000 : c.rate;
    const reference = await sendPcm(
      pcmRate,
      pcmRate === c.rate ? pcm : atRate({ pcm, sampleRate: c.rate }, pcmRate),
    );
    const frames = await sendOpus(c.rate, c.kbps, ogg, 60, c.rate);
    expect(reference.length).toBe(Math.ceil((pcm.length * 25) / c.rate));
    expect(frames.length).toBe(reference.length);
    const match = agreement(reference, frames);
    expect(match.argmax, `${c.rate} Hz viseme agreement`).toBeGreaterThanOrEqual(0.8);
    expect(match.mad, `${c.rate} Hz blendshape difference`).toBeLessThanOrEqual(0.01);
  });

  it('gives the same frames however the stream is split (down to single bytes at its start)', async () => {
    const pcm = atRate(source, 16000);
    const ogg = opusenc(pcm, 16000, { kbps: 20, maxDelayMs: 60 });
    const a = await sendOpus(16000, 20, ogg, 25, 7);
    const client = await opusSession(16000, 20);
    // The headers and first pages a byte per message, then pieces of 1–300 bytes.
    let at = 0;
    for (; at < 400; at++) sendBytes(client, 'u', ogg.subarray(at, at + 1));
    for (const part of splitAtRandom(ogg.subarray(at), 150, 99)) sendBytes(client, 'u', part);
    sendBytes(client, 'u', new Uint8Array(0), true);
    const b = await framesOf(client, 'u');
    client.close();
    expect(b.length).toBe(a.length);
    expect(b).toEqual(a);
  });

  it('decodes one stream per req_id: a second utterance starts its own stream', async () => {
    const client = await opusSession(16000, 24);
    const first = opusenc(atRate(source, 16000).subarray(0, 16000), 16000, { kbps: 24 });
    const second = opusenc(atRate(source, 16000).subarray(16000, 40000), 16000, { kbps: 24 });
    sendBytes(client, 'one', first, true);
    expect((await framesOf(client, 'one')).length).toBe(25);
    for (const part of splitAtRandom(second, 10, 3)) sendBytes(client, 'two', part);
    sendBytes(client, 'two', new Uint8Array(0), true);
    expect((await framesOf(client, 'two')).length).toBe(38);
    client.close();
  });

  it('refuses OGG_OPUS at a rate Opus does not have (4006)', async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(22050, { audioFormat: wire.AudioFormat.OGG_OPUS });
    expect((await client.closed).code).toBe(4006);
    expect(client.describe()).toMatch(/unsupported sample rate 22050 Hz for OGG_OPUS/);
  });
});

describe('bad Ogg Opus streams end only their own session', () => {
  const pcm = atRate(source, 16000);
  const ogg = opusenc(pcm, 16000, { kbps: 24, maxDelayMs: 200 });
  const pages = pagesOf(ogg);
  const flipped = ogg.slice();
  flipped[pages[0]!.length + pages[1]!.length + 40]! ^= 0x01;
  const notOpus = pages[0]!.slice();
  notOpus.set(new TextEncoder().encode('\x01vorbis\x00'), 28);
  const noEos = pages.at(-1)!.slice();
  noEos[5] = noEos[5]! & ~0x04;
  const second = pagesOf(opusenc(pcm.subarray(0, 8000), 16000, { kbps: 24 }));

  const cases: Array<[string, Uint8Array, RegExp]> = [
    ['a broken CRC', flipped, /fails its CRC check: the bytes were changed or reordered/],
    [
      'a head that is not Opus',
      joinBytes([reseal(notOpus), ...pages.slice(1)]),
      /first packet is not an OpusHead/,
    ],
    ['garbage', new Uint8Array(4096).fill(0x5a), /are not an Ogg page \(no "OggS" capture pattern\)/],
    [
      'a second logical stream',
      joinBytes([...pages.slice(0, 3), second[0]!, ...pages.slice(3)]),
      /a second Ogg logical stream/,
    ],
    ['a chained stream after the EOS', joinBytes([ogg, ...second]), /after the Ogg end-of-stream page/],
    [
      'a missing page',
      joinBytes([...pages.slice(0, 3), ...pages.slice(4)]),
      /page 4 arrived where page 3 was expected/,
    ],
    ['a stream cut inside a page', ogg.subarray(0, ogg.length - 100), /ended inside a page/],
  ];

  it.each(cases)(
    '%s: 4007 with what to fix; a concurrent session keeps getting frames',
    async (_name, bytes, text) => {
      const bystander = await TestClient.open(service, await mintToken(service));
      bystander.configure(16000);
      await bystander.confirmed();
      bystander.audio('b', tone(400));
      await bystander.waitFor((m) => m.data.case === 'serverResponseAnimation');
      const client = await opusSession(16000, 24);
      for (const part of splitAtRandom(bytes, 20, 5)) sendBytes(client, 'bad', part);
      sendBytes(client, 'bad', new Uint8Array(0), true);
      const closed = await client.closed;
      expect(closed.code).toBe(4007);
      const error = client.inbox.find((m) => m.data.case === 'serverError')?.data.value as wire.ServerError;
      expect(error.code).toBe(4007);
      expect(error.reqId).toBe('bad');
      expect(error.message).toMatch(/^invalidAudio: /);
      expect(error.message).toMatch(text);
      // The other session was untouched: more audio, more frames, then its end.
      const before = animations(bystander, 'b').length;
      bystander.audio('b', tone(400), true);
      await bystander.waitFor((m) => m.data.case === 'serverResponseAnimation' && m.data.value.end);
      expect(animations(bystander, 'b').length).toBeGreaterThan(before);
      expect(animations(bystander, 'b').flatMap((a) => a.animation?.keyframes ?? []).length).toBe(20);
      bystander.close();
    },
  );

  it('a stream that stops at a page boundary without EOS, then end=true, is taken as complete', async () => {
    const client = await opusSession(16000, 24);
    sendBytes(client, 'u', joinBytes([...pages.slice(0, -1), reseal(noEos)]));
    sendBytes(client, 'u', new Uint8Array(0), true);
    const frames = await framesOf(client, 'u');
    // No end trim without the EOS page: the encoder's last-frame padding stays (under 20 ms).
    expect(frames.length - Math.ceil((pcm.length * 25) / 16000)).toBeGreaterThanOrEqual(0);
    expect(frames.length - Math.ceil((pcm.length * 25) / 16000)).toBeLessThanOrEqual(1);
    client.close();
  });
});
