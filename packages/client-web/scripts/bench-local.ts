/**
 * Main-thread cost of local mode in Chromium, per second of audio: the page streams speech in
 * real time (100 ms chunks) into an AvatarController in `drivingServiceMode: 'local'`, with a
 * requestAnimationFrame loop taking frames as an AvatarView does (no WebGL: the SDK's cost
 * alone). Three configurations, interleaved for `rounds` rounds on fresh pages:
 * - worker: the engine in its Worker (what local mode does);
 * - main thread: the same engine as a LocalEngine that runs on the page's main thread (the peer:
 *   what the Worker moves off it);
 * - idle: started, no audio (the baseline both are measured against).
 * Main-thread time: the time spent in the engine's calls on the main thread (a wrapper around the
 * LocalEngine times `push` and the frame delivery into the controller: for the Worker, copying
 * and posting the audio, unpacking and scheduling the frames; on the main thread, the driver
 * too), and Chromium's own account of the renderer main thread's tasks (CDP
 * Performance.getMetrics `TaskDuration`, and `ScriptDuration` of it) as context.
 *
 *   pnpm --filter @avatar-drive/client-web exec tsx scripts/bench-local.ts [seconds] [rounds]
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { launchChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';

const SECONDS = Number(process.argv[2] ?? 8);
const ROUNDS = Number(process.argv[3] ?? 2);
const here = dirname(fileURLToPath(import.meta.url));

const PAGE = `
import { AvatarController, AvatarSDK, WorkerEngine } from '../src/index.ts';
import { createDriver } from '@avatar-drive/engine';

/** The same engine on the page's main thread (the peer). */
function mainThreadEngine() {
  let driver, events, openId;
  return {
    async open(sampleRate, e) { driver = createDriver({ sampleRate }); events = e; },
    push(id, pcm, end) {
      if (openId !== undefined && openId !== id) driver.reset();
      openId = end ? undefined : id;
      const t = performance.now();
      const frames = pcm.length ? driver.push(pcm) : [];
      if (end) frames.push(...driver.end());
      spent.driver += performance.now() - t;
      if (frames.length || end) events.onFrames(id, frames, end);
    },
    cancel(id) { if (openId === id) { driver.reset(); openId = undefined; } },
    close() {},
  };
}

/**
 * Main-thread ms spent: in the engine's push (Worker: copying and posting the audio; main thread:
 * the driver, measured apart as 'driver'), and in the controller's handling of delivered frames
 * (the same code in both; it also starts the scheduled audio when the first frames arrive).
 */
const spent = { push: 0, driver: 0, deliver: 0 };
function timed(engine) {
  const clock = (key, fn) => (...args) => { const t = performance.now(); try { return fn(...args); } finally { spent[key] += performance.now() - t; } };
  return {
    open: (sampleRate, events) => engine.open(sampleRate, { onFrames: clock('deliver', events.onFrames), onFailure: events.onFailure }),
    push: clock('push', (id, pcm, end) => engine.push(id, pcm, end)),
    cancel: (id) => engine.cancel(id),
    close: () => engine.close(),
  };
}

