/**
 * The version the spec pins: Web RTC mode works only with the RTC client library below 2.17
 * (2.17 makes a single peer connection the default), and 2.16.1 is the one to install. Every
 * manifest that names livekit-client pins exactly that, the lockfile resolves nothing else, the
 * module the player imports reports it, and the README's install line says it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { version as installed } from 'livekit-client';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..', '..');
const PINNED = '2.16.1';

/** `major.minor.patch` as numbers (a pre-release tag is ignored). */
function parse(v: string): [number, number, number] {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  if (!m) throw new Error(`not a version: ${v}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const belowSpecLimit = (v: string) => {
  const [major, minor] = parse(v);
  return major < 2 || (major === 2 && minor < 17);
};

/** Every workspace manifest (packages/*, apps/*, examples/*) with the ranges it gives livekit-client. */
function livekitRanges(): Array<{ manifest: string; field: string; range: string }> {
  const found: Array<{ manifest: string; field: string; range: string }> = [];
  for (const group of ['packages', 'apps', 'examples']) {
    let names: string[];
    try {
      names = readdirSync(join(REPO, group));
    } catch {
      continue;
    }
    for (const name of names) {
      const manifest = join(group, name, 'package.json');
      let json: Record<string, Record<string, string> | undefined>;
      try {
        json = JSON.parse(readFileSync(join(REPO, manifest), 'utf8'));
      } catch {
        continue;
      }
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
        const range = json[field]?.['livekit-client'];
        if (range !== undefined) found.push({ manifest, field, range });
      }
    }
  }
  return found;
}

describe('the RTC client library version the spec pins (below 2.17; install 2.16.1)', () => {
  it('the spec limit itself: 2.16.1 is below 2.17, 2.17.0 is not', () => {
    expect(belowSpecLimit(PINNED)).toBe(true);
    expect(belowSpecLimit('2.17.0')).toBe(false);
    expect(belowSpecLimit('3.0.0')).toBe(false);
  });

  it('every manifest that names livekit-client pins exactly 2.16.1 (rtc-player as a peer)', () => {
    const ranges = livekitRanges();
    expect(ranges).toContainEqual({
      manifest: join('packages', 'rtc-player', 'package.json'),
      field: 'peerDependencies',
      range: PINNED,
    });
    for (const r of ranges) expect(r, `${r.manifest} ${r.field}`).toMatchObject({ range: PINNED });
  });

  it('the lockfile resolves livekit-client to 2.16.1 only', () => {
    const lock = readFileSync(join(REPO, 'pnpm-lock.yaml'), 'utf8');
    const versions = new Set([...lock.matchAll(/^ {2}'?livekit-client@(\d[^:(']*)/gm)].map((m) => m[1]));
    expect([...versions]).toEqual([PINNED]);
  });

  it('the module the player imports is 2.16.1', () => {
    expect(installed).toBe(PINNED);
    expect(belowSpecLimit(installed)).toBe(true);
  });

  it("the README's install line installs 2.16.1", () => {
    const readme = readFileSync(join(REPO, 'packages', 'rtc-player', 'README.md'), 'utf8');
    const installs = [...readme.matchAll(/livekit-client@(\S+)/g)].map((m) => m[1]);
    expect(installs.length).toBeGreaterThan(0);
    for (const v of installs) expect(v).toBe(PINNED);
  });
});
