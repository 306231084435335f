// @vitest-environment node
/**
 * A built-in avatar (packages/avatars/dist) through AvatarView in real Chromium: every ARKit
 * target binds (no warning), the manifest's camera frames the face, and jawOpen / mouthFunnel
 * visibly change the mouth. Writes docs/images/client-web-<id>.png for the README.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSession,
  BUILT_IN_AVATARS_DIR,
  launchChromium,
  type PageServer,
  startPageServer,
} from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const IMAGES = join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/images');
let server: PageServer;
let chrome: BrowserSession;

beforeAll(async () => {
  server = await startPageServer();
  chrome = await launchChromium();
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
});

describe('built-in avatars in AvatarView', () => {
  // One built-in avatar proves the SDK path (the avatars package renders each of them itself).
  for (const id of ['mika']) {
    it(`renders ${id} with every ARKit target bound and a mouth that follows the frames`, async () => {
      expect(existsSync(join(BUILT_IN_AVATARS_DIR, id, 'avatar.glb')), 'run pnpm build first').toBe(true);
      const page = await chrome.context.newPage();
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      await page.goto(server.origin);
      await page.waitForFunction(() => document.title === 'ready');
      const result = await page.evaluate(async (id) => {
        const { AvatarSDK, Avatar, AvatarView, createDriveFrame } = (window as PageWindow).ad;
        AvatarSDK.initialize('app', {
          drivingServiceMode: 'host',
          audioFormat: { channelCount: 1, sampleRate: 16000 },
          logLevel: 'warn',
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
        container.style.width = '360px';
        container.style.height = '360px';
        const view = new AvatarView(avatar, container, {
          background: '#e9edf2',
          idleMotion: false,
          preserveDrawingBuffer: true,
          transitionInFrames: 0,
          transitionOutFrames: 0,
        });
        await view.ready;
        const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        await frames();
        const pixels = () => {
          const gl = view.canvas.getContext('webgl2') as WebGL2RenderingContext;
          const size = 64; // the face's middle-lower part: the mouth
          const out = new Uint8Array(size * size * 4);
          gl.readPixels(
            view.canvas.width / 2 - size / 2,
            view.canvas.height * 0.3,
            size,
            size,
            gl.RGBA,
            gl.UNSIGNED_BYTE,
            out,
          );
          return Array.from(out);
        };
        const shots: Record<string, number[]> = {};
        const influences: Record<string, number | undefined> = {};
        for (const shape of ['idle', 'jawOpen', 'mouthFunnel']) {
          const frame = createDriveFrame();
          const index = (window as PageWindow).ad.ARKIT_BLENDSHAPES.indexOf(shape);
          if (index >= 0) frame.expression[index] = 1;
          view.applyFrame(frame);
          await frames();
          shots[shape] = pixels();
          influences[shape] = view.getMorphInfluence(shape === 'idle' ? 'jawOpen' : shape);
        }
        const speaking = createDriveFrame();
        const names = (window as PageWindow).ad.ARKIT_BLENDSHAPES;
        speaking.expression[names.indexOf('jawOpen')] = 0.45;
        speaking.expression[names.indexOf('mouthSmileLeft')] = 0.35;
        speaking.expression[names.indexOf('mouthSmileRight')] = 0.35;
        view.applyFrame(speaking);
        await frames();
        // The doc image straight from the drawn canvas: an element screenshot waits for a fresh
        // frame, which software GL on a loaded machine can take longer to make than the test has.
        const png = view.canvas.toDataURL('image/png').split(',')[1];
        return { shots, influences, png, size: [view.canvas.width, view.canvas.height] };
      }, id);
      const diff = (a: number[], b: number[]) =>
        a.reduce((n, v, i) => n + (Math.abs(v - b[i]!) > 24 ? 1 : 0), 0) / a.length;
      expect(warnings.filter((w) => w.includes('morph targets'))).toEqual([]);
      expect(result.influences).toEqual({ idle: 0, jawOpen: 1, mouthFunnel: 1 });
      const opened = diff(result.shots.idle!, result.shots.jawOpen!);
      const funnel = diff(result.shots.jawOpen!, result.shots.mouthFunnel!);
      console.log(
        `[margin] ${id}: pixels changed idle→jawOpen ${(opened * 100).toFixed(1)} % (×${(opened / 0.02).toFixed(1)} over 2 %), jawOpen→mouthFunnel ${(funnel * 100).toFixed(1)} % (×${(funnel / 0.02).toFixed(1)})`,
      );
      expect(opened).toBeGreaterThan(0.02);
      expect(funnel).toBeGreaterThan(0.02);
      mkdirSync(IMAGES, { recursive: true });
      writeFileSync(join(IMAGES, `client-web-${id}.png`), Buffer.from(result.png, 'base64'));
      await page.close();
      // Software GL (SwiftShader) compiles the skinned, morphed 1.8 MB model slowly on a busy
      // machine (176 s at a load of 20 on 2 cores).
    }, 300_000);
  }

  it('surfaceDetail: false drops the normal and occlusion maps, keeps colour and roughness maps, and still speaks', async () => {
    expect(existsSync(join(BUILT_IN_AVATARS_DIR, 'mika', 'avatar.glb')), 'run pnpm build first').toBe(true);
    const page = await chrome.context.newPage();
    await page.goto(server.origin);
    await page.waitForFunction(() => document.title === 'ready');
    const result = await page.evaluate(async () => {
      const { AvatarSDK, Avatar, AvatarView, createDriveFrame, ARKIT_BLENDSHAPES } = (window as PageWindow)
        .ad;
      AvatarSDK.initialize('app', {
        drivingServiceMode: 'host',
        audioFormat: { channelCount: 1, sampleRate: 16000 },
        logLevel: 'error',
      });
      const manifest = await (await fetch('/built-in/mika/manifest.json')).json();
      const glb = await (await fetch('/built-in/mika/avatar.glb')).arrayBuffer();
      const container = document.getElementById('a')!;
      container.style.width = '240px';
      container.style.height = '240px';
      /** How many materials of the view's model use each map slot. */
      const slots = (view: PageWindow) => {
        const counts: Record<string, number> = { map: 0, normalMap: 0, aoMap: 0, roughnessMap: 0 };
        const seen = new Set();
        view.model.traverse((o: PageWindow) => {
          if (!o.isMesh || seen.has(o.material)) return;
          seen.add(o.material);
          for (const slot of Object.keys(counts)) if (o.material[slot]) counts[slot]! += 1;
        });
        return counts;
      };
      const open = async (options: Record<string, unknown>) => {
        const avatar = new Avatar(
          {
            ...manifest,
            assets: [{ kind: 'model', name: 'avatar.glb', url: 'avatar.glb', size: glb.byteLength }],
          },
          new Map([['avatar.glb', glb.slice(0)]]),
          0,
        );
        const view = new AvatarView(avatar, container, {
          background: '#e9edf2',
          idleMotion: false,
          preserveDrawingBuffer: true,
          transitionInFrames: 0,
          transitionOutFrames: 0,
          maxPixelRatio: 1,
          antialias: false,
          environmentLighting: false,
          ...options,
        });
        await view.ready;
        return view;
      };
      const view = await open({ surfaceDetail: false });
      const without = slots(view);
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const mouth = async (jaw: number) => {
        const frame = createDriveFrame();
        frame.expression[ARKIT_BLENDSHAPES.indexOf('jawOpen')] = jaw;
        view.applyFrame(frame);
        await frames();
        const gl = view.canvas.getContext('webgl2') as WebGL2RenderingContext;
        const out = new Uint8Array(32 * 32 * 4);
        gl.readPixels(
          view.canvas.width / 2 - 16,
          view.canvas.height * 0.3,
          32,
          32,
          gl.RGBA,
          gl.UNSIGNED_BYTE,
          out,
        );
        return Array.from(out);
      };
      const closed = await mouth(0);
      const opened = await mouth(1);
      view.dispose();
      return { without, closed, opened };
    });
    // The built-in's face wears a normal map and an ORM texture (occlusion + roughness; glb.test
    // checks they are in the file): without surface detail the normal and occlusion maps are gone,
    // the colour maps (face, ears, neck, hair cards) and the roughness maps stay.
    expect(result.without.normalMap).toBe(0);
    expect(result.without.aoMap).toBe(0);
    expect(result.without.map).toBeGreaterThanOrEqual(3);
    expect(result.without.roughnessMap).toBeGreaterThanOrEqual(2);
    const changed =
      result.closed.reduce((n, v, i) => n + (Math.abs(v - result.opened[i]!) > 24 ? 1 : 0), 0) /
      result.closed.length;
    console.log(
      `[margin] surfaceDetail false: pixels changed shut→open ${(changed * 100).toFixed(1)} % (×${(changed / 0.02).toFixed(1)} over 2 %)`,
    );
    expect(changed).toBeGreaterThan(0.02);
    await page.close();
  }, 180_000);
});