AvatarSDK.initialize('bench', { drivingServiceMode: 'local', logLevel: 'error' });
window.run = async (config, pcm, seconds) => {
  const controller = new AvatarController({ avatarId: 'bench', cutSpeech() {} },
    { createLocalEngine: () => timed(config === 'main thread' ? mainThreadEngine() : new WorkerEngine()) });
  await controller.initializeAudioContext();
  await controller.start();
  let frames = 0;
  let running = true;
  const loop = () => { if (controller.frameForRender()) frames++; if (running) requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  window.ready = true;
  await new Promise((r) => { window.go = r; });
  const t0 = performance.now();
  spent.push = spent.driver = spent.deliver = 0;
  const total = Math.round(seconds * 16000);
  for (let i = 0, k = 0; i < total; i += 1600, k++) {
    const due = t0 + k * 100;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    if (config !== 'idle') {
      const chunk = new Int16Array(1600);
      for (let j = 0; j < 1600; j++) chunk[j] = pcm[(i + j) % pcm.length];
      controller.send(chunk, i + 1600 >= total);
    }
  }
  await new Promise((r) => setTimeout(r, 400));
  running = false;
  controller.dispose();
  // On the main thread, push includes the driver and the (synchronous) delivery: keep push's own part.
  if (config === 'main thread') spent.push -= spent.driver + spent.deliver;
  return { frames, ...spent };
};
document.title = 'ready';
`;

const js = (
  await build({
    stdin: { contents: PAGE, resolveDir: here, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
).outputFiles[0]!.text;
const server = createServer((req, res) => {
  if (req.url === '/page.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(js);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><title>…</title><script type="module" src="/page.js"></script>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const wav = execFileSync('espeak-ng', [
  '-v',
  'en-us',
  '--stdout',
  'The quick brown fox jumps over the lazy dog.',
]);
const pcm = Array.from(wavToSendablePcm(parseWav(new Uint8Array(wav)), 16000).samples);

const chrome = await launchChromium({ profilePrefix: 'client-web-local-bench-' });
const CONFIGS = ['worker', 'main thread', 'idle'] as const;
const results = new Map<
  string,
  Array<{ task: number; script: number; frames: number; push: number; driver: number; deliver: number }>
>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const config of CONFIGS) {
      const page = await chrome.context.newPage();
      await page.goto(origin);
      await page.waitForFunction(() => document.title === 'ready');
      const cdp = await chrome.context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const running = page.evaluate(
        ({ config, pcm, seconds }) =>
          (
            window as unknown as {
              run: (
                ...a: unknown[]
              ) => Promise<{ frames: number; push: number; driver: number; deliver: number }>;
            }
          ).run(config, Int16Array.from(pcm), seconds),
        { config, pcm, seconds: SECONDS },
      );
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
      const metric = async () => {
        const { metrics } = (await cdp.send('Performance.getMetrics')) as {
          metrics: Array<{ name: string; value: number }>;
        };
        const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
        return { task: get('TaskDuration'), script: get('ScriptDuration') };
      };
      const before = await metric();
      await page.evaluate(() => (window as unknown as { go: () => void }).go());
      const { frames, push, driver, deliver } = await running;
      const after = await metric();
      const entry = {
        task: (after.task - before.task) * 1000,
        script: (after.script - before.script) * 1000,
        frames,
        push,
        driver,
        deliver,
      };
      results.set(config, [...(results.get(config) ?? []), entry]);
      console.log(
        `round ${round + 1} ${config.padEnd(12)} main-thread tasks ${entry.task.toFixed(0)} ms, script ${entry.script.toFixed(0)} ms over ${SECONDS} s (${frames} frames taken); push ${push.toFixed(1)} ms, driver ${driver.toFixed(1)} ms, frame delivery ${deliver.toFixed(1)} ms`,
      );
      await page.close();
    }
  }
  console.log(`\nper second of audio, minus idle (same round), ${ROUNDS} rounds:`);
  for (const config of ['worker', 'main thread'] as const) {
    const per = results.get(config)!.map((r, i) => {
      const idle = results.get('idle')![i]!;
      return { task: (r.task - idle.task) / SECONDS, script: (r.script - idle.script) / SECONDS };
    });
    const part = (key: 'push' | 'driver' | 'deliver') =>
      results
        .get(config)!
        .map((r) => (r[key] / SECONDS).toFixed(2))
        .join(', ');
    console.log(
      `${config.padEnd(12)} on the main thread: push ${part('push')} ms/s, driver ${part('driver')} ms/s, frame delivery ${part('deliver')} ms/s`,
    );
    console.log(
      `${config.padEnd(12)} tasks ${per.map((p) => p.task.toFixed(1)).join(', ')} ms/s   script ${per.map((p) => p.script.toFixed(1)).join(', ')} ms/s`,
    );
  }
  const idle = results.get('idle')!.map((r) => (r.task / SECONDS).toFixed(1));
  console.log(
    `${'idle'.padEnd(12)} tasks ${idle.join(', ')} ms/s (absolute: the rAF loop and the audio clock)`,
  );
} finally {
  await chrome.close();
  server.close();
}
