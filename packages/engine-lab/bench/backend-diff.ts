/**
 * The WebAssembly backend against the TypeScript one (the reference) on dev-set utterances at every
 * input rate: each utterance is streamed through both in its own random chunking (0–3000 samples
 * per push), every third utterance after a reset (the others keep the speaker adaptation, as one
 * session), and the max |Δ| per frame field is printed per rate with the frames compared.
 *
 *   pnpm --filter @avatar-drive/engine-lab bench:backend-diff [--dev DIR] [--limit 40]
 */
import { join } from 'node:path';
import {
  type DriveFrame,
  FRAME_LAYOUT,
  mulberry32,
  resample,
  SUPPORTED_SAMPLE_RATES,
} from '@avatar-drive/core';
import { createDriver, type Driver } from '@avatar-drive/engine';
import { wasmUnavailableReason } from '@avatar-drive/engine/lab';
import { parseBenchArgs, requireDevSet } from './cli-args.js';
import { listUtterances, loadUtterance } from './devset.js';

const USAGE = `
Usage: pnpm --filter @avatar-drive/engine-lab bench:backend-diff [options]

Max |Δ| per frame field between the WebAssembly and TypeScript backends on dev utterances at all 7
input rates, random chunkings, resets. Reads $AVATAR_DRIVE_DATA/dev (default packages/engine-lab/.data/dev).

Options:
  --dev DIR     dev set (per utterance <id>.wav + <id>.json)
  --limit N     the first N utterances (default 40)
  -h, --help    this text
`;

const values = parseBenchArgs(USAGE, { dev: { type: 'string' }, limit: { type: 'string', default: '40' } });
const reason = wasmUnavailableReason();
if (reason) {
  console.error(`The WebAssembly backend is unavailable here (${reason}): nothing to compare.`);
  process.exit(1);
}
const dir =
  values.dev ?? join(process.env.AVATAR_DRIVE_DATA ?? join(import.meta.dirname, '..', '.data'), 'dev');
requireDevSet(dir, 'or pass --dev DIR');
const limit = Number(values.limit);
if (!(Number.isInteger(limit) && limit > 0)) {
  console.error(`--limit must be a positive integer.\n${USAGE}`);
  process.exit(2);
}
const utterances = listUtterances(dir)
  .slice(0, limit)
  .map((id) => loadUtterance(dir, id));
const FIELDS = Object.keys(FRAME_LAYOUT) as (keyof typeof FRAME_LAYOUT)[];

function stream(driver: Driver, pcm: Int16Array, next: () => number): DriveFrame[] {
  const frames: DriveFrame[] = [];
  for (let at = 0; at < pcm.length; ) {
    const n = Math.floor(next() * 3000);
    frames.push(...driver.push(pcm.subarray(at, at + n)));
    at += n;
  }
  frames.push(...driver.end());
  return frames;
}

let worstOverall = 0;
for (const rate of SUPPORTED_SAMPLE_RATES) {
  const js = createDriver({ sampleRate: rate, backend: 'js' });
  const wasm = createDriver({ sampleRate: rate, backend: 'wasm' });
  const chunksJs = mulberry32(rate);
  const chunksWasm = mulberry32(rate + 1);
  const worst: Record<string, number> = Object.fromEntries(FIELDS.map((f) => [f, 0]));
  let frames = 0;
  utterances.forEach((u, i) => {
    if (i % 3 === 2) {
      js.reset();
      wasm.reset();
    }
    const pcm = u.sampleRate === rate ? u.pcm : resample(u.pcm, u.sampleRate, rate);
    const a = stream(js, pcm, chunksJs);
    const b = stream(wasm, pcm, chunksWasm);
    if (a.length !== b.length) throw new Error(`${rate} Hz, ${u.id}: ${a.length} vs ${b.length} frames`);
    for (let f = 0; f < a.length; f++) {
      for (const field of FIELDS) {
        const x = a[f]![field];
        const y = b[f]![field];
        for (let j = 0; j < x.length; j++) worst[field] = Math.max(worst[field]!, Math.abs(x[j]! - y[j]!));
      }
    }
    frames += a.length;
  });
  wasm.close();
  const max = Math.max(...Object.values(worst));
  worstOverall = Math.max(worstOverall, max);
  console.log(
    `${String(rate).padEnd(6)} ${FIELDS.map((f) => `${f} ${worst[f]!.toExponential(1)}`).join(', ')} (${frames} frames, ${utterances.length} utterances)`,
  );
}
console.log(`max |Δ| over every field and rate: ${worstOverall.toExponential(2)}`);
