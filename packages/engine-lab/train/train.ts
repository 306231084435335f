/**
 * `pnpm --filter @avatar-drive/engine-lab train`: regenerates the training corpus, adds real speech,
 * augments it, extracts features with the runtime's own code (the same front end, extractor,
 * standardisation and clipping), trains the viseme model in PyTorch (train/train.py) and writes
 * weights/lipsync.bin (then reports accuracy on the dev corpus when one exists).
 *
 * Options: --data <dir> (corpus; default $AVATAR_DRIVE_DATA/train, AVATAR_DRIVE_DATA defaulting to packages/engine-lab/.data),
 * --real <dir>[,<dir>…] (real-speech corpora written by corpus/real-corpus.ts), --real-variants N
 * (augmented copies of each real recording, default 3), --noise-clips N (speech-free background
 * clips, default 300), --dev <dir>, --skip-generate, --count N (utterances to generate), --epochs N,
 * --hidden a,b, --max-utterances N, --variants N, --seed N, --out <file>, --projection K (rows of the
 * learnt per-hop projection), --neural N (Kokoro neural-voice utterances added to the generated
 * corpus; needs corpus/kokoro-fetch.sh), --python <path> (a Python with torch, default
 * $AVATAR_DRIVE_TORCH_PYTHON or `python3`; see train/requirements.txt), --threads N (torch threads),
 * --context narrow|wide (the context slots, see CONTEXTS), --dump <dir> (where the features go,
 * default $AVATAR_DRIVE_DATA/dump), --reuse-dump (train on the dump already there: its hops, labels
 * and standardisation; for trying model options without extracting the features again).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUPPORTED_SAMPLE_RATES, VISEMES } from '@avatar-drive/core';
import {
  type ContextSlot,
  FEATURE_DIM,
  HOP_MS,
  HOPS_PER_FRAME,
  type ModelHeader,
  serializeModelWeights,
} from '@avatar-drive/engine';
import { loadAugmenter } from './augmentation.js';
import { listUtterances, type PhoneSpan, readUtterance, softLabel, type Utterance } from './corpus.js';
import { evaluateCorpus } from './evaluate.js';
import { extractHops, featureStats, meanSpeechShape, standardise, toAnalysisRate } from './examples.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

// Corpora live outside git: $AVATAR_DRIVE_DATA (holding train/ and dev/), by default packages/engine-lab/.data.
const dataRoot = process.env.AVATAR_DRIVE_DATA ?? join(packageDir, '.data');
const trainDir = resolve(arg('data') ?? join(dataRoot, 'train'));
const devDir = resolve(arg('dev') ?? join(dataRoot, 'dev'));
// The bundled weights live in the engine's package (its `./weights/lipsync.bin` export).
const engineWeights = createRequire(import.meta.url).resolve('@avatar-drive/engine/weights/lipsync.bin');
const outFile = resolve(arg('out') ?? engineWeights);
const epochs = Number(arg('epochs') ?? 6);
const hidden = (arg('hidden') ?? '128,64').split(',').map(Number);
const realDirs = (arg('real') ?? '')
  .split(',')
  .filter((d) => d.length > 0)
  .map((d) => resolve(d));
const realVariants = Number(arg('real-variants') ?? 3);
const noiseClips = Number(arg('noise-clips') ?? 300);
const python = arg('python') ?? process.env.AVATAR_DRIVE_TORCH_PYTHON ?? 'python3';
const threads = arg('threads');
const dumpDir = resolve(arg('dump') ?? join(dataRoot, 'dump'));
const maxUtterances = Number(arg('max-utterances') ?? Number.POSITIVE_INFINITY);
const variants = Number(arg('variants') ?? 1);
const seed = Number(arg('seed') ?? 1);
/** Utterances to generate (default: the generator's own, 3000). */
const count = arg('count');
const neural = arg('neural');
/**
 * Rows of the learnt projection each standardised hop goes through before the context is assembled
 * (see ModelHeader.projection): the first layer then reads PROJECTION values per slot instead of
 * FEATURE_DIM, and the runtime projects each hop once instead of weighing it in every slot.
 */
const projectionRows = Number(arg('projection') ?? 24);

/** Model lookahead in hops past the frame's last hop (20 ms: the default driver lookahead). */
const MODEL_LOOKAHEAD = 1;
/**
 * Context layouts (hop ranges, averaged, relative to the frame's first hop), by `--context` name.
 * `narrow`: 8 slots, 240 ms of past, the frame, 20 ms of future. `wide`: 12 slots, 400 ms of past
 * (a syllable and a half: enough to know which vowel a consonant leaves and whether speech is
 * running), single hops over the last 60 ms; the same frame and future, so the same latency.
 */
