/**
 * The viewer's side of the RTC e2e tests: LiveKit join tokens for the real server, and the
 * test page (pages/rtc-page.ts: AvatarPlayer + AvatarView in Chromium) joined to a room, with
 * typed access to what it measured.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccessToken } from 'livekit-server-sdk';
import { inject } from 'vitest';
import { openPage, type TestBrowser } from './browser.js';
import type { Series } from './sync-analysis.js';

/** The real LiveKit server the e2e project's globalSetup found or started. */
export interface LiveKitServer {
  url: string;
  apiKey: string;
  apiSecret: string;
}

export function livekitServer(): LiveKitServer {
  return {
    url: inject('livekitUrl'),
    apiKey: inject('livekitApiKey'),
    apiSecret: inject('livekitApiSecret'),
  };
}

/** A join token for `roomName`; `agent` makes it kind agent (as LiveKit Agents workers join). */
export function joinToken(
  lk: LiveKitServer,
  roomName: string,
  identity: string,
  { agent = false, canPublishData = true } = {},
): Promise<string> {
  const at = new AccessToken(lk.apiKey, lk.apiSecret, { identity });
  if (agent) at.kind = 'agent';
  at.addGrant({ room: roomName, roomJoin: true, canSubscribe: true, canPublish: true, canPublishData });
  return at.toJwt();
}

/** A keyframe the page received. */
export interface ReceivedFrame {
  reqId: string;
  index: number;
  playAtMs: number;
  arrivalMs: number;
  jawOpen: number;
}

/** What the page measured (times: wall clock, ms). */
export interface PageRead {
  /** RMS of the received avatar track per ~5 ms block, stamped with when the block is heard. */
  audio: Series;
  /** The jawOpen the view rendered, per animation frame of the page. */
  jaw: Series;
  /** The service time the player rendered, per animation frame of the page. */
  shown: Series;
  frames: ReceivedFrame[];
  events: string[];
  sync: Array<{
    atMs: number;
    clockOffsetMs?: number;
    jitterBufferMs?: number;
    playoutDelayMs: number;
  }>;
  state: string;
  subscribed: string[];
  audioElements: number;
  now: number;
}

type PageApi = {
  start(o: unknown): Promise<void>;
  read(since: number): PageRead;
  stop(): Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The page joined to a room as a viewer. */
export class RtcViewer {
  private constructor(
    readonly browser: TestBrowser,
    readonly roomName: string,
  ) {}

  /**
   * Opens the page and joins `roomName` as `identity`. No fades (player and view): the view shows
   * exactly what the player aligned, so the rendered jaw is the frames' own.
   */
  static async join(lk: LiveKitServer, roomName: string, identity: string): Promise<RtcViewer> {
    const browser = await openPage('rtc-page');
    try {
      const token = await joinToken(lk, roomName, identity, { canPublishData: false });
      await browser.page.evaluate((o) => (window as never as { rtc: PageApi }).rtc.start(o), {
        url: lk.url,
        token,
        roomName,
        viewTransitions: 0,
        player: { transitionStartFrameCount: 0, transitionEndFrameCount: 0 },
      });
    } catch (error) {
      await browser.close();
      throw error;
    }
    return new RtcViewer(browser, roomName);
  }

  /**
   * Everything the page measured since `sinceMs` (wall clock). With E2E_DUMP_DIR set, also
   * written there as `<label>.json` (for looking at a run's raw series afterwards).
   */
  async read(sinceMs = 0, label?: string): Promise<PageRead> {
    const r = await this.browser.page.evaluate(
      (s) => (window as never as { rtc: PageApi }).rtc.read(s),
      sinceMs,
    );
    const dir = process.env.E2E_DUMP_DIR;
    if (dir && label) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${label}-${Date.now()}.json`), JSON.stringify(r));
    }
    return r;
  }

  /** Waits (generously: shared machine) until the page subscribed to `identity`'s avatar audio. */
  async waitForAvatarAudio(identity: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.read();
      if (r.events.includes(`avatarAudio:${identity}`)) return;
      if (Date.now() > deadline)
        throw new Error(`the page never got ${identity}'s audio: ${JSON.stringify(r.events)}`);
      await sleep(100);
    }
  }

  /** Leaves the room and closes the browser. */
  async close(): Promise<void> {
    await this.browser.page.evaluate(() => (window as never as { rtc: PageApi }).rtc.stop()).catch(() => {});
    await this.browser.close();
  }
}
