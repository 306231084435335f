/**
 * What Ogg Opus input costs the service: demuxing + decoding one audio second, beside the engine's
 * cost for the same second, per stream rate; decoding straight to 16 kHz (what a WebSocket session
 * does) against decoding at the stream's own rate (what an RTC session does, whose audio the room
 * hears). Also prints how closely the animation from the decoded audio follows the animation from
 * the original PCM (viseme argmax agreement, blendshape mean absolute difference).
 *
 *   nice -n 10 node --import tsx apps/service/bench/opus-decode.ts
 *
 * Needs espeak-ng and opusenc (bash scripts/setup.sh). Times are this process's CPU time
 * (process.cpuUsage), so other load on the machine does not count. Figures are ms of one core per second of
 * audio, the fastest of 9 passes, each 4 runs over the same stream; "libopus" is the decoder alone on the same
 * packets (the rest of "decode" is the Ogg demuxer, the CRC and the copies); "native" is the same
 * libopus through the package's native addon, which the service does not use (see
 * src/audio/opus-decoder.ts), for comparison.
 */
import { createRequire } from 'node:module';
import type { DriveFrame } from '@avatar-drive/core';
import { createDriver } from '@avatar-drive/engine';
import { OggOpusStream } from '../src/audio/ogg-opus-stream.js';
import { OpusPacketDecoder, type OpusRate } from '../src/audio/opus-decoder.js';
import { opusDecodeRate } from '../src/audio/session-audio.js';
import { atRate, opusenc, speech } from '../test/support/ogg-opus-files.js';

const TEXT =
  'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore, and the shells she sells are surely sea shells.';
const PASSES = 9;
/** The stream is worked through this many times per timed pass (long passes: coarse CPU clocks). */
const REPEAT = 4;
const KBPS = 24;

/** The fastest pass: on a shared machine the others measure the neighbours as well. */
function fastest(xs: number[]): number {
  return Math.min(...xs);
}

/** CPU time of this process in ms (user + system): what other processes on the machine do not inflate. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Decodes the whole stream `PASSES` times in 1 KiB pieces; the fastest pass's ms and the last output. */
function decodeCost(ogg: Uint8Array, rate: OpusRate): { ms: number; pcm: Int16Array } {
  const decoder = new OpusPacketDecoder(rate);
  const times: number[] = [];
  let pcm = new Int16Array(0);
  for (let pass = 0; pass < PASSES; pass++) {
    let parts: Int16Array[] = [];
    const t0 = cpuMs();
    for (let r = 0; r < REPEAT; r++) {
      parts = [];
      const stream = new OggOpusStream(decoder);
      for (let at = 0; at < ogg.length; at += 1024) parts.push(stream.push(ogg.subarray(at, at + 1024)));
      stream.finish();
    }
    times.push((cpuMs() - t0) / REPEAT);
    pcm = Int16Array.from(parts.flatMap((p) => Array.from(p)));
  }
  decoder.close();
  return { ms: fastest(times), pcm };
}

/** The audio packets of a stream (after the two headers), for timing libopus on its own. */
function packetsOf(ogg: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let parts: Uint8Array[] = [];
  for (let at = 0; at < ogg.length; ) {
    const segments = ogg[at + 26]!;
    let body = at + 27 + segments;
    for (let i = 0; i < segments; i++) {
      const n = ogg[at + 27 + i]!;
      parts.push(ogg.subarray(body, body + n));
      body += n;
      if (n < 255) {
        packets.push(Uint8Array.from(parts.flatMap((p) => Array.from(p))));
        parts = [];
      }
    }
    at = body;
  }
  return packets.slice(2);
}

/** The package's native addon (not what the service uses: see src/audio/opus-decoder.ts). */
const require = createRequire(import.meta.url);
const native = require('@evan/opus') as typeof import('@evan/opus');

/** libopus alone on the same packets (no Ogg, no trimming): the fastest pass's ms of `PASSES`. */
function libopusCost(ogg: Uint8Array, rate: OpusRate, addon = false): number {
  const packets = packetsOf(ogg);
  const decoder = addon
    ? (() => {
        const d = new native.Decoder({ channels: 1, sample_rate: rate });
        return { reset: () => d.reset(), decode: (p: Uint8Array) => d.decode(p), close: () => undefined };
      })()
    : new OpusPacketDecoder(rate);
  const times: number[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    const t0 = cpuMs();
    for (let r = 0; r < REPEAT; r++) {
      decoder.reset(0);
      for (const packet of packets) decoder.decode(packet);
    }
    times.push((cpuMs() - t0) / REPEAT);
  }
  decoder.close();
  return fastest(times);
}

function engineCost(pcm: Int16Array, rate: number): { ms: number; frames: DriveFrame[] } {
  const times: number[] = [];
  let frames: DriveFrame[] = [];
  const chunk = rate / 50;
  for (let pass = 0; pass < PASSES; pass++) {
    const drivers = Array.from({ length: REPEAT }, () => createDriver({ sampleRate: rate }));
    let out: DriveFrame[] = [];
    const t0 = cpuMs();
    for (const driver of drivers) {
      out = [];
      for (let at = 0; at < pcm.length; at += chunk) out.push(...driver.push(pcm.subarray(at, at + chunk)));
      out.push(...driver.end());
    }
    times.push((cpuMs() - t0) / REPEAT);
    frames = out;
  }
  return { ms: fastest(times), frames };
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
// Warm-up: every decode rate and the engine once, so the first row is not the JIT's.
for (const rate of [8000, 16000, 24000, 48000] as const) {
  const pcm = atRate(source, rate);
  decodeCost(opusenc(pcm, rate, { kbps: KBPS }), rate);
  engineCost(pcm, rate);
}
console.log(`speech: ${seconds.toFixed(2)} s (espeak-ng), opusenc ${KBPS} kbit/s, 20 ms frames`);
console.log(
  'ms of one core per audio second (fastest of 9 passes of 4 runs); agreement with the PCM path at the stream rate',
);
console.log(
  'stream  decode@  decode ms/s  (libopus)  (native)  engine ms/s  decode/engine  argmax %  blendshape MAD',
);
for (const rate of [8000, 12000, 16000, 24000, 48000] as const) {
  const pcm = atRate(source, rate);
  const ogg = opusenc(pcm, rate, { kbps: KBPS });
  // The PCM path's frames for the same audio (12 kHz is not a PCM rate: sent at 16 kHz).
  const pcmRate = rate === 12000 ? 16000 : rate;
  const reference = engineCost(rate === 12000 ? atRate({ pcm, sampleRate: rate }, 16000) : pcm, pcmRate);
  const rates = new Set([opusDecodeRate(rate, false), opusDecodeRate(rate, true)]);
  for (const decodeRate of rates) {
    const decoded = decodeCost(ogg, decodeRate);
    const libopus = libopusCost(ogg, decodeRate);
    const addon = libopusCost(ogg, decodeRate, true);
    const engine = engineCost(decoded.pcm, decodeRate);
    const match = agreement(reference.frames, engine.frames);
    console.log(
      [
        `${rate / 1000} kHz`.padEnd(8),
        `${decodeRate / 1000} kHz`.padEnd(8),
        (decoded.ms / seconds).toFixed(2).padStart(11),
        (libopus / seconds).toFixed(2).padStart(10),
        (addon / seconds).toFixed(2).padStart(9),
        (engine.ms / seconds).toFixed(2).padStart(12),
        (decoded.ms / engine.ms).toFixed(3).padStart(14),
        match.argmax.toFixed(1).padStart(9),
        match.mad.toFixed(4).padStart(15),
      ].join(' '),
    );
  }
}
