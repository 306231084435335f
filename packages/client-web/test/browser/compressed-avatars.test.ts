// @vitest-environment node
/**
 * Compressed avatars in real Chromium against the real service: the Ready Player Me–style
 * built-in sample compressed with meshopt (EXT_meshopt_compression + KHR_mesh_quantization, made
 * here by glTF-Transform) is uploaded, served, decoded by AvatarView (three's MeshoptDecoder) and
 * driven — the same vertices, morph targets and coverage as the uncompressed upload, the mouth
 * moving — and a KTX2 texture (KHR_texture_basisu, UASTC) is transcoded by the Basis transcoder
 * fetched from AvatarView's default path and drawn in its colour.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AvatarCoverage } from '@avatar-drive/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The service's test support builds the compressed files (glTF-Transform is its dev dependency).
import {
  makeKtx2,
  meshoptGlb,
  withKtx2Texture,
} from '../../../../apps/service/test/support/compressed-glb.js';
import { makeGlb } from '../../../../apps/service/test/support/glb.js';
import { packGlb, splitGlb } from '../../../../apps/service/test/support/glb-edit.js';
import { type BrowserSession, launchChromium, type PageServer, startPageServer } from './harness.js';
import { type RunningService, serviceBuilt, startService } from './service.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals are untyped across the evaluate boundary
type PageWindow = any;

const SAMPLE = fileURLToPath(new URL('../../../avatars/samples/juno-rpm.glb', import.meta.url));

let server: PageServer;
let chrome: BrowserSession;
let service: RunningService;
let workDir: string;
let credentials: { appId: string; apiKey: string };
const ids = { plain: '', meshopt: '', red: '', blue: '' };
const coverage: Partial<Record<keyof typeof ids, AvatarCoverage>> = {};

async function upload(name: keyof typeof ids, bytes: Buffer): Promise<void> {
  const response = await fetch(`${service.consoleUrl}/v1/console/avatars?name=${name}`, {
    method: 'POST',
    headers: { 'content-type': 'model/gltf-binary', 'x-api-key': credentials.apiKey },
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`uploading ${name}: ${response.status} ${text}`);
  const body = JSON.parse(text) as { avatar: { id: string }; coverage: AvatarCoverage };
  ids[name] = body.avatar.id;
  coverage[name] = body.coverage;
}

/** A 16-byte UASTC block of one colour (mode 8, "solid colour": 5 mode bits, then R, G, B, A). */
function solidUastcBlock([r, g, b, a]: [number, number, number, number]): Uint8Array {
  let bits = 23n | (BigInt(r) << 5n) | (BigInt(g) << 13n) | (BigInt(b) << 21n) | (BigInt(a) << 29n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) {
    out[i] = Number(bits & 0xffn);
    bits >>= 8n;
  }
  return out;
}

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

beforeAll(async () => {
  if (!serviceBuilt)
    throw new Error('apps/service/dist/main.js is missing: run pnpm build (scripts/setup.sh does).');
  server = await startPageServer();
  chrome = await launchChromium();
  workDir = await mkdtemp(join(tmpdir(), 'client-web-compressed-'));
  service = await startService('us-west', ['--dev-credentials', join(workDir, 'dev.json')]);
  credentials = JSON.parse(await readFile(join(workDir, 'dev.json'), 'utf8'));
  server.targets.set('us-west', service.consoleUrl);
  const plain = await readFile(SAMPLE);
  await upload('plain', plain);
  await upload('meshopt', await meshoptGlb(plain));
  const textured = (rgba: [number, number, number, number]) =>
    withKtx2Texture(
      makeGlb(['jawOpen']),
      makeKtx2(64, 64, { levels: 7, block: solidUastcBlock(rgba) }),
      splitGlb,
      packGlb,
    );
  await upload('red', textured([230, 20, 20, 255]));
  await upload('blue', textured([20, 20, 230, 255]));
}, 180_000);

