/**
 * Calibrates a wlipsync 1.3.1 profile the way uLipSync users do: hold a sound, let the library's own MFCC
 * extraction (the package's wlipsync.wasm `execute`) record feature vectors for it, keep `mfccDataCount`
 * of them per phoneme. Sounds: sustained vowels /a/ /e/ /i/ /o/ /u/, a sustained "s" and silence, spoken
 * by espeak-ng training voices, and room tone for silence. Profile settings are uLipSync's defaults (16 kHz, 1024 samples, 30 mel
 * channels, L2 norm, no standardisation).
 *
 * Run: pnpm --filter @avatar-drive/engine-lab exec tsx bench/wlipsync-calibrate.ts  (needs espeak-ng)
 * Writes bench/wlipsync-profile.json, which the bench loads.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseWav, Resampler, wavToMono } from '@avatar-drive/core';
import { parseBenchArgs } from './cli-args.js';
import { type WasmGlobal, type WasmModule, wasmApi } from './wasm.js';

/** The wlipsync profile JSON format (uLipSync's). */
export interface WlipsyncProfile {
  targetSampleRate: number;
  sampleCount: number;
  melFilterBankChannels: number;
  compareMethod: 0 | 1 | 2;
  mfccNum: number;
  mfccDataCount: number;
  useStandardization: boolean;
  mfccs: { name: string; mfccCalibrationDataList: { array: number[] }[] }[];
  /** Bench addition: how the profile was made (wlipsync ignores unknown fields). */
  calibration?: {
    voices: string[];
    sounds: Record<string, string>;
    framesPerPhoneme: Record<string, number>;
  };
}

/** uLipSync defaults. */
export const PROFILE_SETTINGS = {
  targetSampleRate: 16000,
  sampleCount: 1024,
  melFilterBankChannels: 30,
  compareMethod: 1 as const,
  mfccNum: 12,
  mfccDataCount: 32,
  useStandardization: false,
};

/** Phoneme entries and the espeak-ng phoneme input that sustains each ('' = silence). */
export const CALIBRATION_SOUNDS: Record<string, string> = {
  A: '[[A:A:A:A:]]',
  E: '[[EEEE]]',
  I: '[[i:i:i:i:]]',
  O: '[[O:O:O:O:]]',
  U: '[[u:u:u:u:]]',
  S: '[[s:s:s:s:]]',
  sil: '',
};

/**
 * espeak-ng voices used for calibration: male and female voice/variant pairs of the training corpus
 * (packages/engine-lab/corpus), none of them a dev-set voice (the bench warns if the dev set has one).
 */
export const CALIBRATION_VOICES = [
  'en-us+m1',
  'en-us+f3',
  'en-us+aunty',
  'en-us+Alicia',
  'en+m7',
  'en+f1',
  'en-gb-scotland+m1',
  'en-gb-x-rp+Andy',
  'en-us-nyc+robert',
];

/** Rate the calibration recordings are analysed at: a browser AudioContext's (see engines/wlipsync.ts). */
export const CALIBRATION_RATE = 48000;

/** Block size (samples) between two wlipsync analyses: the worklet's default `blockSize`. */
const BLOCK = 512;

interface WasmExports {
  load_profile(
    sr: number,
    count: number,
    mel: number,
    cmp: number,
    n: number,
    data: number,
    std: number,
  ): number;
  precompute_profile(): void;
  set_input(sampleRate: number): void;
  get_input_buffer(): number;
  get_input_buffer_size(): number;
  get_volume_ptr(): number;
  execute(index: number): number;
  mfccOut: WasmGlobal;
}

/**
 * Runs the library's analysis over a recording, one analysis every 512 samples as the worklet does, and
 * returns each MFCC vector with the window's RMS volume. `phonemes` must equal the final profile's
 * phoneme count: wlipsync 1.3.1 fills only that many of the 12 coefficients, and calibration must see
 * the same features the runtime will.
 */
export async function extractFeatures(
  wasm: WasmModule,
  samples: Float32Array,
  sampleRate: number,
  phonemes: number,
): Promise<{ mfcc: number[]; volume: number }[]> {
  const memory = new wasmApi.Memory({ initial: 4 });
  const instance = await wasmApi.instantiate(wasm, { env: { memory } });
  const x = instance.exports as unknown as WasmExports;
  const s = PROFILE_SETTINGS;
  x.load_profile(s.targetSampleRate, s.sampleCount, s.melFilterBankChannels, s.compareMethod, phonemes, 1, 0);
  x.precompute_profile();
  x.set_input(sampleRate);
  const size = x.get_input_buffer_size();
  const input = new Float32Array(memory.buffer, x.get_input_buffer(), size);
  const mfcc = new Float32Array(memory.buffer, x.mfccOut.value as number, 12);
  const volume = new Float32Array(memory.buffer, x.get_volume_ptr(), 1);
  const out: { mfcc: number[]; volume: number }[] = [];
  const windowSamples = Math.ceil((s.sampleCount * sampleRate) / s.targetSampleRate);
  let index = 0;
  for (let i = 0; i < samples.length; i++) {
    input[index] = samples[i]!;
    index = (index + 1) % size;
    if ((i + 1) % BLOCK === 0 && i + 1 >= windowSamples) {
      x.execute(index);
      out.push({ mfcc: Array.from(mfcc), volume: volume[0]! });
    }
  }
  return out;
}

