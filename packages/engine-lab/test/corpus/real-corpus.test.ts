import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeWav } from '../../corpus/wav.js';

const engineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'avatar-drive-real-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An aligned folder as real-align.py writes it: one second of a tone per recording, "ma" aligned. */
function aligned(recordings: { id: string; fit?: number }[]): string {
  const out = join(dir, 'aligned');
  mkdirSync(out, { recursive: true });
  const samples = new Float32Array(16000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / 16000));
  for (const r of recordings) {
    writeWav(join(out, `${r.id}.wav`), { sampleRate: 16000, samples });
    const phones = [
      { phone: 'SIL', start: 0, end: 30 },
      { phone: 'M', start: 30, end: 45 },
      { phone: 'AA', start: 45, end: 80 },
      { phone: 'SIL', start: 80, end: 100 },
    ];
    const words = [{ word: 'ma', start: 30, end: 80 }];
    const fit = r.fit === undefined ? {} : { fit: { scorePerFrame: r.fit, beams: 0 } };
    writeFileSync(
      join(out, `${r.id}.align.json`),
      JSON.stringify({ id: r.id, sampleRate: 16000, frameRate: 100, ...fit, words, phones }),
    );
  }
  const kept = recordings.map((r) => ({ id: r.id, speaker: 'test:s1', seconds: 1, fit: r.fit }));
  writeFileSync(join(out, 'manifest.json'), JSON.stringify({ kind: 'test', kept, skipped: [] }));
  return out;
}

function realCorpus(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'corpus/real-corpus.ts', ...args], {
    cwd: engineDir,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('real-corpus.ts', () => {
  it('leaves out the recordings whose alignment fit is below --min-fit, keeps those without a fit, and says how many', () => {
    const source = aligned([{ id: 'good', fit: -15 }, { id: 'poor', fit: -40 }, { id: 'unscored' }]);
    const out = join(dir, 'real');
    const run = realCorpus(['--out', out, '--min-fit', '-28', source]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('1 left out with a fit below -28');
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as {
      utterances: { id: string }[];
    };
    expect(index.utterances.map((u) => u.id).sort()).toEqual(['good', 'unscored']);
    const entry = JSON.parse(readFileSync(join(out, 'good.json'), 'utf8')) as {
      condition: string;
      phones: { viseme: string }[];
    };
    expect(entry.condition).toBe('real');
    expect(entry.phones.map((p) => p.viseme)).toContain('PP');

    const all = realCorpus(['--out', join(dir, 'real-all'), source]);
    expect(all.status, all.stderr).toBe(0);
    const allIndex = JSON.parse(readFileSync(join(dir, 'real-all', 'index.json'), 'utf8')) as {
      utterances: unknown[];
    };
    expect(allIndex.utterances).toHaveLength(3);
  }, 180_000);

  it('refuses a --min-fit that is not a number, saying what it wants', () => {
    const run = realCorpus(['--out', join(dir, 'bad'), '--min-fit', 'low', join(dir, 'aligned')]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('--min-fit needs a number');
  }, 60_000);
});
