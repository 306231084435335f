// @vitest-environment node
/**
 * Bring-your-own avatar formats in real Chromium against the real service: the VRM 1.0 and 0.x
 * samples and the Ready Player Me–style GLB made by @avatar-drive/avatars are served by the
 * service, loaded by AvatarView, and driven — by frames set here and by speech through the
 * service — while the test reads back expression weights, morph influences, bones and pixels,
 * and the coverage report.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AvatarCoverage, parseWav, resample, wavToMonoInt16 } from '@avatar-drive/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, launchChromium, type PageServer, startPageServer } from './harness.js';
import { mintSessionToken, type RunningService, serviceBuilt, startService } from './service.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const SAMPLES = fileURLToPath(new URL('../../../avatars/samples/', import.meta.url));
const FILES = { vrm1: 'mika-vrm1.vrm', vrm0: 'mika-vrm0.vrm', rpm: 'juno-rpm.glb' } as const;
type Sample = keyof typeof FILES;
/** The id each sample is served under: the id its upload returned. */
const AVATARS: Record<Sample, string> = { vrm1: '', vrm0: '', rpm: '' };
/** The coverage the service reported for each upload. */
const uploaded: Partial<Record<Sample, AvatarCoverage>> = {};

let server: PageServer;
let chrome: BrowserSession;
let service: RunningService;
let workDir: string;
let credentials: { appId: string; apiKey: string };

async function openPage(): Promise<Page> {
  const page = await chrome.context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(server.origin);
  await page.waitForFunction(() => document.title === 'ready');
  await page.evaluate(
    ({ appId, origin, ingressUrl }) => {
      (window as PageWindow).ad.AvatarSDK.initialize(appId, {
        region: 'us-west',
        regions: { 'us-west': { consoleUrl: `${origin}/r/us-west`, ingressUrl } },
        drivingServiceMode: 'sdk',
        audioFormat: { channelCount: 1, sampleRate: 16000 },
        logLevel: 'info',
      });
    },
    { appId: credentials.appId, origin: server.origin, ingressUrl: service.ingressUrl },
  );
  return page;
}

