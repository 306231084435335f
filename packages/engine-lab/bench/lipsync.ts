/**
 * `pnpm bench:lipsync`: scores lip-sync engines on a labelled dev set, side by side in one run, each fed
 * causally in 20 ms chunks at the utterance's native rate, and prints one table (plus a per-condition
 * breakdown). Options: --dev DIR, --limit N, --engines engine,energy,headaudio,wlipsync, --json FILE,
 * --driver FILE (a module exporting createDriver, instead of @avatar-drive/engine), --warmup N (untimed
 * utterances each engine runs first, default 40; 0 times the JIT's warm-up too).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, requireDevSet } from './cli-args.js';
import { listUtterances, loadUtterance, type Utterance } from './devset.js';
import { createDriverEngine, loadCreateDriver } from './engines/driver.js';
import { createEnergyEngine } from './engines/energy.js';
import { createHeadAudioEngine } from './engines/headaudio.js';
import type { BenchEngine } from './engines/types.js';
import { createWlipsyncEngine } from './engines/wlipsync.js';
import { type FramePrediction, frameCount, median } from './metrics.js';
import { neutralPrediction, Scorer, type Summary } from './score.js';
import { CALIBRATION_VOICES } from './wlipsync-calibrate.js';

const ENGINE_IDS = ['engine', 'energy', 'headaudio', 'wlipsync', 'wlipsync-native'] as const;
const DEFAULT_ENGINES = ['engine', 'energy', 'headaudio', 'wlipsync'];
type EngineId = (typeof ENGINE_IDS)[number];
const CHUNK_MS = 20;
/**
 * Utterances (the dev set's first ones, all rates among them, ≈ 170 s) each engine runs untimed before
 * the scored pass, so the speed column is the steady state of a warmed-up process, as in a service,
 * and not the JIT compiling the first minute of audio (the first engine would otherwise pay more
 * of it than the rest, and pay it in the same process as the peers' garbage).
 */
const DEFAULT_WARMUP = 40;

const USAGE = `
Usage: pnpm bench:lipsync [options]      (from the repository root)

Scores lip-sync engines on a labelled dev set, side by side in one run, and prints one table plus
per-condition and per-rate breakdowns. The default dev set is $AVATAR_DRIVE_DATA/dev (default
packages/engine-lab/.data/dev): make it first with \`pnpm --filter @avatar-drive/engine-lab gen:dev\`.

Options:
  --dev DIR         dev set (per utterance <id>.wav + <id>.json, optional index.json)
  --limit N         score only the first N utterances
  --engines a,b     rows: ${ENGINE_IDS.join(', ')} (default: ${DEFAULT_ENGINES.join(',')})
  --json FILE       also write every figure (per condition and rate) as JSON
  --driver FILE     a module exporting createDriver, scored instead of @avatar-drive/engine
  --warmup N        untimed utterances each engine runs first (default ${DEFAULT_WARMUP})
  -h, --help        this text
`;

/**
 * Default dev set: `$AVATAR_DRIVE_DATA/dev` when set (where `pnpm --filter @avatar-drive/engine-lab gen:dev`
 * writes), else the package's `.data/dev`.
 */
function defaultDevDir(): string {
  const data = process.env.AVATAR_DRIVE_DATA;
  if (data) return resolve(process.env.INIT_CWD ?? process.cwd(), data, 'dev');
  return fileURLToPath(new URL('../.data/dev', import.meta.url));
}

/** One engine's run over the dev set. */
interface EngineRun {
  id: EngineId;
  name: string;
  note: string;
  all: Scorer;
  byCondition: Map<string, Scorer>;
  byRate: Map<number, Scorer>;
  /** Per frame: audio pushed when the frame came out minus the frame's end, ms (frames flushed by end() excluded). */
  delaysMs: number[];
  shortFrames: number;
}

async function makeEngine(id: EngineId, driverModule?: string): Promise<BenchEngine | string> {
  switch (id) {
    case 'engine': {
      const create = await loadCreateDriver(driverModule);
      return typeof create === 'string' ? create : createDriverEngine(create);
    }
    case 'energy':
      return createEnergyEngine();
    case 'headaudio':
      return createHeadAudioEngine();
    case 'wlipsync':
      return createWlipsyncEngine();
    case 'wlipsync-native':
      return createWlipsyncEngine({ contextRate: 'native' });
  }
}

/** Runs utterances through the engine untimed and unscored (JIT warm-up). */
async function warmUp(engine: BenchEngine, utterances: Utterance[]): Promise<void> {
  for (const u of utterances) {
    const stream = await engine.open(u.sampleRate);
    const chunk = Math.round((u.sampleRate * CHUNK_MS) / 1000);
    for (let i = 0; i < u.pcm.length; i += chunk)
      stream.push(u.pcm.subarray(i, Math.min(u.pcm.length, i + chunk)));
    stream.end();
  }
}

