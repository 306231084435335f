import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { animationToDriveFrames, int16FromBytes, RelayDecoder } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RelayClient, type RelayControl } from '../src/relay-client.js';
import {
  AVATAR_ID,
  createFixtures,
  REPO_ROOT,
  type ServiceFixtures,
  type ServiceProcess,
  sleep,
  startServiceProcess,
  stopAllServices,
} from './support/service-process.js';

let fixtures: ServiceFixtures;
let service: ServiceProcess;
let example: ChildProcess | undefined;

beforeAll(async () => {
  fixtures = await createFixtures();
  service = await startServiceProcess({ region: 'ap-northeast', fixtures });
});
afterAll(async () => {
  example?.kill('SIGTERM');
  await stopAllServices();
});

describe('examples/host-relay', () => {
  it('relays a spoken utterance to a WebSocket client that feeds RelayClient; interrupt reaches it', async () => {
    example = spawn(process.execPath, [join(REPO_ROOT, 'examples/host-relay/server.mjs')], {
      cwd: join(REPO_ROOT, 'examples/host-relay'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: '0',
        AVATAR_ID,
        AVATAR_DRIVE_APP_ID: fixtures.appId,
        AVATAR_DRIVE_API_KEY: fixtures.apiKey,
        AVATAR_DRIVE_CONSOLE_URL: service.url,
        AVATAR_DRIVE_INGRESS_URL: service.ingressUrl,
      },
    });
    let out = '';
    example.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    example.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /listening on (ws:\/\/\S+)/.exec(out);
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 50);
      example!.once('exit', (code) => reject(new Error(`example exited ${code}: ${out}`)));
    });

    // The browser side, minus rendering: core's RelayDecoder stands in for client-web.
    const decoder = new RelayDecoder();
    let current = '';
    let samples = 0;
    let frames = 0;
    let interrupted = 0;
    const controls: RelayControl[] = [];
    const client = new RelayClient(
      {
        yieldAudioData(bytes) {
          const m = decoder.decode(bytes);
          if (m.kind === 'audio') samples += int16FromBytes(m.pcm).length;
          current = m.conversationId;
          return m.conversationId;
        },
        yieldFramesData(list) {
          for (const bytes of list) {
            const m = decoder.decode(bytes);
            if (m.kind === 'animation') frames += animationToDriveFrames(m.animation).length;
          }
        },
        interrupt() {
          interrupted += 1;
        },
      },
      { onControl: (c) => controls.push(c) },
    );
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    ws.on('message', (data: ArrayBuffer | Buffer, isBinary: boolean) => {
      client.receive(isBinary ? (data as ArrayBuffer) : data.toString());
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'speak' }));
    const deadline = Date.now() + 10_000;
    while (frames < 25 && Date.now() < deadline) await sleep(20);
    expect(frames).toBeGreaterThanOrEqual(25); // ≥ 1 s of animation while it streams in real time
    expect(samples).toBeGreaterThanOrEqual(16000);
    ws.send(JSON.stringify({ type: 'interrupt' }));
    while (interrupted === 0 && Date.now() < deadline) await sleep(20);
    expect(interrupted).toBe(1);
    expect(controls).toContainEqual({ type: 'interrupt', conversationId: current });
    ws.close();
    expect(out).not.toContain(fixtures.apiKey);
  });
});
