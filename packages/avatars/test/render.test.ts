/**
 * Renders every built-in avatar in real Chromium (WebGL through SwiftShader): idle, jawOpen,
 * mouthFunnel and mouthClose. The mouth region must change clearly between them; one sheet of
 * every avatar (idle, speaking, a close-up of the face, a three-quarter view, a profile) goes to
 * docs/images/avatar-sheet.png for the READMEs (the earlier design-pass frames are no longer kept
 * in the repository).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOA, NOA_COLORS } from '../generator/cc0/noa.js';
import { AVATAR_STYLES } from '../generator/style.js';
import type { AvatarIndex, AvatarManifest } from '../src/manifest.js';
import { type RenderHarness, startRenderHarness } from './render/harness.js';
import type { Rect, SheetRow } from './render/page.js';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const sheetFile = fileURLToPath(new URL('../../../docs/images/avatar-sheet.png', import.meta.url));
/** A close-up of the face (eyes to chin) where skin texture, lips and eye highlights show. */
const CLOSE_UP = { position: [0, 1.59, 0.34], target: [0, 1.575, 0], fov: 24 };
/** Three-quarter view from the avatar's left: hair layers, ear, jaw line and neck. */
const SIDE = { position: [0.44, 1.6, 0.4], target: [0, 1.565, 0], fov: 30 };
/** A true profile from the avatar's left: chin, jaw angle, neck and the back of the head. */
const PROFILE = { position: [0.62, 1.58, 0], target: [0, 1.55, 0], fov: 30 };
/** The still views written after the poses (in the idle pose), by frame name. */
const VIEWS = { closeup: CLOSE_UP, side: SIDE, profile: PROFILE };
/** One avatar's frames take ~1–3 minutes in SwiftShader on a busy machine. */
const RENDER_TIMEOUT = 420_000;
const index = JSON.parse(readFileSync(join(dist, 'index.json'), 'utf8')) as AvatarIndex;

const POSES: Record<string, Record<string, number>> = {
  idle: {},
  jawOpen: { jawOpen: 1 },
  mouthFunnel: { mouthFunnel: 1 },
  mouthClose: { mouthClose: 1 },
};

/** Extra frames for the docs (not compared): mid-word speech and a blink. */
const DOC_POSES: Record<string, Record<string, number>> = {
  speaking: { jawOpen: 0.45, mouthFunnel: 0.15, mouthUpperUpLeft: 0.2, mouthUpperUpRight: 0.2 },
  blink: { eyeBlinkLeft: 1, eyeBlinkRight: 1 },
};

/** Thresholds on the mouth region: mean |ΔRGB| (0..255) and share of pixels changed by > 40. */
const MIN_MEAN_DIFF = 6;
const MIN_CHANGED = 0.05;

/** Mean absolute RGB difference (0..255) and the share of pixels that changed by more than 40. */
function compare(a: number[], b: number[]): { mean: number; changed: number } {
  let sum = 0;
  let changed = 0;
  const n = a.length / 4;
  for (let i = 0; i < a.length; i += 4) {
    const d = Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!);
    sum += d / 3;
    if (d / 3 > 40) changed++;
  }
  return { mean: sum / n, changed: changed / n };
}