async function runEngine(id: EngineId, engine: BenchEngine, utterances: Utterance[]): Promise<EngineRun> {
  const run: EngineRun = {
    id,
    name: engine.name,
    note: engine.note,
    all: new Scorer(),
    byCondition: new Map(),
    byRate: new Map(),
    delaysMs: [],
    shortFrames: 0,
  };
  for (const u of utterances) {
    const stream = await engine.open(u.sampleRate);
    const chunk = Math.round((u.sampleRate * CHUNK_MS) / 1000);
    const preds: FramePrediction[] = [];
    const delays: number[] = [];
    const t0 = process.cpuUsage();
    for (let i = 0; i < u.pcm.length; i += chunk) {
      const end = Math.min(u.pcm.length, i + chunk);
      const got = stream.push(u.pcm.subarray(i, end));
      for (const p of got) {
        preds.push(p);
        delays.push((end / u.sampleRate - preds.length * 0.04) * 1000);
      }
    }
    preds.push(...stream.end());
    const dt = process.cpuUsage(t0);
    const seconds = u.pcm.length / u.sampleRate;
    const frames = frameCount(seconds);
    if (preds.length < frames) run.shortFrames += frames - preds.length;
    while (preds.length < frames) preds.push(neutralPrediction());
    preds.length = frames;
    run.delaysMs.push(...delays);
    const cpu = (dt.user + dt.system) / 1e6 - (stream.overheadCpuSeconds ?? 0);
    for (const s of [
      run.all,
      getOrAdd(run.byCondition, u.condition, () => new Scorer()),
      getOrAdd(run.byRate, u.sampleRate, () => new Scorer()),
    ]) {
      s.add(u.phones, preds);
      s.audioSeconds += seconds;
      s.cpuSeconds += cpu;
    }
  }
  return run;
}

function getOrAdd<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) {
    v = make();
    m.set(k, v);
  }
  return v;
}

const pct = (v: number) => (Number.isNaN(v) ? 'n/a' : `${(100 * v).toFixed(1)}%`);
const num = (v: number, d = 2) => (Number.isNaN(v) ? 'n/a' : v.toFixed(d));
const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function mainRow(run: EngineRun, s: Summary): string[] {
  const speed = Number.isNaN(s.xRealTime) ? 'n/a' : `${Math.round(s.xRealTime)}×`;
  return [
    run.name,
    pct(s.acc15),
    pct(s.acc7),
    num(s.macroF1),
    num(s.jawR0),
    Number.isNaN(s.jawRBest) ? 'n/a' : `${num(s.jawRBest)} @ ${s.jawBestLagMs} ms`,
    Number.isNaN(s.jawFineR) ? 'n/a' : `${s.jawFineLagMs} ms (r ${num(s.jawFineR)})`,
    pct(s.closureRecall),
    pct(s.vowelShut),
    ms(s.onsetMedianMs),
    pct(s.firstWordLate),
    pct(s.falseActivity),
    ms(median(run.delaysMs)),
    speed,
  ];
}

