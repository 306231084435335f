/**
 * Generates a labelled speech corpus (see README.md in this directory):
 *
 *   pnpm exec tsx packages/engine-lab/corpus/gen-corpus.ts --split train|dev --out DIR
 *       [--count N] [--seed S] [--workers W] [--neural N]
 *
 * `--neural N` adds N utterances of Kokoro neural voices after the others (default: dev 120, the
 * `neural` condition; train 0). Without the Kokoro model (corpus/kokoro-fetch.sh) they are left out
 * with a message saying how to add them; `--neural 0` leaves them out silently.
 *
 * The dev split also gets the `human` condition: the real recordings of corpus/human.ts, after the
 * neural ones, when corpus/human-fetch.sh has prepared them (else they are left out with a message).
 *
 * The plan is split across W worker processes (default 2: the machine is shared); the result is
 * written to DIR.partial and swapped into DIR when complete, so readers never see half a corpus.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateEntries, type IndexEntry, writeIndex } from './corpus.js';
import { ensureEspeakAlign } from './espeak.js';
import { humanDir, humanMissing, humanRecordings, humanUtterance } from './human.js';
import { kokoroDir, kokoroMissing } from './kokoro.js';
import { planCorpus, type UtterancePlan } from './plan.js';
import type { Split } from './texts.js';
import { writeWav } from './wav.js';

const DEFAULT_COUNT: Record<Split, number> = { train: 3000, dev: 400 };
const DEFAULT_SEED: Record<Split, number> = { train: 1, dev: 7 };
const DEFAULT_NEURAL: Record<Split, number> = { train: 0, dev: 120 };

interface Args {
  split: Split;
  out: string;
  count: number;
  seed: number;
  workers: number;
  neural: number;
  /** Whether --neural was given (then a missing model is an error, not a note). */
  neuralAsked: boolean;
}

