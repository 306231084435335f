/** Reading the demo page's state (its `window.__demo` hook and the DOM) and its mouth pixels. */
import type { Page } from '@playwright/test';

/** What a test sees of the page at one instant. */
export interface DemoState {
  mode: string;
  connection: string;
  conversation: string;
  timeline: string[];
  region: string | undefined;
  level: number;
  peakLevel: number;
  jawOpen: number;
  peakJaw: number;
  downloadedBytes: number | undefined;
  errors: Array<{ code: string; message: string }>;
}

export async function readState(page: Page): Promise<DemoState> {
  return page.evaluate(() => {
    const d = window.__demo;
    return {
      mode: d.mode,
      connection: document.querySelector('[data-testid=connection-state]')?.textContent ?? '',
      conversation: document.querySelector('[data-testid=conversation-state]')?.textContent ?? '',
      timeline: [...d.timeline],
      region: d.region,
      level: d.level,
      peakLevel: d.peakLevel,
      jawOpen: d.jawOpen,
      peakJaw: d.peakJaw,
      downloadedBytes: d.downloadedBytes,
      errors: [...d.errors],
    };
  });
}

/** Polls until `predicate` holds; fails with the last state seen. */
export async function waitForState(
  page: Page,
  predicate: (state: DemoState) => boolean,
  timeoutMs: number,
): Promise<DemoState> {
  const deadline = Date.now() + timeoutMs;
  let state = await readState(page);
  while (!predicate(state)) {
    if (Date.now() > deadline) {
      throw new Error(
        `The page did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(state)}`,
      );
    }
    await page.waitForTimeout(100);
    state = await readState(page);
  }
  return state;
}

/** `count` readings of the page state, `intervalMs` apart. */
export async function sampleStates(page: Page, count: number, intervalMs: number): Promise<DemoState[]> {
  const states: DemoState[] = [];
  for (let i = 0; i < count; i++) {
    if (i) await page.waitForTimeout(intervalMs);
    states.push(await readState(page));
  }
  return states;
}

/**
 * In the page (opened with `?capture=1`, which keeps the avatar canvas's last frame readable):
 * optionally clicks `click`, then at each animation frame checks the jaw influence applied to the
 * avatar, and the first time it is within `minJaw`..`maxJaw` (default 0..1; while playing, when `whilePlaying`) copies
 * the mouth region out of the canvas as a PNG: x 36–64 %, y 44–62 % of the stage, where the
 * avatar's framing (its manifest) puts the mouth, a little below the middle.
 * Reading the canvas takes one frame, where a screenshot takes long enough (hundreds of ms on
 * software GL) for the mouth to close between syllables. Undefined if that did not happen within
 * `timeoutMs` (or playback ended first, when `whilePlaying`).
 */
export async function captureMouth(
  page: Page,
  options: { minJaw?: number; maxJaw?: number; whilePlaying: boolean; click?: string; timeoutMs: number },
): Promise<{ png: Buffer; jaw: number } | undefined> {
  await page.getByTestId('avatar').scrollIntoViewIfNeeded();
  const result = await page.evaluate(async ({ minJaw = 0, maxJaw = 1, whilePlaying, click, timeoutMs }) => {
    const d = window.__demo;
    const stage = document.querySelector('[data-testid=avatar]') as HTMLElement;
    const canvas = stage.querySelector('canvas') as HTMLCanvasElement;
    const conversation = () => document.querySelector('[data-testid=conversation-state]')?.textContent;
    if (click) (document.querySelector(`[data-testid=${click}]`) as HTMLElement).click();
    const t0 = performance.now();
    let started = false;
    const jaw = await new Promise<number | undefined>((resolve) => {
      const check = () => {
        const playing = conversation() === 'playing';
        started ||= playing;
        if (performance.now() - t0 > timeoutMs || (whilePlaying && started && !playing))
          return resolve(undefined);
        if (d.jawOpen >= minJaw && d.jawOpen <= maxJaw && (!whilePlaying || playing))
          return resolve(d.jawOpen);
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    if (jaw === undefined) return undefined;
    const s = stage.getBoundingClientRect();
    const c = canvas.getBoundingClientRect();
    const scale = canvas.width / c.width;
    const sx = Math.round((s.x + s.width * 0.36 - c.x) * scale);
    const sy = Math.round((s.y + s.height * 0.44 - c.y) * scale);
    const sw = Math.round(s.width * 0.28 * scale);
    const sh = Math.round(s.height * 0.18 * scale);
    const out = new OffscreenCanvas(sw, sh);
    out.getContext('2d')!.drawImage(canvas, sx, sy, sw, sh, 0, 0, sw, sh);
    const blob = await out.convertToBlob({ type: 'image/png' });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return { png: btoa(binary), jaw };
  }, options);
  return result && { png: Buffer.from(result.png, 'base64'), jaw: result.jaw };
}

/** Mean absolute difference (0..255) between two same-size PNGs, decoded by the page. */
export async function mouthDiff(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([pngA, pngB]) => {
      const decode = async (base64: string) => {
        const blob = await (await fetch(`data:image/png;base64,${base64}`)).blob();
        const bitmap = await createImageBitmap(blob);
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(bitmap, 0, 0);
        return ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const [x, y] = await Promise.all([decode(pngA), decode(pngB)]);
      const n = Math.min(x.length, y.length);
      let sum = 0;
      let count = 0;
      for (let i = 0; i < n; i += 4) {
        sum += Math.abs(x[i]! - y[i]!) + Math.abs(x[i + 1]! - y[i + 1]!) + Math.abs(x[i + 2]! - y[i + 2]!);
        count += 3;
      }
      return count ? sum / count : 0;
    },
    [a.toString('base64'), b.toString('base64')] as const,
  );
}