/** Speech from espeak-ng (scripts/apt-packages.txt) as 16 kHz mono s16, base64 for the page. */
function speechBase64(text: string): string {
  const wavPath = join(workDir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', wavPath, text]);
  const wav = parseWav(new Uint8Array(readFileSync(wavPath)));
  const pcm = resample(wavToMonoInt16(wav), wav.sampleRate, 16000);
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
}

beforeAll(async () => {
  if (!serviceBuilt)
    throw new Error('apps/service/dist/main.js is missing: run pnpm build (scripts/setup.sh does).');
  server = await startPageServer();
  chrome = await launchChromium();
  workDir = await mkdtemp(join(tmpdir(), 'client-web-formats-'));
  service = await startService('us-west', ['--dev-credentials', join(workDir, 'dev.json')]);
  credentials = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8'));
  server.targets.set('us-west', service.consoleUrl);
  // The samples reach the service the way a developer's avatars do: uploaded with the API key
  // (POST /v1/console/avatars) from here, the developer's server side; the page only gets ids. The route must exist — a 404 fails here rather than letting the
  // test quietly serve the files some other way.
  for (const [sample, file] of Object.entries(FILES) as [Sample, string][]) {
    const response = await fetch(`${service.consoleUrl}/v1/console/avatars?name=${sample}`, {
      method: 'POST',
      headers: { 'content-type': 'model/gltf-binary', 'x-api-key': credentials.apiKey },
      body: await readFile(join(SAMPLES, file)),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`uploading ${file}: ${response.status} ${text}`);
    const body = JSON.parse(text) as { avatar: { id: string }; coverage: AvatarCoverage };
    AVATARS[sample] = body.avatar.id;
    uploaded[sample] = body.coverage;
  }
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
  await service?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('avatar formats in AvatarView, served by the service', () => {
  it('drives the VRM 1.0 sample through its expressions: vowels, blinks, lookAt, spring bones, pixels', async () => {
    const page = await openPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    const result = await page.evaluate(async (id) => {
      const { probe } = (window as PageWindow).ad;
      const view = await probe.openView(id, 30);
      const coverage = JSON.parse(JSON.stringify(view.avatarCoverage));
      const idle = probe.canvasPixels(view.canvas);
      const read = () => ({
        aa: view.getExpressionWeight('aa'),
        oh: view.getExpressionWeight('oh'),
        ih: view.getExpressionWeight('ih'),
        blinkLeft: view.getExpressionWeight('blinkLeft'),
        jawOpen: probe.morphInfluence(view.model, 'Face', 'jawOpen'),
        mouthFunnel: probe.morphInfluence(view.model, 'Face', 'mouthFunnel'),
        eyelid: probe.morphInfluence(view.model, 'EyelidsLeft', 'eyeBlinkLeft'),
        influenceAa: view.getMorphInfluence('aa'),
      });
      const rest = read();
      view.applyFrame(probe.frameWith({ viseme_aa: 1 }));
      await probe.frames(3);
      const aa = read();
      const open = probe.canvasPixels(view.canvas);
      view.applyFrame(probe.frameWith({ viseme_O: 1, viseme_kk: 1 }));
      await probe.frames(3);
      const o = read();
      view.applyFrame(probe.frameWith({ eyeBlinkLeft: 1 }));
      await probe.frames(3);
      const blink = read();
      // Eyes right by 0.3 rad (both eyes' yaw), then the head turns: the ponytail swings.
      const eyeRest = probe.rotationOf(view.model, 'EyeLeft');
      view.applyFrame(probe.frameWith({ eyePose: [0, 0.3, 0, 0, 0.3, 0] }));
      await probe.frames(3);
      const eyeTurn = probe.turnedBy(view.model, 'EyeLeft', eyeRest);
      const tailRest = probe.rotationOf(view.model, 'J_Ponytail_2');
      const headRest = probe.rotationOf(view.model, 'Head');
      view.applyFrame(probe.frameWith({ rotation: [0, 0.5, 0] }));
      await probe.frames(6);
      const headTurn = probe.turnedBy(view.model, 'Head', headRest);
      const tailSwing = probe.turnedBy(view.model, 'J_Ponytail_2', tailRest);
      view.applyFrame(probe.frameWith({}));
      await probe.frames(3);
      const closed = probe.canvasPixels(view.canvas);
      view.dispose();
      return {
        coverage,
        rest,
        aa,
        o,
        blink,
        eyeTurn,
        headTurn,
        tailSwing,
        // MToon's toon shading lights the open mouth almost like the skin: count small changes.
        mouthPixels: probe.changedPixels(idle, open, 6),
        restPixels: probe.changedPixels(idle, closed, 6),
      };
    }, AVATARS.vrm1);
    const coverage = result.coverage as AvatarCoverage;
    expect(coverage.format).toBe('vrm1');
    expect(coverage.mouth).toBe('vowels');
    expect(coverage.weights.map((w) => w.target)).toEqual(
      ['aa', 'ih', 'ou', 'ee', 'oh', 'blinkLeft', 'blinkRight'].map((name) => ({ kind: 'expression', name })),
    );
    // Every viseme but sil / PP opens a vowel; those two (closed lips) fall back to a closed mouth.
    expect(coverage.counts.visemes).toEqual({ bound: 13, total: 15 });
    expect(coverage.fallbacks.filter((f) => f.via === 'vowels').map((f) => f.channel)).toContain('viseme_PP');
    expect(coverage.unmatched).toEqual(['expression:happy']);
    expect(coverage.poses).toContainEqual({ channel: 'eyePose', target: { kind: 'lookAt', type: 'bone' } });
    expect(coverage.poses).toContainEqual({
      channel: 'rotation',
      target: { kind: 'bone', bone: 'head', node: 'Head' },
    });
    // The service's report for the upload (from the file's JSON) says the same as what bound here.
    expect(uploaded.vrm1).toEqual(coverage);
    // Logged once, at info.
    expect(logs.filter((l) => l.includes(`Avatar ${AVATARS.vrm1} (vrm1)`))).toHaveLength(1);

    expect(result.rest).toMatchObject({ aa: 0, oh: 0, jawOpen: 0 });
    // aa → expression aa at 1 → three-vrm sets the Face's jawOpen to the expression's 0.75.
    expect(result.aa.aa).toBeCloseTo(1, 5);
    expect(result.aa.influenceAa).toBeCloseTo(1, 5);
    expect(result.aa.jawOpen).toBeCloseTo(0.75, 3);
    expect(result.mouthPixels).toBeGreaterThan(60);
    // Head turned back and mouth closed: the picture returns to rest (but for the settling ponytail).
    expect(result.restPixels).toBeLessThan(result.mouthPixels / 4);
    // O and kk: oh fully, aa at kk's 0.35, ih at kk's 0.2.
    expect(result.o.oh).toBeCloseTo(1, 5);
    expect(result.o.aa).toBeCloseTo(0.35, 5);
    expect(result.o.ih).toBeCloseTo(0.2, 5);
    expect(result.o.mouthFunnel).toBeGreaterThan(0.7);
    expect(result.blink.blinkLeft).toBeCloseTo(1, 5);
    expect(result.blink.eyelid).toBeCloseTo(1, 3);
    expect(result.eyeTurn).toBeGreaterThan(0.02);
    expect(result.headTurn).toBeCloseTo(0.5, 2);
    expect(result.tailSwing).toBeGreaterThan(0.005);
    await page.close();
  });

  it('drives the VRM 0.x sample (facing −Z, turned by three-vrm) through its blend shape groups', async () => {
    const page = await openPage();
    const result = await page.evaluate(async (id) => {
      const { probe } = (window as PageWindow).ad;
      const view = await probe.openView(id);
      const coverage = JSON.parse(JSON.stringify(view.avatarCoverage));
      const idle = probe.canvasPixels(view.canvas);
      view.applyFrame(probe.frameWith({ viseme_aa: 1 }));
      await probe.frames(3);
      const aa = view.getExpressionWeight('aa');
      const jawOpen = probe.morphInfluence(view.model, 'Face', 'jawOpen');
      const mouthPixels = probe.changedPixels(idle, probe.canvasPixels(view.canvas));
      view.dispose();
      return { coverage, aa, jawOpen, mouthPixels };
    }, AVATARS.vrm0);
    expect(result.coverage.format).toBe('vrm0');
    expect(result.coverage.mouth).toBe('vowels');
    expect(result.aa).toBeCloseTo(1, 5);
    expect(result.jawOpen).toBeCloseTo(0.75, 3);
    // The face is towards the camera: opening the mouth changes what is seen.
    expect(result.mouthPixels).toBeGreaterThan(60);
    await page.close();
  });

  it('drives the Ready Player Me–style GLB through its ARKit morphs, visemes falling back to them', async () => {
    const page = await openPage();
    const result = await page.evaluate(async (id) => {
      const { probe } = (window as PageWindow).ad;
      const view = await probe.openView(id);
      const coverage = JSON.parse(JSON.stringify(view.avatarCoverage));
      const idle = probe.canvasPixels(view.canvas);
      view.applyFrame(probe.frameWith({ jawOpen: 0.8, viseme_aa: 1 }));
      await probe.frames(3);
      const read = {
        jawOpen: view.getMorphInfluence('jawOpen'),
        head: probe.morphInfluence(view.model, 'Wolf3D_Head', 'jawOpen'),
        teeth: probe.morphInfluence(view.model, 'Wolf3D_Teeth', 'jawOpen'),
        visemeMorph: probe.morphInfluence(view.model, 'Wolf3D_Head', 'viseme_aa'),
        viseme: view.getMorphInfluence('aa'),
      };
      const mouthPixels = probe.changedPixels(idle, probe.canvasPixels(view.canvas));
      view.dispose();
      return { coverage, read, mouthPixels };
    }, AVATARS.rpm);
    const coverage = result.coverage as AvatarCoverage;
    expect(coverage.format).toBe('arkit+oculus-visemes');
    expect(coverage.mouth).toBe('arkit');
    expect(coverage.counts.arkit).toEqual({ bound: 52, total: 52 });
    expect(coverage.counts.visemes.bound).toBe(0);
    expect(coverage.fallbacks.filter((f) => f.via === 'arkit-mouth')).toHaveLength(15);
    expect(coverage.unmatched).toContain('Wolf3D_Head/mouthOpen');
    expect(uploaded.rpm).toMatchObject({
      format: coverage.format,
      mouth: coverage.mouth,
      missing: coverage.missing,
    });
    expect(uploaded.rpm?.counts).toEqual(coverage.counts);
    expect(result.read.jawOpen).toBeCloseTo(0.8, 5);
    expect(result.read.head).toBeCloseTo(0.8, 5);
    expect(result.read.teeth).toBeCloseTo(0.8, 5);
    // The viseme morphs stay at rest: the mouth is not driven twice.
    expect(result.read.visemeMorph).toBe(0);
    expect(result.read.viseme).toBeUndefined();
    expect(result.mouthPixels).toBeGreaterThan(60);
    await page.close();
  });

  it('moves the mouth of the VRM and the RPM-style avatar from speech sent through the service', async () => {
    const speech = speechBase64('Hello there, how are you doing today?');
    for (const [id, mesh] of [
      [AVATARS.vrm1, 'Face'],
      [AVATARS.rpm, 'Wolf3D_Head'],
    ] as const) {
      const page = await openPage();
      const token = await mintSessionToken(service.consoleUrl, credentials.apiKey);
      const result = await page.evaluate(
        async ({ id, mesh, token, speech }) => {
          const { AvatarSDK, probe, b64 } = (window as PageWindow).ad;
          const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
          const view = await probe.openView(id);
          const c = view.controller;
          await c.initializeAudioContext();
          AvatarSDK.setSessionToken(token);
          await c.start();
          const bytes: Uint8Array = b64(speech);
          const audio = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
          for (let at = 0; at < audio.length; at += 3200)
            c.send(audio.subarray(at, at + 3200), at + 3200 >= audio.length);
          let maxJaw = 0;
          let maxVowel = 0;
          let samples = 0;
          const deadline = performance.now() + 15000;
          await wait(100);
          while (c.conversationState !== 'idle' && performance.now() < deadline) {
            await wait(20);
            samples += 1;
            maxJaw = Math.max(maxJaw, probe.morphInfluence(view.model, mesh, 'jawOpen') ?? 0);
            for (const v of ['aa', 'ih', 'ou', 'ee', 'oh'])
              maxVowel = Math.max(maxVowel, view.getExpressionWeight(v) ?? 0);
          }
          const endState = c.conversationState;
          c.close();
          view.dispose();
          return { maxJaw, maxVowel, samples, endState };
        },
        { id, mesh, token, speech },
      );
      expect(result.endState).toBe('idle');
      expect(result.samples).toBeGreaterThan(3);
      expect(result.maxJaw, `${id}: the jaw opened while speaking`).toBeGreaterThan(0.1);
      if (id === AVATARS.vrm1) expect(result.maxVowel).toBeGreaterThan(0.2);
      await page.close();
    }
  });
});
