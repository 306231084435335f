/** Starts real service instances on 127.0.0.1:0 for tests, and talks to them like a client. */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ARKIT_BLENDSHAPES, wire } from '@avatar-drive/core';
import { createDriver } from '@avatar-drive/engine';
import { create, fromBinary, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { type ClientOptions, WebSocket } from 'ws';
import { generateApiKey, hashApiKey } from '../../src/credentials/api-keys.js';
import type { DriverFactory } from '../../src/engine-pool/engine-pool.js';
import type { ServiceLimits } from '../../src/limits.js';
import { createLogger } from '../../src/logger.js';
import type { RegionId } from '../../src/regions.js';
import { type RunningService, type ServiceOptions, startService } from '../../src/service.js';
import { makeGlb } from './glb.js';
import { createDriver as createStandInDriver } from './test-driver.js';

export const APP_ID = 'app_test';
export const API_KEY = generateApiKey();
export const OTHER_APP_ID = 'app_other';
export const OTHER_API_KEY = generateApiKey();
export const SIGNING_KEY = new Uint8Array(randomBytes(32));
export const AVATAR_ID = 'test-avatar';
/** The stand-in driver (cheap, with a crash hook) for tests about plumbing, not lip-sync. */
export const STAND_IN_DRIVER_MODULE = pathToFileURL(join(import.meta.dirname, 'test-driver.ts')).href;
/** The engine integration tests run. */
export const DRIVER_MODULE = '@avatar-drive/engine';
const driverFactory: DriverFactory = createDriver;

/** Writes an avatars directory: two good avatars, a broken file, a glTF without ARKit targets. */
export async function makeAvatarsDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'avd-avatars-'));
  await writeFile(
    join(dir, `${AVATAR_ID}.glb`),
    makeGlb(['jawOpen', 'mouthClose', 'eyeBlinkLeft', 'eyeBlinkRight']),
  );
  await mkdir(join(dir, 'viseme-head'));
  await writeFile(
    join(dir, 'viseme-head', 'avatar.glb'),
    makeGlb(['viseme_sil', 'viseme_aa', 'viseme_O', ...ARKIT_BLENDSHAPES]),
  );
  await writeFile(
    join(dir, 'viseme-head', 'manifest.json'),
    JSON.stringify({ name: 'Viseme Head', description: 'test' }),
  );
  await writeFile(join(dir, 'broken.glb'), Buffer.from('this is not a glb file at all'));
  await writeFile(join(dir, 'no-targets.glb'), makeGlb([]));
  return dir;
}

/** Collects log lines so tests can check what was (not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.lines.push(chunk.toString());
    callback();
  }
  get text(): string {
    return this.lines.join('');
  }
}

export interface TestServiceOptions {
  region?: RegionId;
  avatarsDir: string;
  limits?: Partial<ServiceLimits>;
  redisUrl?: string;
  workers?: number;
  /** Use the cheap stand-in driver even when the real engine is wired in. */
  standIn?: boolean;
  log?: LogCapture;
  extra?: Partial<ServiceOptions>;
}

export async function startTestService(options: TestServiceOptions): Promise<RunningService> {
  return startService({
    region: options.region ?? 'ap-northeast',
    port: 0,
    apps: [
      { appId: APP_ID, apiKeyHashes: [hashApiKey(API_KEY)] },
      { appId: OTHER_APP_ID, apiKeyHashes: [hashApiKey(OTHER_API_KEY)], maxConcurrentSessions: 2 },
    ],
    signingKey: SIGNING_KEY,
    avatarsDir: options.avatarsDir,
    limits: options.limits ?? {},
    engine:
      (options.workers ?? 0) > 0
        ? {
            workers: options.workers!,
            driverModule: options.standIn ? STAND_IN_DRIVER_MODULE : DRIVER_MODULE,
          }
        : { driverFactory: options.standIn ? createStandInDriver : driverFactory },
    logger: createLogger({ level: 'debug', destination: options.log ?? new LogCapture() }),
    ...(options.redisUrl && { redisUrl: options.redisUrl }),
    // The service shares this process's event loop with the tests' own work: load shedding (on by
    // default) is off here unless a test sets it (overload.test.ts), so a stall of the test machine
    // cannot refuse a session another test opens.
    overload: { lagMs: 0, busyPercent: 0 },
    ...options.extra,
  });
}