const CONTEXTS: Record<string, ContextSlot[]> = {
  narrow: [
    [-12, -9],
    [-8, -6],
    [-5, -4],
    [-3, -2],
    [-1, -1],
    [0, 0],
    [1, 1],
    [2, 2],
  ],
  wide: [
    [-20, -17],
    [-16, -13],
    [-12, -10],
    [-9, -8],
    [-7, -6],
    [-5, -4],
    [-3, -3],
    [-2, -2],
    [-1, -1],
    [0, 0],
    [1, 1],
    [2, 2],
  ],
};
const contextName = arg('context') ?? 'narrow';
const CONTEXT: ContextSlot[] =
  CONTEXTS[contextName] ??
  (() => {
    throw new Error(
      `--context ${contextName}: unknown layout; use one of ${Object.keys(CONTEXTS).join(', ')}`,
    );
  })();
/** Reuse the dump on disk (its hops, labels and standardisation): train only, with new model options. */
const reuseDump = flag('reuse-dump');

/** The window each frame's soft label is taken from, relative to the frame start. */
const FRAME_S = (HOPS_PER_FRAME * HOP_MS) / 1000;
const LABEL_WINDOW_S = FRAME_S / 2;
const LABEL_OFFSET_S = (FRAME_S - LABEL_WINDOW_S) / 2;

const started = Date.now();
const log = (message: string) =>
  console.log(`[train ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}`);

function generate(): void {
  const generator = join(packageDir, 'corpus', 'gen-corpus.ts');
  if (!existsSync(generator))
    throw new Error(`${generator} is missing: the corpus generator ships with this package.`);
  log(`generating the training corpus into ${trainDir}`);
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      generator,
      '--split',
      'train',
      '--out',
      trainDir,
      ...(count ? ['--count', count] : []),
      ...(neural ? ['--neural', neural] : []),
    ],
    { stdio: 'inherit', cwd: packageDir },
  );
  if (result.status !== 0) throw new Error(`corpus generation failed (exit ${result.status})`);
}

interface Sequence {
  hops: Float32Array;
  count: number;
  /** Soft label per base hop (count × 15). */
  labels: Float32Array;
  validation: boolean;
  kind: 'synthetic' | 'real' | 'noise';
}

