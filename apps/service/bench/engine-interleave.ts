/**
 * `pnpm --filter @avatar-drive/service bench:interleave [--sessions 1,10,50,150,300] [--backends wasm,js] [--recycle no,yes]`:
 * the engine's CPU per audio second when N sessions' drivers are interleaved on one thread in 20 ms
 * chunks, the way the service calls them, next to N = 1 (what the engine's own `bench:speed`
 * measures), per engine backend (WebAssembly SIMD and TypeScript, alternating at each N). Timed
 * with process CPU time (not the wall clock), best of 3, so a loaded machine inflates it less than
 * the service's wall-timed `avatar_drive_engine_cpu_seconds_per_audio_second`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDriver } from '@avatar-drive/engine';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: pnpm --filter @avatar-drive/service bench:interleave [--sessions 1,10,50,150,300] [--backends wasm,js] [--recycle no|yes|no,yes]

The engine's CPU per audio second with N drivers interleaved on one thread, as the service runs them,
per engine backend (createDriver's backend option); needs espeak-ng (bash scripts/setup.sh) and a
built engine (pnpm build).`);
  process.exit(0);
}
const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1,10,50,150,300' },
    backends: { type: 'string', default: 'wasm,js' },
    recycle: { type: 'string', default: 'no' },
  },
});
const backends = values.backends!.split(',') as ('wasm' | 'js' | 'auto')[];
for (const b of backends) {
  if (b !== 'wasm' && b !== 'js' && b !== 'auto') {
    console.error(`--backends: ${b} is not wasm, js or auto`);
    process.exit(2);
  }
}
/** Whether the frames go back to their driver (`Driver.recycle`, as the service does): no, yes or no,yes. */
const recycleModes = values.recycle!.split(',').map((v) => {
  if (v !== 'no' && v !== 'yes') {
    console.error(`--recycle: ${v} is not no or yes`);
    process.exit(2);
  }
  return v === 'yes';
});
const RATE = 16000;
const CHUNK = RATE / 50;

function speech(): Int16Array {
  const wav = join(mkdtempSync(join(tmpdir(), 'avd-interleave-')), 'speech.wav');
  execFileSync('espeak-ng', ['-s', '150', '-w', wav, 'The quick brown fox jumps over the lazy dog, twice.']);
  const bytes = readFileSync(wav);
  const source = bytes.readUInt32LE(24);
  const at = bytes.indexOf('data') + 8;
  const src = new Int16Array(
    bytes.buffer.slice(bytes.byteOffset + at, bytes.byteLength - ((bytes.length - at) % 2)),
  );
  const out = new Int16Array(Math.floor((src.length * RATE) / source));
  for (let i = 0; i < out.length; i++) out[i] = src[Math.floor((i * source) / RATE)]!;
  return out;
}

const audio = speech();
const chunks = Math.floor(audio.length / CHUNK);
console.log(
  `engine interleave bench: ${(audio.length / RATE).toFixed(1)} s utterances at ${RATE} Hz, 20 ms chunks, load average ${loadavg()[0]!.toFixed(1)}`,
);
for (const n of values.sessions!.split(',').map(Number)) {
  const line: string[] = [];
  const perBackend: number[] = [];
  for (const backend of backends)
    for (const recycle of recycleModes) {
      const drivers = Array.from({ length: n }, (_, seed) =>
        createDriver({ sampleRate: RATE, seed, backend }),
      );
      const utterance = () => {
        for (let c = 0; c < chunks; c++) {
          const pcm = audio.subarray(c * CHUNK, (c + 1) * CHUNK);
          for (const d of drivers) {
            const frames = d.push(pcm);
            if (recycle) d.recycle(frames);
          }
        }
        for (const d of drivers) d.end();
      };
      utterance(); // warm-up
      const reps = Math.max(1, Math.round(60 / n));
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        const start = process.cpuUsage();
        for (let r = 0; r < reps; r++) utterance();
        const used = process.cpuUsage(start);
        const audioSeconds = (reps * n * chunks * CHUNK) / RATE;
        best = Math.min(best, (used.user + used.system) / 1000 / audioSeconds);
      }
      for (const d of drivers) d.close();
      perBackend.push(best);
      line.push(`${drivers[0]!.backend}${recycle ? '+recycle' : ''} ${best.toFixed(3)}`);
    }
  const ratio =
    perBackend.length === 2 && backends.length === 2
      ? `  (${(perBackend[1]! / perBackend[0]!).toFixed(2)}× ${backends[1]}/${backends[0]})`
      : perBackend.length === 2
        ? `  (${(perBackend[recycleModes.indexOf(true)]! / perBackend[recycleModes.indexOf(false)]!).toFixed(2)}× recycled/allocated)`
        : '';
  console.log(
    `${String(n).padStart(4)} sessions interleaved, ms CPU per audio second: ${line.join(', ')}${ratio}`,
  );
}
