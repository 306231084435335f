/**
 * What Ogg Opus input costs the service: demuxing + decoding one audio second, beside the engine's
 * cost for the same second, per stream rate; decoding straight to 16 kHz (what a WebSocket session
 * does) against decoding at the stream's own rate (what an RTC session does, whose audio the room
 * hears). Also prints how closely the animation from the decoded audio follows the animation from
 * the original PCM (viseme argmax agreement, blendshape mean absolute difference).
 *
 *   nice -n 10 node --import tsx apps/service/bench/opus-decode.ts
 *
 * Needs espeak-ng and opusenc (bash scripts/setup.sh). Figures are ms of one core per second of
 * audio, the median of 5 passes over the same stream.
 */
import type { DriveFrame } from '@avatar-drive/core';
import { createDriver } from '@avatar-drive/engine';
import { OggOpusStream } from '../src/audio/ogg-opus-stream.js';
import { OpusPacketDecoder, type OpusRate } from '../src/audio/opus-decoder.js';
import { opusDecodeRate } from '../src/audio/session-audio.js';
import { atRate, opusenc, speech } from '../test/support/ogg-opus-files.js';

const TEXT =
  'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore, and the shells she sells are surely sea shells.';
const PASSES = 5;
const KBPS = 24;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Decodes the whole stream `PASSES` times in 1 KiB pieces; the median ms and the last output. */
function decodeCost(ogg: Uint8Array, rate: OpusRate): { ms: number; pcm: Int16Array } {
  const decoder = new OpusPacketDecoder(rate);
  const times: number[] = [];
  let pcm = new Int16Array(0);
  for (let pass = 0; pass < PASSES; pass++) {
    const parts: Int16Array[] = [];
    const t0 = performance.now();
    const stream = new OggOpusStream(decoder);
    for (let at = 0; at < ogg.length; at += 1024) parts.push(stream.push(ogg.subarray(at, at + 1024)));
    stream.finish();
    times.push(performance.now() - t0);
    pcm = Int16Array.from(parts.flatMap((p) => Array.from(p)));
  }
  decoder.close();
  return { ms: median(times), pcm };
}

function engineCost(pcm: Int16Array, rate: number): { ms: number; frames: DriveFrame[] } {
  const times: number[] = [];
  let frames: DriveFrame[] = [];
  const chunk = rate / 50;
  for (let pass = 0; pass < PASSES; pass++) {
    const driver = createDriver({ sampleRate: rate });
    const out: DriveFrame[] = [];
    const t0 = performance.now();
    for (let at = 0; at < pcm.length; at += chunk) out.push(...driver.push(pcm.subarray(at, at + chunk)));
    out.push(...driver.end());
    times.push(performance.now() - t0);
    frames = out;
  }
  return { ms: median(times), frames };
}

function agreement(a: DriveFrame[], b: DriveFrame[]): { argmax: number; mad: number } {
  const n = Math.min(a.length, b.length);
  let same = 0;
  let diff = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.visemes.indexOf(Math.max(...x.visemes)) === y.visemes.indexOf(Math.max(...y.visemes))) same++;
    let d = 0;
    for (let k = 0; k < x.expression.length; k++) d += Math.abs(x.expression[k]! - y.expression[k]!);
    diff += d / x.expression.length;
  }
  return { argmax: (100 * same) / n, mad: diff / n };
}

const source = speech(TEXT);
const seconds = source.pcm.length / source.sampleRate;
console.log(`speech: ${seconds.toFixed(2)} s (espeak-ng), opusenc ${KBPS} kbit/s, 20 ms frames`);
console.log('ms of one core per audio second (median of 5); agreement with the PCM path at the stream rate');
console.log('stream  decode@  decode ms/s  engine ms/s  decode/engine  argmax %  blendshape MAD');
for (const rate of [8000, 12000, 16000, 24000, 48000] as const) {
  const pcm = atRate(source, rate);
  const ogg = opusenc(pcm, rate, { kbps: KBPS });
  // The PCM path's frames for the same audio (12 kHz is not a PCM rate: sent at 16 kHz).
  const pcmRate = rate === 12000 ? 16000 : rate;
  const reference = engineCost(rate === 12000 ? atRate({ pcm, sampleRate: rate }, 16000) : pcm, pcmRate);
  const rates = new Set([opusDecodeRate(rate, false), opusDecodeRate(rate, true)]);
  for (const decodeRate of rates) {
    const decoded = decodeCost(ogg, decodeRate);
    const engine = engineCost(decoded.pcm, decodeRate);
    const match = agreement(reference.frames, engine.frames);
    console.log(
      [
        `${rate / 1000} kHz`.padEnd(8),
        `${decodeRate / 1000} kHz`.padEnd(8),
        (decoded.ms / seconds).toFixed(2).padStart(11),
        (engine.ms / seconds).toFixed(2).padStart(12),
        (decoded.ms / engine.ms).toFixed(3).padStart(14),
        match.argmax.toFixed(1).padStart(9),
        match.mad.toFixed(4).padStart(15),
      ].join(' '),
    );
  }
}
