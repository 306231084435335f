/**
 * Headless Chromium for the repository's browser tests: Debian's `chromium` (no downloaded
 * browser) driven by playwright-core, with the flags this machine needs (root, no GPU: WebGL2 on
 * SwiftShader, WebAudio without a user gesture) and a fresh profile per launch.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** The Chromium binary: `CHROMIUM_PATH`, else Debian's. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags every test browser gets. */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--autoplay-policy=no-user-gesture-required',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Options of {@link launchChromium}. */
export interface LaunchOptions {
  /** Flags added to {@link CHROMIUM_ARGS}. */
  extraArgs?: readonly string[];
  /** Page size of the context. */
  viewport?: { width: number; height: number };
  /** Prefix of the temporary profile directory's name. */
  profilePrefix?: string;
}

/** A running browser context; `close()` also deletes its profile. */
export interface ChromiumSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Throws a message saying how to install Chromium when the binary is missing. */
export function assertChromiumInstalled(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run bash scripts/setup.sh (apt package chromium).`,
    );
  }
}

/**
 * Launches headless Chromium in a fresh profile (nothing cached from an earlier test).
 *
 * @example
 * ```ts
 * const chromium = await launchChromium({ viewport: { width: 640, height: 480 } });
 * const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
 * await page.goto(origin);
 * await chromium.close();
 * ```
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<ChromiumSession> {
  assertChromiumInstalled();
  const profile = mkdtempSync(join(tmpdir(), options.profilePrefix ?? 'avatar-drive-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])],
      ...(options.viewport && { viewport: options.viewport }),
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
