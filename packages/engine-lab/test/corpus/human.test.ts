import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCorpus } from '../../corpus/check-corpus.js';
import {
  type HumanAlignment,
  humanDir,
  humanMissing,
  humanRecordings,
  humanUtterance,
  spansFromAlignment,
} from '../../corpus/human.js';
import type { CorpusEntry } from '../../corpus/render.js';
import { FESTIVAL_VISEMES } from '../../corpus/visemes.js';
import { writeWav } from '../../corpus/wav.js';

const engineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** An alignment in the aligner's format (frames of 10 ms). */
function alignment(phones: [string, number, number][]): HumanAlignment {
  return {
    id: 'x',
    sampleRate: 16000,
    frameRate: 100,
    words: [],
    phones: phones.map(([phone, start, end]) => ({ phone, start, end })),
  };
}

describe('human recordings', () => {
  it('are pinned: every recording names an archive with a sha256, a licence, a transcript and an id of its own', () => {
    const manifest = JSON.parse(readFileSync(join(engineDir, 'corpus', 'human-recordings.json'), 'utf8')) as {
      archives: Record<string, { sha256: string; fetch: string }>;
    };
    const recordings = humanRecordings();
    expect(recordings.length).toBeGreaterThanOrEqual(3);
    expect(new Set(recordings.map((r) => r.id)).size).toBe(recordings.length);
    for (const r of recordings) {
      expect(manifest.archives[r.archive], r.id).toBeDefined();
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.licence.length).toBeGreaterThan(10);
      expect(r.transcript.split(' ').length).toBeGreaterThan(3);
      // hand-written pronunciations only use phones the viseme table knows
      for (const phones of Object.values(r.pronunciations))
        for (const p of phones.split(' ')) expect(FESTIVAL_VISEMES[p.toLowerCase()], p).toBeDefined();
    }
    for (const a of Object.values(manifest.archives)) expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("turn the aligner's phones into contiguous Festival-set spans padded to the end of the audio", () => {
    const spans = spansFromAlignment(
      alignment([
        ['SIL', 0, 8],
        ['SIL', 8, 29],
        ['AE', 29, 46],
        ['N', 46, 53],
        ['+NSN+', 53, 60],
        ['D', 60, 70],
      ]),
      16000,
      16000,
    );
    expect(spans).toEqual([
      { start: 0, end: 1280, phone: 'pau' },
      { start: 1280, end: 4640, phone: 'pau' },
      { start: 4640, end: 7360, phone: 'ae' },
      { start: 7360, end: 8480, phone: 'n' },
      { start: 8480, end: 9600, phone: 'pau' },
      { start: 9600, end: 11200, phone: 'd' },
      { start: 11200, end: 16000, phone: 'pau' },
    ]);
    // at 8 kHz the same frames land on half the samples; an alignment past the audio is cut
    const short = spansFromAlignment(alignment([['AA', 0, 50]]), 8000, 2000);
    expect(short).toEqual([{ start: 0, end: 2000, phone: 'aa' }]);
  });

  it('say what to run when the recordings are missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'engine-human-missing-'));
    try {
      expect(humanMissing(empty)).toMatch(/human-fetch\.sh/);
      expect(humanMissing(empty)).toContain('jfk');
      expect(humanDir({ AVATAR_DRIVE_DATA: '/data/x' })).toBe('/data/x/human');
      expect(humanDir({ AVATAR_DRIVE_HUMAN: '/rec/h', AVATAR_DRIVE_DATA: '/data/x' })).toBe('/rec/h');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the `human` dev condition', () => {
  // Stand-ins for the fetched recordings (a tone and a made-up alignment per id): this checks the
  // plumbing from aligner output to dev utterances, not the recordings themselves.
  const dir = mkdtempSync(join(tmpdir(), 'engine-human-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const source = join(dir, 'human');
  mkdirSync(source);
  for (const r of humanRecordings()) {
    const samples = new Float32Array(16000);
    for (let i = 3200; i < 12800; i++) samples[i] = 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16000);
    writeWav(join(source, `${r.id}.wav`), { sampleRate: 16000, samples });
    const a = alignment([
      ['SIL', 0, 20],
      ['M', 20, 30],
      ['AA', 30, 80],
      ['SIL', 80, 95],
    ]);
    writeFileSync(join(source, `${r.id}.align.json`), JSON.stringify({ ...a, id: r.id }));
  }

  it('labels a recording with visemes, as it is, at its own rate', () => {
    const r = humanRecordings()[0]!;
    const { audio, entry } = humanUtterance(source, r, 'dev-00520');
    expect(audio.sampleRate).toBe(16000);
    expect(entry).toMatchObject({
      id: 'dev-00520',
      condition: 'human',
      split: 'dev',
      voice: `human:${r.id}`,
    });
    expect(entry.phones.map((p) => [p.phone, p.viseme, p.start, p.end])).toEqual([
      ['pau', 'sil', 0, 0.2],
      ['m', 'PP', 0.2, 0.3],
      ['aa', 'aa', 0.3, 0.8],
      ['pau', 'sil', 0.8, 1],
    ]);
  });

  it('comes after the other dev utterances in gen:dev, and is left out with a message when absent', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'corpus/gen-corpus.ts',
          '--split',
          'dev',
          '--count',
          '1',
          '--neural',
          '0',
          '--workers',
          '1',
          '--out',
          join(dir, 'dev'),
        ],
        { cwd: engineDir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 },
      );
    const withHuman = run({ AVATAR_DRIVE_HUMAN: source });
    expect(withHuman.status, withHuman.stderr).toBe(0);
    const index = JSON.parse(readFileSync(join(dir, 'dev', 'index.json'), 'utf8')) as {
      utterances: { id: string; condition: string; voice: string }[];
    };
    const recordings = humanRecordings();
    // Each under its own condition: `human` unless the manifest files it elsewhere (the noisy one).
    expect(index.utterances.map((u) => u.condition)).toEqual([
      'clean',
      ...recordings.map((r) => r.condition ?? 'human'),
    ]);
    expect(index.utterances.filter((u) => u.condition === 'human-noisy').map((u) => u.voice)).toEqual([
      'human:mfa-cold-corpus',
    ]);
    expect(index.utterances.slice(1).map((u) => u.voice)).toEqual(recordings.map((r) => `human:${r.id}`));
    expect(index.utterances[1]!.id).toBe('dev-00001');
    const entry = JSON.parse(readFileSync(join(dir, 'dev', 'dev-00001.json'), 'utf8')) as CorpusEntry;
    expect(entry.text).toBe(recordings[0]!.transcript);
    expect(checkCorpus(join(dir, 'dev')).problems).toEqual([]);

    const without = run({ AVATAR_DRIVE_HUMAN: join(dir, 'nowhere') });
    expect(without.status, without.stderr).toBe(0);
    expect(without.stderr).toMatch(/leaving out the \d+ human-speech utterances .*human-fetch\.sh/);
    const bare = JSON.parse(readFileSync(join(dir, 'dev', 'index.json'), 'utf8')) as { count: number };
    expect(bare.count).toBe(1);
  }, 150_000);
});