describe('built-in avatars render in Chromium', () => {
  let harness: RenderHarness;
  beforeAll(async () => {
    harness = await startRenderHarness(dist);
  });
  afterAll(async () => {
    await harness?.close();
  });

  /** Frames rendered by the tests below, as data URLs, for the sheet. */
  const frames = new Map<string, string>();

  for (const entry of index.avatars) {
    it(
      `${entry.id}: mouth shapes are told apart on screen`,
      async () => {
        const manifest = JSON.parse(readFileSync(join(dist, entry.manifest), 'utf8')) as AvatarManifest;
        const { page, baseUrl } = harness;
        const info = await page.evaluate(([url, camera]) => window.avatarPage.load(url, camera), [
          `${baseUrl}/avatars/${entry.id}/${manifest.model.uri}`,
          manifest.camera,
        ] as const);
        expect(info.morphMeshes).toBeGreaterThan(0);
        expect(info.targetNames).toEqual(expect.arrayContaining(['jawOpen', 'mouthFunnel', 'mouthClose']));

        // The skin shows its designed colour: the brow (between the eyebrows) in the SDK's light rig and tone
        // mapping stays near the style's sRGB skin colour and keeps its saturation. (ACES filmic with
        // the old rig gave deep-brown skin 1.4× too bright and washed out: "paler than designed".)
        await page.evaluate(() => window.avatarPage.pose({}));
        const design =
          entry.id === NOA.id ? NOA_COLORS.skin : AVATAR_STYLES.find((s) => s.id === entry.id)!.colors.skin;
        const designRgb = [(design >> 16) & 255, (design >> 8) & 255, design & 255];
        const forehead = await page.evaluate(() => window.avatarPage.surfaceColor([0, 1.618, 0.09]));
        expect(forehead.mesh).toBe('Face');
        const ratios = forehead.rgb.map((v, c) => v / designRgb[c]!);
        const chroma = (rgb: number[]) => (Math.max(...rgb) - Math.min(...rgb)) / Math.max(...rgb);
        console.log(
          `${entry.id} forehead rgb ${forehead.rgb.map((v) => v.toFixed(0)).join(',')} vs design ${designRgb.join(',')}: ` +
            `ratio ${ratios.map((r) => r.toFixed(2)).join('/')}, chroma ${chroma(forehead.rgb).toFixed(2)} vs ${chroma(designRgb).toFixed(2)}`,
        );
        for (const r of ratios) {
          expect(r).toBeGreaterThan(0.85);
          expect(r).toBeLessThan(1.3);
        }
        expect(chroma(forehead.rgb)).toBeGreaterThan(chroma(designRgb) * 0.8);

        const rect: Rect = await page.evaluate(() => window.avatarPage.mouthRect());
        expect(rect.width).toBeGreaterThan(20);
        expect(rect.height).toBeGreaterThan(10);

        const mouth: Record<string, number[]> = {};
        for (const [pose, weights] of Object.entries(POSES)) {
          const png = await page.evaluate((w) => {
            window.avatarPage.pose(w);
            return window.avatarPage.png();
          }, weights);
          frames.set(`${entry.id}-${pose}`, png);
          mouth[pose] = await page.evaluate((r) => window.avatarPage.pixels(r), rect);
        }
        for (const [pose, weights] of Object.entries(DOC_POSES)) {
          const png = await page.evaluate((w) => {
            window.avatarPage.pose(w);
            return window.avatarPage.png();
          }, weights);
          frames.set(`${entry.id}-${pose}`, png);
        }
        await page.evaluate(() => window.avatarPage.pose({}));
        for (const [view, camera] of Object.entries(VIEWS)) {
          const png = await page.evaluate((c) => {
            window.avatarPage.view(c);
            return window.avatarPage.png();
          }, camera);
          frames.set(`${entry.id}-${view}`, png);
        }
        const poses = Object.keys(POSES);
        const pairs: { pair: string; mean: number; changed: number }[] = [];
        for (let i = 0; i < poses.length; i++) {
          for (let j = i + 1; j < poses.length; j++) {
            pairs.push({ pair: `${poses[i]}/${poses[j]}`, ...compare(mouth[poses[i]!]!, mouth[poses[j]!]!) });
          }
        }
        const figures = pairs.map(
          (p) => `${p.pair} mean ${p.mean.toFixed(1)} changed ${(p.changed * 100).toFixed(1)}%`,
        );
        console.log(`${entry.id} mouth ${rect.width}x${rect.height}: ${figures.join('; ')}`);
        // Every pair of mouth shapes differs clearly in the mouth region.
        for (const p of pairs) {
          expect(p.mean, p.pair).toBeGreaterThan(MIN_MEAN_DIFF);
          expect(p.changed, p.pair).toBeGreaterThan(MIN_CHANGED);
        }
      },
      RENDER_TIMEOUT,
    );
  }

  it('writes the sheet of every built-in (idle, speaking, close-up, three-quarter, profile) to docs/images', async () => {
    const columns = ['idle', 'speaking', 'closeup', 'side', 'profile'];
    const rows: SheetRow[] = [];
    for (const entry of index.avatars) {
      const now = columns.map((pose) => frames.get(`${entry.id}-${pose}`));
      // Only after the per-avatar tests above ran (a filtered run writes no sheet).
      if (now.some((f) => f === undefined)) return;
      rows.push({ label: entry.name, images: now as string[] });
    }
    const png = await harness.page.evaluate(([r, c]) => window.avatarPage.sheet(r, c), [
      rows,
      columns,
    ] as const);
    const bytes = Buffer.from(png.split(',')[1]!, 'base64');
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    await writeFile(sheetFile, bytes);
  });
});