function usage(problem: string): never {
  process.stderr.write(
    `gen-corpus: ${problem}\nusage: gen-corpus.ts --split train|dev --out DIR [--count N] [--seed S] [--workers W] [--neural N]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const opts = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]!;
    if (!key.startsWith('--')) usage(`unexpected argument "${key}"`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) usage(`${key} needs a value`);
    opts.set(key.slice(2), value);
    i++;
  }
  for (const k of opts.keys()) {
    if (!['split', 'out', 'count', 'seed', 'workers', 'neural'].includes(k)) usage(`unknown option --${k}`);
  }
  const split = opts.get('split');
  if (split !== 'train' && split !== 'dev') usage('--split must be train or dev');
  const out = opts.get('out');
  if (!out) usage('--out DIR is required');
  const int = (name: string, fallback: number, min: number) => {
    const raw = opts.get(name);
    if (raw === undefined) return fallback;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min) usage(`--${name} must be an integer ≥ ${min}`);
    return v;
  };
  return {
    split,
    out: resolve(out),
    count: int('count', DEFAULT_COUNT[split], 1),
    seed: int('seed', DEFAULT_SEED[split], 0),
    workers: int('workers', 2, 1),
    neural: int('neural', DEFAULT_NEURAL[split], 0),
    neuralAsked: opts.has('neural'),
  };
}

async function runWorker(planFile: string, shard: number, shards: number, outDir: string): Promise<void> {
  const { split, seed, plans } = JSON.parse(readFileSync(planFile, 'utf8')) as {
    split: Split;
    seed: number;
    plans: UtterancePlan[];
  };
  const mine = plans.filter((_, i) => i % shards === shard);
  const tmpDir = mkdtempSync(join(tmpdir(), `avatar-drive-gen-${shard}-`));
  try {
    const entries = await generateEntries(mine, {
      outDir,
      tmpDir,
      split,
      seed,
      onProgress: (done) => process.send?.({ type: 'progress', shard, done }),
    });
    process.send?.({ type: 'done', shard, entries });
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

/**
 * Writes the `human` dev utterances (ids from `first` on) into `dir`, or says why they are left
 * out. Nothing is synthesised: the recordings and their alignments are read as they are.
 */
function addHumanSpeech(dir: string, first: number): IndexEntry[] {
  const source = humanDir();
  const recordings = humanRecordings();
  const missing = humanMissing(source, recordings);
  if (missing) {
    process.stderr.write(
      `gen-corpus dev: leaving out the ${recordings.length} human-speech utterances (condition "human"): ${missing}\n`,
    );
    return [];
  }
  return recordings.map((recording, i) => {
    const id = `dev-${String(first + i).padStart(5, '0')}`;
    const { audio, entry } = humanUtterance(source, recording, id);
    writeWav(join(dir, `${id}.wav`), audio);
    writeFileSync(join(dir, `${id}.json`), `${JSON.stringify(entry)}\n`);
    return {
      id,
      sampleRate: entry.sampleRate,
      voice: entry.voice,
      condition: entry.condition,
      duration: entry.duration,
    };
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--worker') {
    await runWorker(argv[1]!, Number(argv[2]), Number(argv[3]), argv[4]!);
    return;
  }
  const args = parseArgs(argv);
  const started = Date.now();
  ensureEspeakAlign(); // build once here, not racing in every worker
  let neural = args.neural;
  const missing = neural > 0 ? kokoroMissing(kokoroDir()) : null;
  if (missing) {
    if (args.neuralAsked) usage(`--neural ${neural}: ${missing}`);
    process.stderr.write(
      `gen-corpus ${args.split}: leaving out the ${neural} neural-voice utterances (condition "neural"): ${missing}\n`,
    );
    neural = 0;
  }
  const plans = planCorpus(args.split, args.count, args.seed, { neural });
  const partial = `${args.out}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const planDir = mkdtempSync(join(tmpdir(), 'avatar-drive-plan-'));
  const planFile = join(planDir, 'plan.json');
  writeFileSync(planFile, JSON.stringify({ split: args.split, seed: args.seed, plans }));
  const workers = Math.min(args.workers, plans.length);
  const done = new Array<number>(workers).fill(0);
  const self = fileURLToPath(import.meta.url);
  let lastReport = 0;
  try {
    const shards = await Promise.all(
      Array.from(
        { length: workers },
        (_, shard) =>
          new Promise<IndexEntry[]>((resolveShard, reject) => {
            const child = fork(self, ['--worker', planFile, String(shard), String(workers), partial], {
              stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
            });
            let result: IndexEntry[] | undefined;
            child.on(
              'message',
              (m: { type: string; shard: number; done?: number; entries?: IndexEntry[] }) => {
                if (m.type === 'progress') {
                  done[m.shard] = m.done ?? 0;
                  const total = done.reduce((a, b) => a + b, 0);
                  if (Date.now() - lastReport > 5000 || total === plans.length) {
                    lastReport = Date.now();
                    const secs = (Date.now() - started) / 1000;
                    process.stdout.write(
                      `gen-corpus ${args.split}: ${total}/${plans.length} in ${secs.toFixed(0)} s\n`,
                    );
                  }
                } else if (m.type === 'done') result = m.entries;
              },
            );
            child.on('error', reject);
            child.on('exit', (code) => {
              if (code === 0 && result) resolveShard(result);
              else reject(new Error(`worker ${shard} failed (exit ${code})`));
            });
          }),
      ),
    );
    const entries = shards.flat();
    if (args.split === 'dev') entries.push(...addHumanSpeech(partial, args.count + neural));
    const index = writeIndex(partial, args.split, args.seed, entries);
    const old = `${args.out}.old`;
    rmSync(old, { recursive: true, force: true });
    if (existsSync(args.out)) renameSync(args.out, old);
    renameSync(partial, args.out);
    rmSync(old, { recursive: true, force: true });
    const secs = (Date.now() - started) / 1000;
    process.stdout.write(
      `gen-corpus ${args.split}: wrote ${index.count} utterances (${(index.totalSeconds / 60).toFixed(1)} min of audio) to ${args.out} in ${secs.toFixed(1)} s\n`,
    );
  } finally {
    rmSync(planDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`gen-corpus: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
