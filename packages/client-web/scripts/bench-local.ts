/**
 * Main-thread cost of local mode in Chromium, per second of audio: the page streams speech in
 * real time (100 ms chunks) into an AvatarController in `drivingServiceMode: 'local'`, with a
 * requestAnimationFrame loop taking frames as an AvatarView does (no WebGL: the SDK's cost
 * alone). Three configurations, interleaved for `rounds` rounds on fresh pages:
 * - worker: the engine in its Worker (what local mode does);
 * - main thread: the same engine as a LocalEngine that runs on the page's main thread (the peer:
 *   what the Worker moves off it);
 * - idle: started, no audio (the baseline both are measured against).
 * Main-thread time is Chromium's own account of the renderer main thread's tasks (CDP
 * Performance.getMetrics `TaskDuration`, and `ScriptDuration` of it), read before and after.
 *
 *   pnpm --filter @avatar-drive/client-web exec tsx scripts/bench-local.ts [seconds] [rounds]
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseWav, wavToSendablePcm } from '@avatar-drive/core';
import { launchChromium } from '@avatar-drive/test-chromium';
import { build } from 'esbuild';

const SECONDS = Number(process.argv[2] ?? 8);
const ROUNDS = Number(process.argv[3] ?? 2);
const here = dirname(fileURLToPath(import.meta.url));

const PAGE = `
import { AvatarController, AvatarSDK } from '../src/index.ts';
import { createDriver } from '@avatar-drive/engine';

/** The same engine on the page's main thread (the peer). */
function mainThreadEngine() {
  let driver, events, openId;
  return {
    async open(sampleRate, e) { driver = createDriver({ sampleRate }); events = e; },
    push(id, pcm, end) {
      if (openId !== undefined && openId !== id) driver.reset();
      openId = end ? undefined : id;
      const frames = pcm.length ? driver.push(pcm) : [];
      if (end) frames.push(...driver.end());
      if (frames.length || end) events.onFrames(id, frames, end);
    },
    cancel(id) { if (openId === id) { driver.reset(); openId = undefined; } },
    close() {},
  };
}

AvatarSDK.initialize('bench', { drivingServiceMode: 'local', logLevel: 'error' });
window.run = async (config, pcm, seconds) => {
  const controller = new AvatarController({ avatarId: 'bench', cutSpeech() {} },
    config === 'main thread' ? { createLocalEngine: mainThreadEngine } : {});
  await controller.initializeAudioContext();
  await controller.start();
  let frames = 0;
  let running = true;
  const loop = () => { if (controller.frameForRender()) frames++; if (running) requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  window.ready = true;
  await new Promise((r) => { window.go = r; });
  const t0 = performance.now();
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
  return { frames };
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

const wav = execFileSync('espeak-ng', ['-v', 'en-us', '--stdout', 'The quick brown fox jumps over the lazy dog.']);
const pcm = Array.from(wavToSendablePcm(parseWav(new Uint8Array(wav)), 16000).samples);

const chrome = await launchChromium({ profilePrefix: 'client-web-local-bench-' });
const CONFIGS = ['worker', 'main thread', 'idle'] as const;
const results = new Map<string, Array<{ task: number; script: number; frames: number }>>();
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
          (window as unknown as { run: (...a: unknown[]) => Promise<{ frames: number }> }).run(
            config,
            Int16Array.from(pcm),
            seconds,
          ),
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
      const { frames } = await running;
      const after = await metric();
      const entry = {
        task: (after.task - before.task) * 1000,
        script: (after.script - before.script) * 1000,
        frames,
      };
      results.set(config, [...(results.get(config) ?? []), entry]);
      console.log(
        `round ${round + 1} ${config.padEnd(12)} main-thread tasks ${entry.task.toFixed(0)} ms, script ${entry.script.toFixed(0)} ms over ${SECONDS} s (${frames} frames taken)`,
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
    console.log(
      `${config.padEnd(12)} tasks ${per.map((p) => p.task.toFixed(1)).join(', ')} ms/s   script ${per.map((p) => p.script.toFixed(1)).join(', ')} ms/s`,
    );
  }
  const idle = results.get('idle')!.map((r) => (r.task / SECONDS).toFixed(1));
  console.log(`${'idle'.padEnd(12)} tasks ${idle.join(', ')} ms/s (absolute: the rAF loop and the audio clock)`);
} finally {
  await chrome.close();
  server.close();
}
