/**
 * `pnpm --filter @avatar-drive/engine train`: regenerates the training corpus, augments it,
 * extracts features with the runtime's own code, trains the viseme MLP and writes
 * weights/lipsync.bin (then reports accuracy on the dev corpus when one exists).
 *
 * Options: --data <dir> (corpus; default $AVATAR_DRIVE_DATA/train, AVATAR_DRIVE_DATA defaulting to packages/engine/.data),
 * --dev <dir>, --skip-generate, --count N (utterances to generate), --epochs N, --hidden a,b,
 * --max-utterances N, --variants N, --seed N, --max-train-seconds N, --out <file>,
 * --projection K (per-hop principal axes kept; 0 = none), --neural N (Kokoro neural-voice utterances
 * added to the generated corpus; needs corpus/kokoro-fetch.sh).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VISEMES } from '@avatar-drive/core';
import { FEATURE_DIM, HOP_MS, HOPS_PER_FRAME } from '../src/features.js';
import { type ContextSlot, type ModelHeader, serializeModelWeights } from '../src/model.js';
import { loadAugmenter } from './augmentation.js';
import { listUtterances, readUtterance, softLabel, type Utterance } from './corpus.js';
import { evaluateCorpus } from './evaluate.js';
import {
  assembleLinear,
  extractHops,
  featureStats,
  meanSpeechShape,
  standardise,
  toAnalysisRate,
} from './examples.js';
import { MlpTrainer, makeRandom } from './mlp-trainer.js';
import { principalProjection } from './pca.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

// Corpora live outside git: $AVATAR_DRIVE_DATA (holding train/ and dev/), by default packages/engine/.data.
const dataRoot = process.env.AVATAR_DRIVE_DATA ?? join(packageDir, '.data');
const trainDir = resolve(arg('data') ?? join(dataRoot, 'train'));
const devDir = resolve(arg('dev') ?? join(dataRoot, 'dev'));
const outFile = resolve(arg('out') ?? join(packageDir, 'weights', 'lipsync.bin'));
const epochs = Number(arg('epochs') ?? 16);
const hidden = (arg('hidden') ?? '48,24').split(',').map(Number);
const maxUtterances = Number(arg('max-utterances') ?? Number.POSITIVE_INFINITY);
const variants = Number(arg('variants') ?? 1);
const seed = Number(arg('seed') ?? 1);
/** Utterances to generate (default: the generator's own, 3000). */
const count = arg('count');
const neural = arg('neural');
// No budget unless asked for: a wall-clock cut makes the weights depend on the machine's load.
const maxSeconds = Number(arg('max-train-seconds') ?? Number.POSITIVE_INFINITY);
/**
 * Principal axes each standardised hop is projected onto before the context is assembled (see
 * ModelHeader.projection): the first layer then reads PROJECTION values per slot instead of
 * FEATURE_DIM, and the runtime projects each hop once instead of weighing it in every slot.
 */
const projectionRows = Number(arg('projection') ?? 12);

/** Model lookahead in hops past the frame's last hop (20 ms: the default driver lookahead). */
const MODEL_LOOKAHEAD = 1;
/** Context slots (hop ranges, averaged) relative to the frame's first hop: 240 ms of past, the frame, 20 ms of future. */
const CONTEXT: ContextSlot[] = [
  [-12, -9],
  [-8, -6],
  [-5, -4],
  [-3, -2],
  [-1, -1],
  [0, 0],
  [1, 1],
  [2, 2],
];

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
}

function hashId(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return h >>> 0;
}