/** Mints a session token over the console API. */
export async function mintToken(
  service: { url: string },
  apiKey = API_KEY,
  expireAt = Math.floor(Date.now() / 1000) + 600,
): Promise<string> {
  const response = await fetch(`${service.url}/v1/console/session-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ expireAt }),
  });
  const body = (await response.json()) as { sessionToken?: string };
  if (response.status !== 200 || !body.sessionToken)
    throw new Error(`token mint failed: ${JSON.stringify(body)}`);
  return body.sessionToken;
}

export type Message = wire.Message;

/** A driveningress.v2 client over a real WebSocket, with an inbox. */
export class TestClient {
  readonly ws: WebSocket;
  readonly inbox: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  #waiters: (() => void)[] = [];

  constructor(url: string, headers: Record<string, string> = {}, wsOptions: ClientOptions = {}) {
    this.ws = new WebSocket(url, { ...wsOptions, headers });
    this.ws.binaryType = 'nodebuffer';
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () =>
          reject(
            Object.assign(new Error(`HTTP ${res.statusCode}`), {
              status: res.statusCode,
              body: parseJson(body),
            }),
          ),
        );
      });
      this.ws.once('error', reject);
    });
    this.opened.catch(() => undefined);
    this.ws.on('message', (data: Buffer) => {
      this.inbox.push(fromBinary(wire.MessageSchema, data));
      for (const w of this.#waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => {
      this.ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const w of this.#waiters.splice(0)) w();
      });
    });
  }

  /** Opens a session with header auth on the given service. */
  static async open(
    service: { ingressUrl: string },
    token: string,
    options: {
      appId?: string;
      avatarId?: string;
      query?: boolean;
      path?: string;
      /** CA certificate(s) to verify a wss:// service against. */
      ca?: string;
      /** Local address to connect from (any 127.x.y.z on Linux loopback). */
      localAddress?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<TestClient> {
    const appId = options.appId ?? APP_ID;
    const avatarId = options.avatarId ?? AVATAR_ID;
    const base = service.ingressUrl + (options.path ?? '');
    const wsOptions: ClientOptions = {
      ...(options.ca && { ca: options.ca }),
      ...(options.localAddress && { localAddress: options.localAddress }),
    };
    const client = options.query
      ? new TestClient(
          `${base}?id=${avatarId}&appId=${encodeURIComponent(appId)}&sessionKey=${encodeURIComponent(token)}`,
          { ...options.headers },
          wsOptions,
        )
      : new TestClient(
          `${base}?id=${avatarId}`,
          { ...options.headers, 'X-App-ID': appId, 'X-Session-Key': token },
          wsOptions,
        );
    await client.opened;
    return client;
  }

  send(init: MessageInitShape<typeof wire.MessageSchema>): void {
    this.ws.send(toBinary(wire.MessageSchema, create(wire.MessageSchema, init)));
  }

  configure(sampleRate = 16000, extra: Record<string, unknown> = {}): void {
    this.send({
      type: wire.MessageType.CLIENT_CONFIGURE_SESSION,
      data: { case: 'clientConfigureSession', value: { sampleRate, ...extra } },
    } as MessageInitShape<typeof wire.MessageSchema>);
  }

  audio(reqId: string, pcm: Int16Array, end = false): void {
    this.send({
      type: wire.MessageType.CLIENT_AUDIO_INPUT,
      data: {
        case: 'clientAudioInput',
        value: { reqId, end, audio: new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength) },
      },
    });
  }

  control(kind: 'interrupt' | 'pause' | 'resume', reqId: string): void {
    const type = {
      interrupt: wire.MessageType.CLIENT_INTERRUPT,
      pause: wire.MessageType.CLIENT_PAUSE,
      resume: wire.MessageType.CLIENT_RESUME,
    }[kind];
    const c = ({ interrupt: 'clientInterrupt', pause: 'clientPause', resume: 'clientResume' } as const)[kind];
    this.send({ type, data: { case: c, value: { reqId } } } as MessageInitShape<typeof wire.MessageSchema>);
  }

  /** Waits for the first inbox message (from `from`) matching `predicate`. */
  async waitFor(predicate: (m: Message) => boolean, timeoutMs = 5000, from = 0): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.inbox.slice(from).find(predicate);
      if (found) return found;
      if (this.ws.readyState === WebSocket.CLOSED)
        throw new Error(`closed before the awaited message; inbox: ${this.describe()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; inbox: ${this.describe()}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async confirmed(): Promise<wire.ServerConfirmSession> {
    const m = await this.waitFor(
      (x) => x.data.case === 'serverConfirmSession' || x.data.case === 'serverError',
    );
    if (m.data.case !== 'serverConfirmSession') throw new Error(`not confirmed: ${this.describe()}`);
    return m.data.value;
  }

  describe(): string {
    return this.inbox
      .map((m) => {
        const d = m.data;
        if (d.case === 'serverError') return `error(${d.value.code}: ${d.value.message})`;
        if (d.case === 'serverPlaybackState')
          return `state(${d.value.reqId}:${wire.PlaybackState[d.value.state]}:${d.value.playedMs}:${d.value.reason})`;
        if (d.case === 'serverResponseAnimation')
          return `anim(${d.value.reqId}:${d.value.animation?.keyframes.length}${d.value.end ? ':end' : ''})`;
        return d.case ?? 'unknown';
      })
      .join(', ');
  }

  close(): void {
    this.ws.close();
  }
}

/** `ms` of a 200 Hz tone at `sampleRate` (speech-like level). */
export function tone(ms: number, sampleRate = 16000, amplitude = 8000): Int16Array {
  const n = Math.round((ms * sampleRate) / 1000);
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) pcm[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 200 * i) / sampleRate));
  return pcm;
}

export function animations(client: TestClient, reqId?: string): wire.ServerResponseAnimation[] {
  return client.inbox
    .filter((m) => m.data.case === 'serverResponseAnimation')
    .map((m) => m.data.value as wire.ServerResponseAnimation)
    .filter((a) => reqId === undefined || a.reqId === reqId);
}

export function states(client: TestClient, reqId?: string): wire.ServerPlaybackState[] {
  return client.inbox
    .filter((m) => m.data.case === 'serverPlaybackState')
    .map((m) => m.data.value as wire.ServerPlaybackState)
    .filter((s) => reqId === undefined || s.reqId === reqId);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Parsed JSON in assertions (shape checked by the assertions themselves). */
export type Json = ReturnType<typeof JSON.parse>;

function parseJson(text: string): Json {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return { text };
  }
}
