/**
 * Host-mode session bench: AvatarSession (token mint, configure, relay encoding, ordered
 * callbacks) next to a bare driveningress.v2 client over `ws` with core's codec (the peer: the
 * least a client can do), against the real service started here. Each session sends a 2 s
 * utterance in 20 ms chunks as fast as it can; figures are wall time to the last frame of every
 * session and the latency from the final chunk to the last frame.
 *
 *   pnpm --filter @avatar-drive/server-sdk bench   (SESSIONS=1,8,16 to change the steps)
 */
import { randomUUID } from 'node:crypto';
import {
  audioInputMessage,
  configureSessionMessage,
  decodeMessage,
  encodeMessage,
  int16ToBytes,
} from '@avatar-drive/core';
import WebSocket from 'ws';
import { AvatarSession, createSessionToken } from '../src/index.js';
import {
  AVATAR_ID,
  createFixtures,
  type ServiceProcess,
  startServiceProcess,
  stopAllServices,
  tone,
} from '../test/support/service-process.js';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(
    `Usage: pnpm --filter @avatar-drive/server-sdk bench   (SESSIONS=1,8,16 sets the steps)\n\nHost-mode AvatarSession next to a bare driveningress.v2 client, against a real service started here\n(needs a built workspace: pnpm build). No options.`,
  );
  process.exit(0);
}

const RATE = 16000;
const CHUNK = RATE / 50; // 20 ms
const utterance = tone(2000, RATE);

interface Result {
  endToLastMs: number;
  frames: number;
}

async function viaSdk(service: ServiceProcess, appId: string, apiKey: string): Promise<Result> {
  let frames = 0;
  let endSentAt = 0;
  let done!: (r: Result) => void;
  const finished = new Promise<Result>((resolve) => {
    done = resolve;
  });
  const session = new AvatarSession({
    avatarId: AVATAR_ID,
    appId,
    apiKey,
    consoleUrl: service.url,
    ingressUrl: service.ingressUrl,
    sampleRate: RATE,
    onFrames: (_message, isLast) => {
      frames += 1;
      if (isLast) done({ endToLastMs: performance.now() - endSentAt, frames });
    },
    onAudio: () => undefined,
  });
  await session.start();
  for (let i = 0; i < utterance.length; i += CHUNK) {
    session.sendAudio(utterance.subarray(i, i + CHUNK), i + CHUNK >= utterance.length);
  }
  endSentAt = performance.now();
  const result = await finished;
  await session.close();
  return result;
}

async function viaRawWs(service: ServiceProcess, appId: string, apiKey: string): Promise<Result> {
  const token = await createSessionToken({ apiKey, consoleUrl: service.url });
  const ws = new WebSocket(`${service.ingressUrl}?id=${AVATAR_ID}`, {
    headers: { 'X-App-ID': appId, 'X-Session-Key': token },
  });
  let frames = 0;
  let endSentAt = 0;
  const result = new Promise<Result>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const message = decodeMessage(new Uint8Array(data));
      if (message.data.case === 'serverConfirmSession') {
        const reqId = randomUUID();
        for (let i = 0; i < utterance.length; i += CHUNK) {
          const audio = int16ToBytes(utterance.subarray(i, i + CHUNK));
          ws.send(encodeMessage(audioInputMessage({ reqId, audio, end: i + CHUNK >= utterance.length })));
        }
        endSentAt = performance.now();
      } else if (message.data.case === 'serverResponseAnimation') {
        frames += 1;
        if (message.data.value.end) resolve({ endToLastMs: performance.now() - endSentAt, frames });
      } else if (message.data.case === 'serverError') reject(new Error(message.data.value.message));
    });
    ws.once('error', reject);
  });
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(encodeMessage(configureSessionMessage({ sampleRate: RATE })));
  const r = await result;
  ws.close();
  return r;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const steps = (process.env.SESSIONS ?? '1,8,16').split(',').map(Number);
  const fixtures = await createFixtures();
  const service = await startServiceProcess({ region: 'ap-northeast', fixtures });
  try {
    await viaSdk(service, fixtures.appId, fixtures.apiKey); // warm-up (JIT, connection pools)
    await viaRawWs(service, fixtures.appId, fixtures.apiKey);
    console.log(
      `Host-mode bench: ${utterance.length / RATE} s utterance per session, 20 ms chunks, one service process`,
    );
    console.log('| client | sessions | wall ms | end→last frame p50 ms | p95 ms | messages/s |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const sessions of steps) {
      for (const [name, run] of [
        ['AvatarSession', viaSdk],
        ['raw ws + core codec', viaRawWs],
      ] as const) {
        const started = performance.now();
        const results = await Promise.all(
          Array.from({ length: sessions }, () => run(service, fixtures.appId, fixtures.apiKey)),
        );
        const wall = performance.now() - started;
        const latencies = results.map((r) => r.endToLastMs);
        const messages = results.reduce((n, r) => n + r.frames, 0) + (sessions * utterance.length) / CHUNK;
        console.log(
          `| ${name} | ${sessions} | ${wall.toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 95).toFixed(1)} | ${((messages / wall) * 1000).toFixed(0)} |`,
        );
      }
    }
  } finally {
    await stopAllServices();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