function hashId(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The labels with every phone moved `lead` seconds later (silence before). */
function shifted(phones: readonly PhoneSpan[], lead: number): PhoneSpan[] {
  if (lead <= 0) return phones as PhoneSpan[];
  return phones.map((p) => ({ ...p, start: p.start + lead, end: p.end + lead }));
}

/** What a dump holds besides its hops and labels: enough to write a weights file from it. */
interface DumpInfo {
  pad: number;
  sequences: { offset: number; count: number; validation: boolean; kind: string }[];
  mean: number[];
  std: number[];
  channelPrior: number[];
  /** The weights' provenance of the corpus this dump was made from. */
  corpus: Record<string, unknown>;
}

/** Generates (unless --skip-generate), augments and extracts the corpus; writes the dump. */
async function prepareDump(): Promise<DumpInfo> {
  if (!flag('skip-generate')) generate();
  const ids = listUtterances(trainDir).slice(0, maxUtterances);
  if (ids.length === 0) throw new Error(`no utterances in ${trainDir}`);
  log(`${ids.length} utterances in ${trainDir}`);
  const realSets = realDirs.map((dir) => ({ dir, ids: listUtterances(dir) }));
  for (const r of realSets) log(`${r.ids.length} real recordings in ${r.dir}`);
  const augmenter = await loadAugmenter(seed);
  if (!augmenter && (variants > 1 || realSets.length > 0 || noiseClips > 0))
    throw new Error('augmentation needs corpus/augment.ts (the corpus tools)');
  const augmentation = augmenter
    ? `generated corpus: its own conditions + ${variants - 1} extra copies; real speech: as recorded + ${realVariants} copies; ${noiseClips} speech-free clips; recipe: ${augmenter.description}`
    : "corpus generator's conditions only";
  log(`augmentation: ${augmentation}`);

  const pad = HOPS_PER_FRAME + MODEL_LOOKAHEAD;
  // Pass 1: the channel prior (mean mel shape of speech) from clean utterances.
  const priorSample = ids
    .filter((_, i) => i % Math.max(1, Math.floor(ids.length / 200)) === 0)
    .map((id) => {
      const u = readUtterance(trainDir, id);
      return extractHops(toAnalysisRate(u.samples, u.sampleRate), undefined, pad);
    });
  const channelPrior = meanSpeechShape(priorSample);

  // Pass 2: audio variants at their own rates → the runtime front end → features at the analysis rate.
  const raw: {
    hops: Float32Array;
    count: number;
    phones: readonly PhoneSpan[];
    validation: boolean;
    kind: Sequence['kind'];
  }[] = [];
  const seconds = { synthetic: 0, real: 0, noise: 0 };
  const add = (
    samples: Float32Array,
    sampleRate: number,
    phones: readonly PhoneSpan[],
    validation: boolean,
    kind: Sequence['kind'],
  ) => {
    const audio = toAnalysisRate(samples, sampleRate);
    seconds[kind] += audio.samples.length / audio.rate;
    const { hops, count } = extractHops(audio, channelPrior, pad);
    raw.push({ hops, count, phones, validation, kind });
  };
  const addWithVariants = (utterance: Utterance, copies: number, kind: Sequence['kind'], key: string) => {
    const validation = hashId(key) % 100 < 4;
    add(utterance.samples, utterance.sampleRate, utterance.phones, validation, kind);
    if (!augmenter || validation) return;
    for (let v = 1; v <= copies; v++) {
      const version = augmenter.apply(utterance.samples, utterance.sampleRate, `${key}/${v}`);
      add(version.samples, version.sampleRate, shifted(utterance.phones, version.leadSeconds), false, kind);
    }
  };
  for (const id of ids) addWithVariants(readUtterance(trainDir, id), variants - 1, 'synthetic', id);
  for (const r of realSets) {
    for (const id of r.ids) addWithVariants(readUtterance(r.dir, id), realVariants, 'real', `real/${id}`);
  }
  if (augmenter) {
    // Background with no speech, present from sample 0: steady noise or hum must read as silence.
    const rates = SUPPORTED_SAMPLE_RATES;
    for (let k = 0; k < noiseClips; k++) {
      const rate = rates[k % rates.length]!;
      const clip = augmenter.backgroundOnly(rate, `noise/${k}`);
      add(clip, rate, [], hashId(`noise/${k}`) % 100 < 4, 'noise');
    }
  }
  const hours = (v: number) => Number((v / 3600).toFixed(3));
  log(
    `${raw.length} sequences: ${hours(seconds.synthetic)} h synthetic, ${hours(seconds.real)} h real, ${hours(seconds.noise)} h speech-free`,
  );

  // Global standardisation, then labels.
  const { mean, std } = featureStats(raw);
  const sequences: Sequence[] = [];
  for (const r of raw) {
    standardise(r.hops, r.count, mean, std);
    const labels = new Float32Array(r.count * VISEMES.length);
    const tmp = new Float32Array(VISEMES.length);
    for (let b = 0; b < r.count; b++) {
      // The middle 20 ms of the frame: the label is what is said at the frame's centre, soft only
      // where a phone boundary passes close to it.
      softLabel(r.phones, (b * HOP_MS) / 1000 + LABEL_OFFSET_S, LABEL_WINDOW_S, tmp);
      labels.set(tmp, b * VISEMES.length);
    }
    sequences.push({ hops: r.hops, count: r.count, labels, validation: r.validation, kind: r.kind });
  }
  log('features ready');

  // The dump the PyTorch trainer reads: standardised hops and soft labels, one run per sequence.
  mkdirSync(dumpDir, { recursive: true });
  const totalHops = sequences.reduce((n, q) => n + q.count, 0);
  const hopsOut = new Float32Array(totalHops * FEATURE_DIM);
  const labelsOut = new Float32Array(totalHops * VISEMES.length);
  const index: { offset: number; count: number; validation: boolean; kind: string }[] = [];
  let offset = 0;
  for (const q of sequences) {
    hopsOut.set(q.hops.subarray(0, q.count * FEATURE_DIM), offset * FEATURE_DIM);
    labelsOut.set(q.labels, offset * VISEMES.length);
    index.push({ offset, count: q.count, validation: q.validation, kind: q.kind });
    offset += q.count;
  }
  writeFileSync(join(dumpDir, 'hops.f32'), new Uint8Array(hopsOut.buffer));
  writeFileSync(join(dumpDir, 'labels.f32'), new Uint8Array(labelsOut.buffer));
  const info: DumpInfo = {
    pad,
    sequences: index,
    mean,
    std,
    channelPrior,
    corpus: {
      corpus: {
        generated: ids.length,
        real: realSets.map((r) => ({ dir: r.dir, recordings: r.ids.length })),
        sequences: sequences.length,
        hours: {
          synthetic: hours(seconds.synthetic),
          real: hours(seconds.real),
          speechFree: hours(seconds.noise),
        },
      },
      augmentation,
      corpusDir: trainDir,
      generated: !flag('skip-generate'),
    },
  };
  writeFileSync(join(dumpDir, 'dump.json'), JSON.stringify(info));
  log(`dump: ${totalHops} hops in ${dumpDir}`);
  return info;
}

/** The dump on disk, as {@link prepareDump} left it. */
function readDump(): DumpInfo {
  const file = join(dumpDir, 'dump.json');
  if (!existsSync(file))
    throw new Error(`--reuse-dump: ${file} is missing; run the trainer once without --reuse-dump`);
  return JSON.parse(readFileSync(file, 'utf8')) as DumpInfo;
}

async function main(): Promise<void> {
  const { pad, sequences, mean, std, channelPrior, corpus } = reuseDump ? readDump() : await prepareDump();
  writeFileSync(
    join(dumpDir, 'meta.json'),
    JSON.stringify({
      featureDim: FEATURE_DIM,
      classes: VISEMES,
      context: CONTEXT,
      hopsPerFrame: HOPS_PER_FRAME,
      lookahead: MODEL_LOOKAHEAD,
      pad,
      projection: projectionRows,
      hidden,
      epochs,
      seed,
      sequences,
    }),
  );
  log(
    `training in PyTorch (${python}): context ${contextName}, hidden ${hidden.join(',')}, ${epochs} epochs`,
  );

  const trained = spawnSync(
    python,
    [join(here, 'train.py'), dumpDir, ...(threads ? ['--threads', threads] : [])],
    { stdio: 'inherit' },
  );
  if (trained.status !== 0) throw new Error(`train.py failed (exit ${trained.status}); see its output above`);
  const result = JSON.parse(readFileSync(join(dumpDir, 'result.json'), 'utf8')) as {
    layers: number[];
    projectionRows: number;
    bestEpoch: number;
    validationFrameAccuracy: number;
    examples: { train: number; validation: number };
    torch: string;
    optimiser: string;
  };
  const params = new Float32Array(new Uint8Array(readFileSync(join(dumpDir, 'params.f32'))).buffer);
  const layers = result.layers;
  const projectionSize = result.projectionRows * FEATURE_DIM;
  const projection = Array.from(params.subarray(0, projectionSize));
  const weights: Float32Array[] = [];
  const biases: Float32Array[] = [];
  let p = projectionSize;
  for (let l = 1; l < layers.length; l++) {
    weights.push(params.slice(p, p + layers[l]! * layers[l - 1]!));
    p += layers[l]! * layers[l - 1]!;
    biases.push(params.slice(p, p + layers[l]!));
    p += layers[l]!;
  }
  if (p !== params.length) throw new Error(`params.f32 holds ${params.length} values, the layers ${p}`);

  const header: ModelHeader = {
    format: 'avatar-drive-lipsync',
    version: 1,
    featureDim: FEATURE_DIM,
    ...(projectionSize > 0 ? { projection } : {}),
    context: CONTEXT,
    layers,
    activation: 'relu',
    classes: [...VISEMES],
    featureMean: mean,
    featureStd: std,
    channelPrior,
    provenance: {
      trainedAt: new Date().toISOString(),
      trainer: `PyTorch ${result.torch} (train/train.py), ${result.optimiser}`,
      ...corpus,
      context: contextName,
      examples: result.examples,
      bestEpoch: result.bestEpoch,
      validationFrameAccuracy: result.validationFrameAccuracy,
      parameters: projectionSize + layers.slice(1).reduce((n, out, i) => n + out * (layers[i]! + 1), 0),
    },
  };
  const bytes = serializeModelWeights({ header, weights, biases });
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, bytes);
  log(
    `wrote ${outFile} (${bytes.length} bytes, best epoch ${result.bestEpoch}, val acc ${(100 * result.validationFrameAccuracy).toFixed(1)}%)`,
  );

  if (existsSync(devDir) && listUtterances(devDir).length > 0) {
    const report = evaluateCorpus(devDir, bytes, { maxUtterances: 600 });
    log(`dev set (${devDir}): ${JSON.stringify(report)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
