/**
 * A quick, provisional labelled set for the bench until the project's dev set exists: espeak-ng
 * sentences (voices not used for wlipsync calibration) with phone times from libespeak-ng phoneme events
 * (espeak-events.c, built here with gcc), stop onsets moved back to the start of their closure, padded
 * with silence, then put through the dev-set conditions (clean, 20 dB and 10 dB SNR noise, telephone
 * band) and resampled across the supported input rates with sox. Same file format as the dev set.
 *
 * Run: pnpm --filter @avatar-drive/engine exec tsx bench/quickset/make-quickset.ts [--out DIR] [--count N]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWav, mulberry32, parseWav, type Viseme, wavToMonoInt16 } from '@avatar-drive/core';
import { parseBenchArgs } from '../cli-args.js';
import type { Phone } from '../metrics.js';

const VOICES = [
  'en-gb-scotland+klatt2',
  'en-029+f3',
  'en-us+m5',
  'en-gb-x-rp+Andy',
  'en-us-nyc+f5',
  'en+Alicia',
];
const TEXTS = [
  'Bob might make a cheap pie, then he shows the big fish.',
  'The small boat drifted past the marina at noon.',
  'Please bring me the map before the rain begins.',
  'We were told to wait, but nobody came back.',
  'A thick fog covered the valley for most of the morning.',
  'She wove a purple rope from five thin vines.',
  'Could you move the heavy box toward the window?',
  'My brother paints maps of imaginary islands.',
  'Judge the juice by its colour, not by its smell.',
  'Ten brave mice ran through the old barn.',
  'Keep calm, open the lid, and measure the water.',
  'Every April the meadow blooms with bright poppies.',
];
const CONDITIONS = ['clean', 'snr20', 'snr10', 'telephone'] as const;
const RATES = [16000, 8000, 22050, 44100, 24000, 48000, 32000];
const PAD_S = 0.45;

/** espeak-ng English phoneme mnemonics → viseme (by leading symbol where a family shares one). */
export function visemeOfMnemonic(m: string): Viseme {
  if (m.startsWith('_')) return 'sil';
  const s = m.replace(/[',%=;[]/g, '');
  const exact: Record<string, Viseme> = {
    p: 'PP',
    b: 'PP',
    m: 'PP',
    f: 'FF',
    v: 'FF',
    T: 'TH',
    D: 'TH',
    t: 'DD',
    d: 'DD',
    't#': 'DD',
    '?': 'DD',
    k: 'kk',
    g: 'kk',
    x: 'kk',
    h: 'kk',
    tS: 'CH',
    dZ: 'CH',
    S: 'CH',
    Z: 'CH',
    s: 'SS',
    z: 'SS',
    n: 'nn',
    N: 'nn',
    l: 'nn',
    r: 'RR',
    'r-': 'RR',
    R: 'RR',
    j: 'I',
    w: 'U',
    V: 'aa',
    '0': 'O',
  };
  if (exact[s]) return exact[s]!;
  const c = s[0]!;
  if (c === 'a' || c === 'A') return 'aa';
  if (c === 'e' || c === 'E' || c === '@' || c === '3') return 'E';
  if (c === 'i' || c === 'I') return 'I';
  if (c === 'o' || c === 'O') return 'O';
  if (c === 'u' || c === 'U') return 'U';
  throw new Error(`no viseme for espeak phoneme "${m}"`);
}

const STOPS = new Set(['p', 'b', 't', 'd', 'k', 'g', 'tS', 'dZ']);

/** Phones from espeak events; stop onsets move back over the quiet closure before their release. */
function phonesFromEvents(all: { sample: number; ph: string }[], pcm: Int16Array, rate: number): Phone[] {
  // modifier-only events (e.g. ";") continue the phone before them
  const events = all.filter((e) => e.ph.startsWith('_') || e.ph.replace(/[',%=;[]/g, '') !== '');
  const win = Math.round(rate * 0.005);
  const rms = (at: number) => {
    let s = 0;
    for (let i = Math.max(0, at - win); i < at; i++) s += pcm[i]! * pcm[i]!;
    return Math.sqrt(s / win);
  };
  let peak = 1;
  for (let i = win; i < pcm.length; i += win) peak = Math.max(peak, rms(i));
  const quiet = peak * 10 ** (-30 / 20);
  const starts = events.map((e, i) => {
    if (!STOPS.has(e.ph) || i === 0) return e.sample;
    const floor = events[i - 1]!.sample + Math.round(rate * 0.02);
    let s = e.sample;
    const limit = Math.max(floor, e.sample - Math.round(rate * 0.15));
    while (s - win > limit && rms(s) < quiet) s -= win;
    return s;
  });
  const phones: Phone[] = [];
  for (let i = 0; i < events.length; i++) {
    const start = starts[i]! / rate;
    const end = (i + 1 < events.length ? starts[i + 1]! : pcm.length) / rate;
    if (end <= start) continue;
    phones.push({ start, end, phone: events[i]!.ph, viseme: visemeOfMnemonic(events[i]!.ph) });
  }
  return phones;
}

/** Deterministic pseudo-random numbers (core's mulberry32). */
const rng = mulberry32;

/** Adds pink-ish noise at `snrDb` below the speech power (measured over labelled speech). */
function addNoise(pcm: Int16Array, rate: number, phones: Phone[], snrDb: number, seed: number): Int16Array {
  let sp = 0;
  let n = 0;
  for (const p of phones) {
    if (p.viseme === 'sil') continue;
    for (let i = Math.floor(p.start * rate); i < Math.min(pcm.length, p.end * rate); i++) {
      sp += pcm[i]! * pcm[i]!;
      n++;
    }
  }
  const speechPower = n ? sp / n : 1;
  const rand = rng(seed);
  const noise = new Float64Array(pcm.length);
  let b0 = 0;
  let b1 = 0;
  let np = 0;
  for (let i = 0; i < noise.length; i++) {
    const w = rand() * 2 - 1;
    b0 = 0.99 * b0 + 0.1 * w; // two-pole tilt: more low-frequency energy, like room and street noise
    b1 = 0.6 * b1 + 0.4 * w;
    noise[i] = b0 + b1;
    np += noise[i]! * noise[i]!;
  }
  const gain = Math.sqrt(speechPower / 10 ** (snrDb / 10) / (np / noise.length));
  return Int16Array.from(pcm, (v, i) => Math.max(-32768, Math.min(32767, Math.round(v + gain * noise[i]!))));
}

function main(): void {
  const values = parseBenchArgs(
    `
Usage: pnpm --filter @avatar-drive/engine exec tsx bench/quickset/make-quickset.ts [--out DIR] [--count N]

Writes a small provisional labelled set (espeak-ng, needs espeak-ng, libespeak-ng-dev, gcc and sox:
bash scripts/setup.sh) in the dev-set format. The project's real dev set is made by
\`pnpm --filter @avatar-drive/engine gen:dev\`.

Options:
  --out DIR     output folder (default packages/engine/.data/quick)
  --count N     utterances (default 24)
  -h, --help    this text
`,
    { out: { type: 'string' }, count: { type: 'string' } },
  );
  const out = values.out ?? fileURLToPath(new URL('../../.data/quick', import.meta.url));
  const count = Number(values.count ?? 24);
  mkdirSync(out, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'quickset-'));
  try {
    const helper = join(tmp, 'espeak-events');
    execFileSync('gcc', [
      '-O2',
      '-o',
      helper,
      fileURLToPath(new URL('./espeak-events.c', import.meta.url)),
      '-lespeak-ng',
    ]);
    const index: string[] = [];
    for (let i = 0; i < count; i++) {
      const voice = VOICES[i % VOICES.length]!;
      const text = TEXTS[i % TEXTS.length]!;
      const condition = CONDITIONS[i % CONDITIONS.length]!;
      const rate = condition === 'telephone' ? 8000 : RATES[(i >> 2) % RATES.length]!;
      const wpm = 140 + ((i * 7) % 50);
      const pitch = 35 + ((i * 13) % 40);
      const raw = join(tmp, 'u.raw');
      const lines = execFileSync(helper, [voice, String(wpm), String(pitch), raw, text], { encoding: 'utf8' })
        .trim()
        .split('\n');
      const [, , srcRateText] = lines.pop()!.split(' ');
      const srcRate = Number(srcRateText);
      const bytes = readFileSync(raw);
      const speech = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
      const pad = Math.round(PAD_S * srcRate);
      const pcm = new Int16Array(speech.length + 2 * pad);
      pcm.set(speech, pad);
      const events = lines.map((l) => {
        const [sample, ph] = l.split(' ');
        return { sample: Number(sample) + pad, ph: ph! };
      });
      let phones = phonesFromEvents(events, pcm, srcRate);
      phones = [{ start: 0, end: phones[0]?.start ?? 0, phone: '_', viseme: 'sil' as Viseme }, ...phones];
      let audio: Int16Array = pcm;
      if (condition === 'snr20' || condition === 'snr10') {
        audio = addNoise(pcm, srcRate, phones, condition === 'snr20' ? 20 : 10, 1000 + i);
      }
      const srcWav = join(tmp, 'src.wav');
      const dstWav = join(tmp, 'dst.wav');
      writeFileSync(srcWav, encodeWav(audio, srcRate));
      const effects = condition === 'telephone' ? ['sinc', '300-3400'] : [];
      execFileSync('sox', [
        srcWav,
        '-r',
        String(rate),
        '-b',
        '16',
        dstWav,
        ...effects,
        'rate',
        '-v',
        String(rate),
      ]);
      const id = `q${String(i).padStart(3, '0')}`;
      const wav = parseWav(readFileSync(dstWav));
      writeFileSync(join(out, `${id}.wav`), encodeWav(wavToMonoInt16(wav), wav.sampleRate));
      const label = { id, sampleRate: wav.sampleRate, voice, text, condition, split: 'quick', phones };
      writeFileSync(join(out, `${id}.json`), `${JSON.stringify(label)}\n`);
      index.push(id);
    }
    writeFileSync(join(out, 'index.json'), `${JSON.stringify(index)}\n`);
    console.log(`wrote ${count} utterances to ${out}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main();
