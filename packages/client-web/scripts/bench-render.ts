/**
 * CPU cost of rendering an AvatarView with software WebGL (SwiftShader: what a device without a
 * usable GPU does), per configuration: the defaults, then each low-end option alone, then all
 * three. Each configuration renders a built-in avatar in a 480×480 CSS px view on a DPR-2 page
 * (a phone or a HiDPI laptop) for a fixed time; the CPU time of every Chromium process
 * (browser, renderer, GPU) is read from /proc and divided by the frames drawn.
 *
 *   pnpm --filter @avatar-drive/client-web exec tsx scripts/bench-render.ts [seconds] [rounds] [vertex.glb]
 *
 * With a third argument — the same avatar exported without its baked skin textures (vertex
 * colours only: `pnpm --filter @avatar-drive/avatars exec tsx generator/build-untextured.ts`
 * writes one) — two more configurations render that model, at the defaults and with the low-end
 * options, beside the textured built-in and its `surfaceDetail: false` path.
 *
 * Configurations run interleaved for `rounds` rounds (the machine is shared: compare within a
 * run), fresh page each time, each for `seconds` and at least 5 frames (at most 60 s). Prints CPU
 * ms per frame, frames per second, and the ratio to the defaults of the same round.
 * `BENCH_ONLY=<regexp>` runs only the configurations whose label matches (keep "defaults" in it:
 * the ratios are to the defaults). `BENCH_AVATAR=<id>` renders another built-in (default `mika`).
 * `BENCH_SPLATS=<a.zip>,<b.zip>` adds, per LAM Gaussian-splat zip, its head at the defaults and with
 * the low-end options (the frame cost of a splat head against the mesh built-in, same page and run).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@avatar-drive/test-chromium';
import { chromium } from 'playwright-core';
import { startPageServer } from '../test/browser/harness.js';

const SECONDS = Number(process.argv[2] ?? 6);
const ROUNDS = Number(process.argv[3] ?? 2);
const VERTEX_GLB = process.argv[4] ? resolve(process.argv[4]) : undefined;
/** Only the configurations whose label matches this regular expression (default: all). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const MIN_FRAMES = 5;
const MAX_SECONDS = 60;
const AVATAR = process.env.BENCH_AVATAR ?? 'mika';
const CLK_TCK = 100; // Linux USER_HZ
/** LAM zips to render as splat heads (BENCH_SPLATS, comma-separated paths). */
const SPLATS = (process.env.BENCH_SPLATS ?? '')
  .split(',')
  .filter(Boolean)
  .map((path) => resolve(path));

const LOW = { maxPixelRatio: 1, antialias: false, environmentLighting: false };
/** Label, view options, and the model: the built-in (false), its vertex-coloured variant (true), or a LAM zip's path. */
const CONFIGS: [string, Record<string, unknown>, boolean | string][] = [
  ['defaults (DPR 2, MSAA, environment lighting)', {}, false],
  ['maxPixelRatio: 1', { maxPixelRatio: 1 }, false],
  ['antialias: false', { antialias: false }, false],
  ['environmentLighting: false', { environmentLighting: false }, false],
  ['surfaceDetail: false', { surfaceDetail: false }, false],
  ['all three', LOW, false],
  ['all three + surfaceDetail: false', { ...LOW, surfaceDetail: false }, false],
  ...(VERTEX_GLB
    ? ([
        ['vertex colours, defaults', {}, true],
        ['vertex colours, all three', LOW, true],
      ] as [string, Record<string, unknown>, boolean][])
    : []),
  ...SPLATS.flatMap((zip): [string, Record<string, unknown>, string][] => [
    [`splats ${zip.split('/').pop()}, defaults`, {}, zip],
    [`splats ${zip.split('/').pop()}, all three`, LOW, zip],
  ]),
];

/** CPU seconds (user + system) of `root` and all its descendants. */
function treeCpuSeconds(root: number): number {
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // after "pid (comm) ": state ppid … utime(14th overall → index 11 here) stime(12)
      stats.set(Number(name), {
        ppid: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) / CLK_TCK,
      });
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      p = stats.get(p)?.ppid ?? 0;
    }
    return false;
  };
  for (const [pid, s] of stats) if (inTree(pid)) total += s.cpu;
  return total;
}

function browserPid(profile: string): number {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(profile) && !cmd.includes('--type=')) return Number(name);
    } catch {
      // gone
    }
  }
  throw new Error('Chromium browser process not found');
}