async function main(): Promise<void> {
  const values = parseBenchArgs(USAGE, {
    dev: { type: 'string' },
    limit: { type: 'string' },
    engines: { type: 'string' },
    json: { type: 'string' },
    driver: { type: 'string' },
    warmup: { type: 'string' },
  });
  // pnpm runs the script in the package; paths given on the command line are relative to where it was typed
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const dir = values.dev ? resolve(cwd, values.dev) : defaultDevDir();
  const jsonOut = values.json ? resolve(cwd, values.json) : undefined;
  requireDevSet(dir, 'or pass --dev DIR (per utterance <id>.wav + <id>.json, optional index.json)');
  const ids = (values.engines ?? DEFAULT_ENGINES.join(',')).split(',').map((s) => s.trim());
  for (const id of ids) {
    if (!(ENGINE_IDS as readonly string[]).includes(id)) {
      console.error(`Unknown engine "${id}"; choose from ${ENGINE_IDS.join(', ')}.`);
      process.exit(2);
    }
  }
  const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
  if (!(limit > 0)) {
    console.error(`--limit must be a positive number, got "${values.limit}".`);
    process.exit(2);
  }
  const warmupCount = values.warmup === undefined ? DEFAULT_WARMUP : Number(values.warmup);
  if (!(warmupCount >= 0) || !Number.isInteger(warmupCount)) {
    console.error(`--warmup must be a whole number of utterances, got "${values.warmup}".`);
    process.exit(2);
  }
  const utterances = listUtterances(dir)
    .slice(0, limit)
    .map((id) => loadUtterance(dir, id));
  const audio = utterances.reduce((a, u) => a + u.pcm.length / u.sampleRate, 0);
  const overlap = CALIBRATION_VOICES.filter((v) =>
    utterances.some((u) => u.voice.replace(/^espeak:/, '') === v),
  );
  if (overlap.length)
    console.error(`warning: wlipsync was calibrated on dev-set voices ${overlap.join(', ')}`);
  console.error(`dev set ${dir}: ${utterances.length} utterances, ${audio.toFixed(1)} s of audio`);

  const runs: EngineRun[] = [];
  const skipped: string[] = [];
  for (const id of ids as EngineId[]) {
    const engine = await makeEngine(id, values.driver ? resolve(cwd, values.driver) : undefined);
    if (typeof engine === 'string') {
      skipped.push(`${id}: ${engine}`);
      continue;
    }
    const wall = Date.now();
    await warmUp(engine, utterances.slice(0, warmupCount));
    runs.push(await runEngine(id, engine, utterances));
    console.error(`  ${engine.name}: ${((Date.now() - wall) / 1000).toFixed(1)} s`);
  }

  const header = [
    'engine',
    '15-class acc',
    '7-group acc',
    'macro-F1',
    'jaw r (0 lag)',
    'jaw r (best lag)',
    'jaw lag (10 ms steps)',
    'closure recall',
    'shut in vowels',
    'onset latency',
    'first word > 80 ms',
    'false activity',
    'frame delay',
    'speed (×RT/core)',
  ];
  const summaries = runs.map((r) => r.all.summary());
  console.log(
    `\nLip-sync on ${dir} (${utterances.length} utterances, ${audio.toFixed(1)} s; 20 ms chunks; speed after ${warmupCount} untimed warm-up utterances per engine)\n`,
  );
  console.log(
    table(
      header,
      runs.map((r, i) => mainRow(r, summaries[i]!)),
    ),
  );
  const s0 = summaries[0];
  if (s0) {
    console.log(
      `\n${s0.frames} frames; ${s0.closureSegments} p/b/m segments ≥ 40 ms; ${s0.onsets} onsets after ≥ 300 ms silence; ${s0.firstWords} first words (each utterance from a fresh state); ${s0.silenceFrames} silence frames scored.`,
    );
  }
  for (const r of runs)
    console.log(`- ${r.name}: ${r.note}${r.shortFrames ? ` (${r.shortFrames} missing frames padded)` : ''}`);
  for (const s of skipped) console.log(`- skipped ${s}`);

  const keys = [
    ...[...new Set(utterances.map((u) => u.condition))]
      .sort()
      .map((c) => ({ label: c, cond: c, rate: undefined })),
    ...[...new Set(utterances.map((u) => u.sampleRate))]
      .sort((a, b) => a - b)
      .map((rate) => ({ label: `${rate / 1000} kHz`, cond: undefined, rate })),
  ];
  const breakdown = keys.map((k) => [
    k.label,
    ...runs.flatMap((r) => {
      const sc = k.cond !== undefined ? r.byCondition.get(k.cond) : r.byRate.get(k.rate!);
      const s = sc?.summary();
      return s
        ? [
            pct(s.acc15),
            pct(s.acc7),
            num(s.jawR0),
            Number.isNaN(s.jawRBest) ? 'n/a' : `${num(s.jawRBest)} @ ${s.jawBestLagMs} ms`,
            pct(s.closureRecall),
            pct(s.vowelShut),
            pct(s.firstWordLate),
          ]
        : ['n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a'];
    }),
  ]);
  console.log(
    '\nPer condition and input rate: 15-class / 7-group accuracy, jaw r (0 lag), jaw r at its best lag, closure recall, mouth shut in vowels, first words later than 80 ms\n',
  );
  console.log(
    table(
      [
        'subset',
        ...runs.flatMap((r) => [
          `${r.name} 15-cls`,
          `${r.name} 7-grp`,
          `${r.name} jaw r`,
          `${r.name} jaw best`,
          `${r.name} closure`,
          `${r.name} vowel shut`,
          `${r.name} 1st word`,
        ]),
      ],
      breakdown,
    ),
  );

  if (!utterances.some((u) => u.condition === 'neural')) {
    console.log(
      '\nNo `neural` condition (Kokoro neural voices) in this dev set: run `bash packages/engine-lab/corpus/kokoro-fetch.sh`, then regenerate it with `pnpm --filter @avatar-drive/engine-lab gen:dev`.',
    );
  }
  if (!utterances.some((u) => u.condition === 'human')) {
    console.log(
      '\nNo `human` condition (real recorded speech) in this dev set: run `bash packages/engine-lab/corpus/human-fetch.sh`, then regenerate it with `pnpm --filter @avatar-drive/engine-lab gen:dev`.',
    );
  }

  if (jsonOut) {
    const out = {
      devDir: dir,
      utterances: utterances.length,
      audioSeconds: audio,
      chunkMs: CHUNK_MS,
      engines: runs.map((r, i) => ({
        id: r.id,
        name: r.name,
        note: r.note,
        summary: summaries[i],
        frameDelayMedianMs: median(r.delaysMs),
        byCondition: Object.fromEntries([...r.byCondition].map(([k, v]) => [k, v.summary()])),
        byRate: Object.fromEntries([...r.byRate].map(([k, v]) => [k, v.summary()])),
      })),
      skipped,
    };
    writeFileSync(jsonOut, `${JSON.stringify(out, null, 2)}\n`);
    console.error(`wrote ${jsonOut}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
