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
 * In the page: clicks `testid` (a sample), waits (polling every 5 ms) for the jaw influence applied
 * to the avatar to reach `minJaw` while playing, and clicks Pause in that same task. Pausing
 * suspends the audio clock, which the animation follows, a moment later; so the pose counts only
 * once the jaw has stopped moving (unchanged for 200 ms) and is still at least `minJaw`, and if it
 * settled lower, playback resumes and the next open moment is tried. Returns the held jaw, or
 * undefined if no open pose was held before playback ended (or `timeoutMs` passed). Page-side, so
 * a slow test process cannot miss a moment of speech; the held pose stays put for a slow
 * screenshot.
 */
export async function playAndPauseWithOpenMouth(
  page: Page,
  testid: string,
  minJaw: number,
  timeoutMs: number,
): Promise<number | undefined> {
  return page.evaluate(
    async ([id, min, timeout]) => {
      const d = window.__demo;
      const conversation = () => document.querySelector('[data-testid=conversation-state]')?.textContent;
      const pause = () => (document.querySelector('[data-testid=pause]') as HTMLElement).click();
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const t0 = performance.now();
      const waitFor = async (condition: () => boolean, failIf: () => boolean) => {
        while (!condition()) {
          if (performance.now() - t0 > timeout || failIf()) return false;
          await sleep(5);
        }
        return true;
      };
      const ended = () => conversation() === 'idle';
      (document.querySelector(`[data-testid=${id}]`) as HTMLElement).click();
      if (
        !(await waitFor(
          () => conversation() === 'playing',
          () => false,
        ))
      )
        return undefined;
      for (;;) {
        if (!(await waitFor(() => conversation() === 'playing' && d.jawOpen >= min, ended))) return undefined;
        pause();
        if (!(await waitFor(() => conversation() === 'paused', ended))) return undefined;
        let last = d.jawOpen;
        let since = performance.now();
        while (performance.now() - since < 200) {
          if (performance.now() - t0 > timeout) return undefined;
          await sleep(10);
          if (d.jawOpen !== last) [last, since] = [d.jawOpen, performance.now()];
        }
        if (last >= min) return last;
        pause(); // it settled closed: resume and try the next open moment
        if (!(await waitFor(() => conversation() === 'playing', ended))) return undefined;
      }
    },
    [testid, minJaw, timeoutMs] as const,
  );
}

/**
 * A screenshot of the mouth: the avatar's camera frames the face (the manifest's framing), which
 * puts the mouth a little below the middle of the stage.
 */
export async function mouthShot(page: Page): Promise<Buffer> {
  const stage = page.getByTestId('avatar');
  // Clicking a control low in the controls column scrolls the page; bring the stage back first.
  await stage.scrollIntoViewIfNeeded();
  const box = await stage.boundingBox();
  if (!box) throw new Error('The avatar stage is not visible.');
  return page.screenshot({
    clip: {
      x: box.x + box.width * 0.36,
      y: box.y + box.height * 0.44,
      width: box.width * 0.28,
      height: box.height * 0.18,
    },
    animations: 'allow',
  });
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
