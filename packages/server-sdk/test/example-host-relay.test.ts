import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RelayClient, type RelayControl } from '@avatar-drive/client-core';
import {
  animationToDriveFrames,
  int16FromBytes,
  parseWav,
  RelayDecoder,
  wavToSendablePcm,
} from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  AVATAR_ID,
  createFixtures,
  REPO_ROOT,
  type ServiceFixtures,
  type ServiceProcess,
  sleep,
  startServiceProcess,
  stopAllServices,
} from './support/service-process.js';

let fixtures: ServiceFixtures;
let service: ServiceProcess;
const examples: ChildProcess[] = [];
// What the example speaks (its SPEECH_WAV), and how many 16 kHz samples that is.
const SPEECH_WAV = join(mkdtempSync(join(tmpdir(), 'avd-relay-speech-')), 'speech.wav');
execFileSync('espeak-ng', ['-w', SPEECH_WAV, 'Hello! I am speaking through your relay server.']);
const SPEECH_SAMPLES = wavToSendablePcm(parseWav(new Uint8Array(readFileSync(SPEECH_WAV))), 16000).samples
  .length;

beforeAll(async () => {
  fixtures = await createFixtures();
  service = await startServiceProcess({ region: 'ap-northeast', fixtures });
});
afterAll(async () => {
  for (const child of examples) child.kill('SIGTERM');
  await stopAllServices();
});

/** Starts examples/host-relay against `target`; resolves with its relay URL and output. */
async function startExample(target: ServiceProcess): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'examples/host-relay/server.mjs')], {
    cwd: join(REPO_ROOT, 'examples/host-relay'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      AVATAR_ID,
      AVATAR_DRIVE_APP_ID: fixtures.appId,
      AVATAR_DRIVE_API_KEY: fixtures.apiKey,
      AVATAR_DRIVE_CONSOLE_URL: target.url,
      AVATAR_DRIVE_INGRESS_URL: target.ingressUrl,
      SPEECH_WAV,
    },
  });
  examples.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (ws:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 50);
    child.once('exit', (code) => reject(new Error(`example exited ${code}: ${out}`)));
  });
  return { url, output: () => out };
}

/**
 * The browser side, minus rendering: a WebSocket feeding RelayClient, with core's RelayDecoder
 * standing in for client-web. Counts audio samples and animation frames per conversation.
 */
async function browserSide(url: string) {
  const decoder = new RelayDecoder();
  const samples = new Map<string, number>();
  const frames = new Map<string, number>();
  const lastAnimation = new Set<string>();
  let current = '';
  let interrupted = 0;
  const controls: RelayControl[] = [];
  const client = new RelayClient(
    {
      yieldAudioData(bytes) {
        const m = decoder.decode(bytes);
        if (m.kind === 'audio')
          samples.set(m.conversationId, (samples.get(m.conversationId) ?? 0) + int16FromBytes(m.pcm).length);
        current = m.conversationId;
        return m.conversationId;
      },
      yieldFramesData(list) {
        for (const bytes of list) {
          const m = decoder.decode(bytes);
          if (m.kind !== 'animation') continue;
          frames.set(
            m.conversationId,
            (frames.get(m.conversationId) ?? 0) + animationToDriveFrames(m.animation).length,
          );
          if (m.last) lastAnimation.add(m.conversationId);
        }
      },
      interrupt() {
        interrupted += 1;
      },
    },
    { onControl: (c) => controls.push(c) },
  );
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  ws.on('message', (data: ArrayBuffer | Buffer, isBinary: boolean) => {
    client.receive(isBinary ? (data as ArrayBuffer) : data.toString());
  });
  await new Promise((resolve) => ws.once('open', resolve));
  const until = async (what: string, condition: () => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!condition() && Date.now() < deadline) await sleep(20);
    if (!condition()) throw new Error(`timed out waiting for ${what}`);
  };
  return {
    ws,
    samples,
    frames,
    lastAnimation,
    controls,
    until,
    get current() {
      return current;
    },
    get interrupted() {
      return interrupted;
    },
    send: (type: string) => ws.send(JSON.stringify({ type })),
  };
}

describe('examples/host-relay', () => {
  it('relays a spoken utterance to a WebSocket client that feeds RelayClient; after an interrupt nothing of that turn follows', async () => {
    const example = await startExample(service);
    const browser = await browserSide(example.url);
    browser.send('speak');
    await browser.until('1 s of animation', () => (browser.frames.get(browser.current) ?? 0) >= 25);
    const first = browser.current;
    expect(browser.samples.get(first)).toBeGreaterThanOrEqual(16000);
    browser.send('interrupt');
    await browser.until('the interrupt', () => browser.interrupted === 1);
    expect(browser.controls).toContainEqual({ type: 'interrupt', conversationId: first });
    const heard = browser.samples.get(first);
    // The utterance is streamed in real time: wait past where it would have ended.
    await sleep(Math.max(1500, (SPEECH_SAMPLES / 16000) * 1000));
    expect([...browser.samples.keys()]).toEqual([first]); // no new conversation started
    expect(browser.samples.get(first)).toBe(heard);
    expect(browser.lastAnimation.has(first)).toBe(false);
    // The next speak is a new turn and plays whole.
    browser.send('speak');
    await browser.until(
      'the second utterance',
      () => browser.current !== first && browser.lastAnimation.has(browser.current),
    );
    expect(browser.samples.get(browser.current)).toBe(SPEECH_SAMPLES);
    expect(browser.frames.get(browser.current)).toBe(Math.ceil((SPEECH_SAMPLES * 25) / 16000));
    browser.ws.close();
    expect(example.output()).not.toContain(fixtures.apiKey);
  });

  it('opens a new session on demand after the service ended the last one (idle timeout)', async () => {
    const idle = await startServiceProcess({
      region: 'ap-northeast',
      fixtures,
      env: { AVATAR_DRIVE_IDLE_TIMEOUT_SECONDS: '2' },
    });
    const example = await startExample(idle);
    const browser = await browserSide(example.url);
    let closed = false;
    browser.ws.once('close', () => {
      closed = true;
    });
    browser.send('speak');
    await browser.until('the first utterance', () => browser.lastAnimation.has(browser.current));
    const first = browser.current;
    await browser.until('the idle timeout', () => browser.controls.some((c) => c.type === 'end'), 8000);
    expect(browser.controls.find((c) => c.type === 'end')).toEqual({ type: 'end', reason: 'idleTimeout' });
    await sleep(200);
    expect(closed).toBe(false); // the browser's relay socket stays open
    browser.send('speak');
    await browser.until(
      'the utterance after the idle timeout',
      () => browser.current !== first && browser.lastAnimation.has(browser.current),
    );
    expect(browser.samples.get(browser.current)).toBe(SPEECH_SAMPLES);
    expect(browser.frames.get(browser.current)).toBe(Math.ceil((SPEECH_SAMPLES * 25) / 16000));
    browser.ws.close();
    await idle.stop();
  }, 60_000);
});