afterAll(async () => {
  await chrome?.close();
  await server?.close();
  await service?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('compressed avatars in AvatarView, served by the service', () => {
  it('decodes the meshopt upload: same vertices, targets and coverage as the original, and its mouth moves', async () => {
    const page = await openPage();
    const result = await page.evaluate(
      async ({ plainId, meshoptId }) => {
        const { probe } = (window as PageWindow).ad;
        const read = async (id: string) => {
          const view = await probe.openView(id);
          const meshes: Record<string, { vertices: number; targets: number }> = {};
          view.model.traverse((o: PageWindow) => {
            if (o.isMesh)
              meshes[o.name] = {
                vertices: o.geometry.attributes.position.count,
                targets: o.geometry.morphAttributes.position?.length ?? 0,
              };
          });
          const idle = probe.canvasPixels(view.canvas);
          view.applyFrame(probe.frameWith({ jawOpen: 0.8, mouthFunnel: 0.5 }));
          await probe.frames(3);
          const open = probe.canvasPixels(view.canvas);
          const influence = probe.morphInfluence(view.model, 'Wolf3D_Head', 'jawOpen');
          view.applyFrame(probe.frameWith({}));
          await probe.frames(3);
          const closed = probe.canvasPixels(view.canvas);
          const out = {
            coverage: JSON.parse(JSON.stringify(view.avatarCoverage)),
            meshes,
            influence,
            idle,
            mouthPixels: probe.changedPixels(idle, open),
            restPixels: probe.changedPixels(idle, closed),
          };
          view.dispose();
          return out;
        };
        const plain = await read(plainId);
        const meshopt = await read(meshoptId);
        return {
          plain: { ...plain, idle: undefined },
          meshopt: { ...meshopt, idle: undefined },
          // The quantized, compressed head against the original: a handful of edge pixels at most.
          differsFromPlain: probe.changedPixels(plain.idle, meshopt.idle),
        };
      },
      { plainId: ids.plain, meshoptId: ids.meshopt },
    );
    expect(Object.keys(result.meshopt.meshes).sort()).toEqual(Object.keys(result.plain.meshes).sort());
    expect(result.meshopt.meshes).toEqual(result.plain.meshes);
    expect(result.meshopt.meshes.Wolf3D_Head?.targets).toBeGreaterThanOrEqual(52);
    expect(result.meshopt.coverage).toEqual(result.plain.coverage);
    expect(coverage.meshopt).toMatchObject({ format: result.meshopt.coverage.format, mouth: 'arkit' });
    expect(result.meshopt.influence).toBeCloseTo(0.8, 5);
    expect(result.meshopt.mouthPixels).toBeGreaterThan(60);
    expect(result.meshopt.restPixels).toBe(0);
    expect(result.differsFromPlain).toBeLessThan(result.meshopt.mouthPixels / 4);
    await page.close();
  });

  it('transcodes a KTX2 texture with the Basis transcoder from the default path and draws its colour', async () => {
    const before = server.requests.length;
    const page = await openPage();
    const result = await page.evaluate(
      async ({ redId, blueId }) => {
        const { probe } = (window as PageWindow).ad;
        const colours = async (id: string) => {
          const view = await probe.openView(id);
          let texture: PageWindow;
          view.model.traverse((o: PageWindow) => {
            if (o.isMesh) texture ??= o.material.map;
          });
          const pixels: Uint8Array = probe.canvasPixels(view.canvas);
          let red = 0;
          let blue = 0;
          for (let i = 0; i < pixels.length; i += 4) {
            const [r, g, b] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
            if (r > g + 60 && r > b + 60) red++;
            if (b > g + 60 && b > r + 60) blue++;
          }
          // A GPU block format where the renderer has one, else RGBA (KTX2Loader's choice).
          const out = {
            transcoded: Boolean(texture?.isCompressedTexture || texture?.isDataTexture),
            red,
            blue,
          };
          view.dispose();
          return out;
        };
        return { red: await colours(redId), blue: await colours(blueId) };
      },
      { redId: ids.red, blueId: ids.blue },
    );
    const fetched = server.requests.slice(before);
    expect(fetched).toContain('/basis/basis_transcoder.js');
    expect(fetched).toContain('/basis/basis_transcoder.wasm');
    expect(result.red.transcoded).toBe(true);
    expect(result.blue.transcoded).toBe(true);
    expect(result.red.red).toBeGreaterThan(500);
    expect(result.red.blue).toBe(0);
    expect(result.blue.blue).toBeGreaterThan(500);
    expect(result.blue.red).toBe(0);
    await page.close();
  });
});
