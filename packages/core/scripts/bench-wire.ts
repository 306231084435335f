/// <reference types="node" />
/**
 * Throughput of the wire and relay codecs, each next to its peer: the raw protobuf-es call it
 * wraps, so the cost of the checks is visible. Prints figures; asserts nothing.
 *
 *   pnpm --filter @avatar-drive/core bench
 */
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  audioInputMessage,
  createDriveFrame,
  decodeMessage,
  encodeMessage,
  extractResponseAnimation,
  MessageSchema,
  RelayDecoder,
  RelayEncoder,
  responseAnimationMessage,
} from '../src/index.js';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(
    `Usage: pnpm --filter @avatar-drive/core bench\n\nThroughput of the wire and relay codecs, each next to the raw protobuf-es call it wraps. No options.`,
  );
  process.exit(0);
}

const MS_PER_CASE = Number(process.env.BENCH_MS ?? 300);

function bench(name: string, fn: () => unknown): number {
  for (let i = 0; i < 200; i++) fn(); // warm up
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MS_PER_CASE) {
    for (let i = 0; i < 100; i++) fn();
    ops += 100;
    elapsed = performance.now() - start;
  }
  const perSecond = (ops / elapsed) * 1000;
  console.log(`${name.padEnd(70)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} ops/s`);
  return perSecond;
}

// 200 ms of animation (5 keyframes) and 20 ms of 16 kHz audio: typical messages.
const frames = Array.from({ length: 5 }, (_, i) => {
  const frame = createDriveFrame(i);
  frame.expression.fill(0.25);
  frame.visemes.fill(0.125);
  return frame;
});
const animation = responseAnimationMessage({ connectionId: 'conn', reqId: 'req', frames });
const animationBytes = encodeMessage(animation);
const audio = audioInputMessage({ reqId: 'req', audio: new Uint8Array(640) });
const audioBytes = encodeMessage(audio);

console.log(
  `animation frame: ${animationBytes.byteLength} bytes; audio frame: ${audioBytes.byteLength} bytes\n`,
);
const results: Array<[string, number, number]> = [];
const pair = (label: string, ours: () => unknown, peer: () => unknown) => {
  const a = bench(`${label} (core)`, ours);
  const b = bench(`${label} (peer: raw protobuf-es)`, peer);
  results.push([label, a, b]);
};

pair(
  'decode animation frame',
  () => decodeMessage(animationBytes),
  () => fromBinary(MessageSchema, animationBytes),
);
pair(
  'encode animation frame',
  () => encodeMessage(animation),
  () => toBinary(MessageSchema, animation),
);
pair(
  'decode audio frame',
  () => decodeMessage(audioBytes),
  () => fromBinary(MessageSchema, audioBytes),
);

const payload = extractResponseAnimation(animationBytes);
let conversation = 0;
pair(
  'relay: encode + decode animation',
  () => {
    const id = `c${conversation++}`;
    new RelayDecoder().decode(new RelayEncoder().animation(id, payload, { last: true }));
  },
  () => fromBinary(MessageSchema, toBinary(MessageSchema, animation)),
);
const encoder = new RelayEncoder();
const decoder = new RelayDecoder();
const pcm = new Uint8Array(640);
pair(
  'relay: encode + decode 20 ms audio (one stream)',
  () => decoder.decode(encoder.audio('conv', pcm, { sampleRate: 16000 })),
  () => fromBinary(MessageSchema, toBinary(MessageSchema, audio)),
);

console.log('\nratio core / peer:');
for (const [label, ours, peer] of results) console.log(`  ${label.padEnd(48)} ${(ours / peer).toFixed(2)}`);