async function main(): Promise<void> {
  if (!flag('skip-generate')) generate();
  const ids = listUtterances(trainDir).slice(0, maxUtterances);
  if (ids.length === 0) throw new Error(`no utterances in ${trainDir}`);
  log(`${ids.length} utterances in ${trainDir}`);
  // The corpus generator already augments (noise, reverb, telephone band, rates, gain); --variants N
  // adds N-1 further randomly augmented copies of each utterance.
  const augmenter = variants > 1 ? await loadAugmenter(seed) : null;
  if (variants > 1 && !augmenter) throw new Error('--variants needs corpus/augment.ts (the corpus tools)');
  const augmentation = augmenter
    ? `corpus generator's conditions + ${variants - 1} extra copies: ${augmenter.description}`
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
  const raw: { hops: Float32Array; count: number; utterance: Utterance; validation: boolean }[] = [];
  let seconds = 0;
  for (const id of ids) {
    const utterance = readUtterance(trainDir, id);
    const validation = hashId(id) % 100 < 4;
    const versions = [{ samples: utterance.samples, sampleRate: utterance.sampleRate }];
    if (augmenter && !validation) {
      for (let v = 1; v < variants; v++)
        versions.push(augmenter.apply(utterance.samples, utterance.sampleRate, `${id}/${v}`));
    }
    for (const version of versions) {
      const audio = toAnalysisRate(version.samples, version.sampleRate);
      seconds += audio.samples.length / audio.rate;
      const { hops, count } = extractHops(audio, channelPrior, pad);
      raw.push({ hops, count, utterance, validation });
    }
  }
  log(`${raw.length} sequences, ${(seconds / 3600).toFixed(2)} h of audio`);

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
      softLabel(r.utterance.phones, (b * HOP_MS) / 1000 + LABEL_OFFSET_S, LABEL_WINDOW_S, tmp);
      labels.set(tmp, b * VISEMES.length);
    }
    sequences.push({ hops: r.hops, count: r.count, labels, validation: r.validation });
  }
  let projection: number[] | undefined;
  let slotValues = FEATURE_DIM;
  if (projectionRows > 0) {
    const pca = principalProjection(
      sequences.filter((s) => !s.validation),
      FEATURE_DIM,
      projectionRows,
    );
    projection = pca.projection;
    slotValues = projectionRows;
    log(
      `projection: ${projectionRows} rows, starting from the principal axes (${(100 * pca.kept).toFixed(1)}% of the variance), trained with the model`,
    );
  }
  log('features ready');

  // Examples: every base hop whose frame lies within the audio (not the padding).
  const train: number[] = [];
  const val: number[] = [];
  sequences.forEach((seq, s) => {
    for (let b = 0; b + pad < seq.count; b++) (seq.validation ? val : train).push(s * 1_000_000 + b);
  });
  log(`${train.length} training examples, ${val.length} validation examples`);

  const inputSize = CONTEXT.length * FEATURE_DIM;
  const layers = [CONTEXT.length * slotValues, ...hidden, VISEMES.length];
  const trainer = new MlpTrainer({
    layers,
    seed,
    learningRate: 2e-3,
    weightDecay: 1e-4,
    batchSize: 128,
    ...(projection ? { projection: { slots: CONTEXT.length, inDim: FEATURE_DIM, initial: projection } } : {}),
  });
  const random = makeRandom(seed + 7);
  const input = new Float32Array(inputSize);
  const target = new Float32Array(VISEMES.length);

  const prepare = (key: number, jitterLookahead: boolean) => {
    const seq = sequences[Math.floor(key / 1_000_000)]!;
    const b = key % 1_000_000;
    // Now and then train with less lookahead, so lookaheadMs < 20 degrades gracefully.
    let look = MODEL_LOOKAHEAD;
    if (jitterLookahead && random() < 0.1) look = Math.floor(random() * MODEL_LOOKAHEAD);
    assembleLinear(input, seq.hops, b, CONTEXT, Math.min(b + HOPS_PER_FRAME - 1 + look, seq.count - 1));
    target.set(seq.labels.subarray(b * VISEMES.length, (b + 1) * VISEMES.length));
  };
  const argmax = (a: Float32Array) => {
    let best = 0;
    for (let i = 1; i < a.length; i++) if (a[i]! > a[best]!) best = i;
    return best;
  };
  const validate = () => {
    let correct = 0;
    let loss = 0;
    for (let i = 0; i < val.length; i++) {
      prepare(val[i]!, false);
      const out = trainer.forward(input);
      if (argmax(out) === argmax(target)) correct++;
      for (let c = 0; c < target.length; c++)
        if (target[c]! > 0) loss -= target[c]! * Math.log(Math.max(out[c]!, 1e-9));
    }
    return { accuracy: correct / Math.max(1, val.length), loss: loss / Math.max(1, val.length) };
  };

  const batch = 128;
  const trainStart = Date.now();
  let best = { accuracy: -1, loss: 0, epoch: 0 };
  let bestParams: { weights: Float32Array[]; biases: Float32Array[]; projection?: number[] } | undefined;
  const baseRate = trainer.learningRate;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    // Cosine learning-rate decay over the planned epochs.
    trainer.learningRate = baseRate * (0.05 + 0.95 * 0.5 * (1 + Math.cos((Math.PI * (epoch - 1)) / epochs)));
    for (let i = train.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [train[i], train[j]] = [train[j]!, train[i]!];
    }
    let loss = 0;
    let inBatch = 0;
    for (let i = 0; i < train.length; i++) {
      prepare(train[i]!, true);
      trainer.forward(input);
      loss += trainer.backward(target);
      if (++inBatch === batch) {
        trainer.update(inBatch);
        inBatch = 0;
      }
    }
    if (inBatch > 0) trainer.update(inBatch);
    const v = validate();
    log(
      `epoch ${epoch}/${epochs}: train loss ${(loss / train.length).toFixed(4)}, val loss ${v.loss.toFixed(4)}, val acc ${(100 * v.accuracy).toFixed(1)}%`,
    );
    if (v.accuracy > best.accuracy) {
      best = { ...v, epoch };
      bestParams = {
        weights: trainer.weights.map((w) => w.slice()),
        biases: trainer.biases.map((b) => b.slice()),
        ...(trainer.projection ? { projection: [...trainer.projection] } : {}),
      };
    }
    if ((Date.now() - trainStart) / 1000 > maxSeconds) {
      log(`training time budget (${maxSeconds} s) reached`);
      break;
    }
  }

  const header: ModelHeader = {
    format: 'avatar-drive-lipsync',
    version: 1,
    featureDim: FEATURE_DIM,
    context: CONTEXT,
    layers,
    activation: 'relu',
    classes: [...VISEMES],
    featureMean: mean,
    featureStd: std,
    ...(bestParams?.projection ? { projection: bestParams.projection } : {}),
    channelPrior,
    provenance: {
      trainedAt: new Date().toISOString(),
      corpus: {
        utterances: ids.length,
        sequences: sequences.length,
        hours: Number((seconds / 3600).toFixed(3)),
      },
      augmentation,
      corpusDir: trainDir,
      generated: !flag('skip-generate'),
      examples: { train: train.length, validation: val.length },
      bestEpoch: best.epoch,
      validationFrameAccuracy: Number(best.accuracy.toFixed(4)),
      parameters: layers.slice(1).reduce((n, out, i) => n + out * (layers[i]! + 1), 0),
    },
  };
  const bytes = serializeModelWeights({ header, weights: bestParams!.weights, biases: bestParams!.biases });
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, bytes);
  log(
    `wrote ${outFile} (${bytes.length} bytes, best epoch ${best.epoch}, val acc ${(100 * best.accuracy).toFixed(1)}%)`,
  );

  if (existsSync(devDir) && listUtterances(devDir).length > 0) {
    const report = evaluateCorpus(devDir, bytes, { maxUtterances: 400 });
    log(`dev set (${devDir}): ${JSON.stringify(report)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
