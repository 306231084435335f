// @vitest-environment node
/**
 * feedAudio(MediaStream) in real Chromium, against a recording target: however a capture ends
 * (stop() at any moment from before the worklet is loaded to long after, the app stopping the
 * track itself, the track ending on its own), the utterance gets exactly one end chunk, last,
 * and `done` resolves with what was sent.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, launchChromium, type PageServer, startPageServer } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

let server: PageServer;
let chrome: BrowserSession;
let page: Page;

beforeAll(async () => {
  server = await startPageServer();
  chrome = await launchChromium(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
  page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(server.origin);
  await page.waitForFunction(() => document.title === 'ready');
  await page.evaluate(() => {
    const w = window as PageWindow;
    w.ad.AvatarSDK.initialize('app-test', {
      drivingServiceMode: 'host',
      audioFormat: { channelCount: 1, sampleRate: 16000 },
      logLevel: 'warn',
    });
    /** What one capture did: the sends it made and how `done` settled. */
    w.runFeed = async (how: string, delayMs: number) => {
      const sends: Array<{ samples: number; end: boolean }> = [];
      const target = { send: (pcm: Int16Array, end: boolean) => sends.push({ samples: pcm.length, end }) };
      let stream: MediaStream;
      let context: AudioContext | undefined;
      if (how === 'microphone') {
        stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      } else if (how === 'generator-ends') {
        // A track whose source ends by itself (as a remote peer or a device going away does).
        const generator = new (window as PageWindow).MediaStreamTrackGenerator({ kind: 'audio' });
        const writer = generator.writable.getWriter();
        stream = new MediaStream([generator]);
        const rate = 48000;
        let written = 0;
        w.endGenerator = async (ms: number) => {
          while (written < (ms / 1000) * rate) {
            const data = new Float32Array(480);
            for (let i = 0; i < 480; i++)
              data[i] = 0.5 * Math.sin((2 * Math.PI * 200 * (written + i)) / rate);
            await writer.write(
              new (window as PageWindow).AudioData({
                format: 'f32-planar',
                sampleRate: rate,
                numberOfFrames: 480,
                numberOfChannels: 1,
                timestamp: (written / rate) * 1e6,
                data,
              }),
            );
            written += 480;
            await new Promise((r) => setTimeout(r, 10));
          }
          await writer.close();
        };
      } else {
        context = new AudioContext();
        const osc = context.createOscillator();
        const out = context.createMediaStreamDestination();
        osc.connect(out);
        osc.start();
        stream = out.stream;
      }
      const feed = w.ad.feedAudio(target, stream);
      const settled = feed.done.then(
        (result: { samples: number; aborted: boolean }) => ({ result }),
        (error: { code?: string; message?: string }) => ({ error: `${error.code ?? ''} ${error.message}` }),
      );
      if (how === 'generator-ends') {
        await w.endGenerator(delayMs);
      } else {
        if (delayMs < 0) await Promise.resolve();
        else if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        if (how === 'track-stop') for (const track of stream.getTracks()) track.stop();
        else feed.stop();
      }
      // Bounded: a feed that never settles is the failure being looked for.
      const outcome = await Promise.race([
        settled,
        new Promise((r) => setTimeout(() => r({ error: 'done did not settle within 10 s' }), 10_000)),
      ]);
      for (const track of stream.getTracks()) track.stop();
      void context?.close();
      return { sends, outcome };
    };
  });
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
});

interface FeedRun {
  sends: Array<{ samples: number; end: boolean }>;
  outcome: { result?: { samples: number; aborted: boolean }; error?: string };
}

async function run(how: string, delayMs: number): Promise<FeedRun> {
  return page.evaluate(([h, d]) => (window as PageWindow).runFeed(h, d), [how, delayMs] as const);
}

/** One end, last, and `done` resolved with the samples that were sent. */
function expectOneEnd(label: string, { sends, outcome }: FeedRun) {
  expect(outcome.error, `${label}: ${JSON.stringify(outcome)}`).toBeUndefined();
  const ends = sends.filter((s) => s.end).length;
  expect(ends, `${label}: end chunks in ${JSON.stringify(sends)}`).toBe(1);
  expect(sends.at(-1)?.end, label).toBe(true);
  const sent = sends.reduce((n, s) => n + s.samples, 0);
  expect(outcome.result?.samples, label).toBe(sent);
}

describe('feedAudio(MediaStream) always ends its utterance', () => {
  // -1: a microtask after feedAudio(); 0–40 ms: while the worklet module is still loading; later:
  // with chunks flowing, at random points of the worklet's 128-sample messages.
  const delays = [-1, 0, 0, 2, 5, 10, 20, 40, 80, 150, 230, 370, 600];

  it('stop() at any moment after start (oscillator stream)', async () => {
    for (const delay of delays) expectOneEnd(`stop after ${delay} ms`, await run('stop', delay));
  }, 90_000);

  it("stop() at any moment on the browser's capture device (getUserMedia)", async () => {
    for (const delay of [0, 10, 50, 200, 450]) {
      const outcome = await run('microphone', delay);
      expectOneEnd(`microphone stop after ${delay} ms`, outcome);
    }
  }, 90_000);

  it('the app stopping the tracks itself ends the utterance (no stop() call)', async () => {
    for (const delay of [0, 30, 300])
      expectOneEnd(`track.stop() after ${delay} ms`, await run('track-stop', delay));
  }, 90_000);

  it('a track that ends on its own ends the utterance, with what it carried', async () => {
    const { sends, outcome } = await run('generator-ends', 500);
    expectOneEnd('generator ended', { sends, outcome });
    expect(outcome.result?.samples ?? 0).toBeGreaterThan(0);
  }, 90_000);
});

describe('feedAudio(MediaStream) failures are typed and settle', () => {
  /** An oscillator stream fed into `target`; resolves with how `done` settled (bounded). */
  async function failingFeed(kind: 'send-throws' | 'worklet-fails') {
    return page.evaluate(async (k) => {
      const w = window as PageWindow;
      const context = new AudioContext();
      const osc = context.createOscillator();
      const out = context.createMediaStreamDestination();
      osc.connect(out);
      osc.start();
      const original = AudioWorklet.prototype.addModule;
      // The browser refusing the capture's worklet (as a strict CSP would): injected for this run.
      if (k === 'worklet-fails')
        AudioWorklet.prototype.addModule = () => Promise.reject(new DOMException('refused', 'AbortError'));
      let sends = 0;
      const target = {
        send: () => {
          sends++;
          if (k === 'send-throws') throw new w.ad.AvatarError('connectionClosed', 'the session dropped');
        },
      };
      try {
        const feed = w.ad.feedAudio(target, out.stream);
        return await Promise.race([
          feed.done.then(
            () => ({ settled: 'resolved', sends }),
            (error: { code?: string }) => ({ settled: 'rejected', code: error.code, sends }),
          ),
          new Promise((r) => setTimeout(() => r({ settled: 'never (10 s)', sends }), 10_000)),
        ]);
      } finally {
        AudioWorklet.prototype.addModule = original;
        void context.close();
      }
    }, kind);
  }

  it('a capture the browser refuses rejects done with invalidAudio', async () => {
    const outcome = await failingFeed('worklet-fails');
    expect(outcome).toMatchObject({ settled: 'rejected', code: 'invalidAudio' });
  }, 30_000);

  it("a send that throws rejects done with the send's error", async () => {
    const outcome = await failingFeed('send-throws');
    expect(outcome).toMatchObject({ settled: 'rejected', code: 'connectionClosed', sends: 1 });
  }, 30_000);
});