const server = await startPageServer();
const profile = mkdtempSync(join(tmpdir(), 'client-web-render-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [...CHROMIUM_ARGS],
  viewport: { width: 640, height: 560 },
  deviceScaleFactor: 2,
});
// tsx compiles the evaluated functions with esbuild's keepNames, which calls __name().
await context.addInitScript('window.__name = (f) => f');
const pid = browserPid(profile);
console.log(
  `AvatarView CPU rendering cost, software WebGL (SwiftShader), ${AVATAR} in 480×480 CSS px at DPR 2`,
);
console.log(`${SECONDS} s per configuration, ${ROUNDS} rounds interleaved\n`);
const results = new Map<string, { msPerFrame: number[]; fps: number[]; ratio: number[] }>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    let baseline = 0;
    for (const [label, options, vertexColours] of CONFIGS.filter(([label]) => !ONLY || ONLY.test(label))) {
      const page = await context.newPage();
      const splatZip = typeof vertexColours === 'string' ? readFileSync(vertexColours) : undefined;
      if (splatZip) {
        await page.route(`**/built-in/${AVATAR}/avatar.glb`, (route) =>
          route.fulfill({ status: 200, contentType: 'application/zip', body: splatZip }),
        );
      } else if (vertexColours && VERTEX_GLB) {
        const body = readFileSync(VERTEX_GLB);
        await page.route(`**/built-in/${AVATAR}/avatar.glb`, (route) =>
          route.fulfill({ status: 200, contentType: 'model/gltf-binary', body }),
        );
      }
      await page.goto(server.origin);
      await page.waitForFunction(() => document.title === 'ready');
      const splatCount = await page.evaluate(
        async ({ id, options }) => {
          // biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped
          const { AvatarSDK, Avatar, AvatarView } = (window as any).ad;
          AvatarSDK.initialize('app', {
            drivingServiceMode: 'host',
            audioFormat: { channelCount: 1, sampleRate: 16000 },
            logLevel: 'error',
          });
          const manifest = await (await fetch(`/built-in/${id}/manifest.json`)).json();
          const glb = await (await fetch(`/built-in/${id}/avatar.glb`)).arrayBuffer();
          const avatar = new Avatar(
            {
              ...manifest,
              assets: [{ kind: 'model', name: 'avatar.glb', url: 'avatar.glb', size: glb.byteLength }],
            },
            new Map([['avatar.glb', glb]]),
            0,
          );
          const container = document.getElementById('a')!;
          container.style.width = '480px';
          container.style.height = '480px';
          const view = new AvatarView(avatar, container, options);
          await view.ready;
          let frames = 0;
          const count = () => {
            frames += 1;
            requestAnimationFrame(count);
          };
          requestAnimationFrame(count);
          Object.assign(window, { frames: () => frames, view });
          return view.splatCount as number | undefined;
        },
        { id: AVATAR, options },
      );
      await page.waitForTimeout(1000); // warm-up: shaders compiled, first frames out
      // biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped
      const f0 = await page.evaluate(() => (window as any).frames());
      const c0 = treeCpuSeconds(pid);
      const t0 = performance.now();
      await page.waitForTimeout(SECONDS * 1000);
      // A slow configuration draws a frame every few seconds: measure over at least MIN_FRAMES
      // frames (up to MAX_SECONDS), or one frame more or less swings the figure by half.
      // biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped
      const drawn = () => page.evaluate(() => (window as any).frames() as number);
      while ((await drawn()) - f0 < MIN_FRAMES && performance.now() - t0 < MAX_SECONDS * 1000) {
        await page.waitForTimeout(250);
      }
      const f1 = await drawn();
      const c1 = treeCpuSeconds(pid);
      const wall = (performance.now() - t0) / 1000;
      await page.close();
      const frames = f1 - f0;
      const msPerFrame = ((c1 - c0) * 1000) / Math.max(1, frames);
      if (label.startsWith('defaults')) baseline = msPerFrame;
      const r = results.get(label) ?? { msPerFrame: [], fps: [], ratio: [] };
      r.msPerFrame.push(msPerFrame);
      r.fps.push(frames / wall);
      r.ratio.push(baseline / msPerFrame);
      results.set(label, r);
      console.log(
        `round ${round + 1}  ${label.padEnd(46)}${splatCount ? ` (${splatCount} splats)` : ''} ${msPerFrame.toFixed(1).padStart(6)} CPU ms/frame  ${(frames / wall).toFixed(1).padStart(5)} fps  ${(baseline / msPerFrame).toFixed(2)}× cheaper than defaults`,
      );
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  console.log('\n| configuration | CPU ms / frame | fps | CPU per frame vs defaults |');
  console.log('| --- | --: | --: | --: |');
  for (const [label] of CONFIGS) {
    const r = results.get(label);
    if (!r) continue;
    console.log(
      `| ${label} | ${median(r.msPerFrame).toFixed(1)} | ${median(r.fps).toFixed(1)} | ${median(r.ratio).toFixed(2)}× cheaper |`,
    );
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  await server.close();
}