/** Picks `n` items spread evenly over a list. */
function spread<T>(items: T[], n: number): T[] {
  if (items.length < n) throw new Error(`need ${n} calibration frames, got ${items.length}`);
  return Array.from({ length: n }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / n)]!);
}

/** Loads the package's wasm binary. */
export async function loadWlipsyncWasm(): Promise<WasmModule> {
  const require = createRequire(import.meta.url);
  return wasmApi.compile(readFileSync(require.resolve('wlipsync/wlipsync.wasm')));
}

/**
 * Builds a profile from recordings per phoneme. Held sounds keep frames whose volume is at least half the
 * recording's loudest (the steady part a user holds while calibrating); silence keeps every frame.
 */
export async function calibrate(
  wasm: WasmModule,
  recordings: Record<string, { samples: Float32Array; sampleRate: number }[]>,
): Promise<WlipsyncProfile> {
  const names = Object.keys(recordings);
  const mfccs: WlipsyncProfile['mfccs'] = [];
  const framesPerPhoneme: Record<string, number> = {};
  for (const name of names) {
    const frames: number[][] = [];
    for (const rec of recordings[name]!) {
      const feats = await extractFeatures(wasm, rec.samples, rec.sampleRate, names.length);
      const loudest = Math.max(...feats.map((f) => f.volume));
      for (const f of feats) if (name === 'sil' || f.volume >= loudest / 2) frames.push(f.mfcc);
    }
    framesPerPhoneme[name] = frames.length;
    mfccs.push({
      name,
      mfccCalibrationDataList: spread(frames, PROFILE_SETTINGS.mfccDataCount).map((array) => ({ array })),
    });
  }
  return {
    ...PROFILE_SETTINGS,
    mfccs,
    calibration: { voices: [], sounds: CALIBRATION_SOUNDS, framesPerPhoneme },
  };
}

/** Room tone for the silence entry: 1 s of white noise (a microphone's self-noise) at −60 dBFS RMS (seeded). */
export function roomTone(sampleRate: number, seed: number): Float32Array {
  let state = seed >>> 0;
  const out = new Float32Array(sampleRate);
  let power = 0;
  for (let i = 0; i < out.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const v = state / 2 ** 31 - 1;
    out[i] = v;
    power += v * v;
  }
  const gain = 10 ** (-60 / 20) / Math.sqrt(power / out.length);
  for (let i = 0; i < out.length; i++) out[i]! *= gain;
  return out;
}

/** Whole-recording resampling with core's streaming resampler (push, then flush the held-back tail). */
function resampleAll(samples: Float32Array, from: number, to: number): Float32Array {
  const r = new Resampler(from, to);
  const head = r.push(samples);
  const tail = r.flush();
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/**
 * Synthesises a calibration sound with espeak-ng. Silence is what a user records when calibrating it
 * with the room quiet: room tone (espeak's own pauses are digital zeros, which carry no spectrum).
 */
function synthesise(
  voice: string,
  sound: string,
  dir: string,
  seed: number,
): { samples: Float32Array; sampleRate: number } {
  if (sound === '') return { samples: roomTone(CALIBRATION_RATE, seed), sampleRate: CALIBRATION_RATE };
  const file = join(dir, 'sound.wav');
  execFileSync('espeak-ng', ['-v', voice, '-s', '120', '-w', file, sound]);
  const wav = parseWav(readFileSync(file));
  const samples = wavToMono(wav);
  // a user calibrates in the browser, where the worklet sees the AudioContext rate
  return {
    samples: resampleAll(samples, wav.sampleRate, CALIBRATION_RATE),
    sampleRate: CALIBRATION_RATE,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wlipsync-cal-'));
  try {
    const recordings: Record<string, { samples: Float32Array; sampleRate: number }[]> = {};
    for (const [name, sound] of Object.entries(CALIBRATION_SOUNDS)) {
      recordings[name] = CALIBRATION_VOICES.map((v, i) => synthesise(v, sound, dir, i + 1));
    }
    const profile = await calibrate(await loadWlipsyncWasm(), recordings);
    profile.calibration!.voices = CALIBRATION_VOICES;
    const out = fileURLToPath(new URL('./wlipsync-profile.json', import.meta.url));
    writeFileSync(out, `${JSON.stringify(profile)}\n`);
    console.log(`wrote ${out}: ${JSON.stringify(profile.calibration)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  parseBenchArgs(
    `
Usage: pnpm --filter @avatar-drive/engine-lab exec tsx bench/wlipsync-calibrate.ts

Calibrates the wlipsync peer's profile the way uLipSync users do (held vowels, "s" and room tone
from espeak-ng training voices through wlipsync's own MFCCs) and writes bench/wlipsync-profile.json,
which bench:lipsync loads. Needs espeak-ng (bash scripts/setup.sh). No options.
`,
    {},
  );
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
