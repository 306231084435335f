/**
 * `pnpm start --host`: the stack listens on the address it is given and hands clients URLs on that
 * address (what a phone on the LAN needs; examples/react-native). Run on 127.0.0.2, a loopback
 * address other than the default: every URL names it, nothing answers on 127.0.0.1 at those ports,
 * and a client that only knows the address (a token from the token server, the region's ingress
 * URL) connects and gets animation for speech.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvatarSession } from '@avatar-drive/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type Stack, stackAddresses, startStack } from '../server/stack.js';

// Linux routes all of 127.0.0.0/8 to loopback; macOS has only 127.0.0.1 unless an alias is added.
const ADDRESS = '127.0.0.2';
const skip = platform() !== 'linux' ? 'needs a second loopback address (Linux has 127.0.0.0/8)' : '';

/** The PCM of a mono 16-bit WAV (the demo's built sample), with its rate. */
async function readWav(path: string): Promise<{ pcm: Int16Array; sampleRate: number }> {
  const bytes = await readFile(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sampleRate = view.getUint32(24, true);
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = view.getUint32(at + 4, true);
    if (id === 'data') {
      const data = bytes.subarray(at + 8, at + 8 + size);
      return {
        pcm: new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length)),
        sampleRate,
      };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error(`${path} has no data chunk`);
}

/** Whether something accepts a TCP connection at host:port. */
function listening(host: string, port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = connect(port, host, () => {
      socket.end();
      ok(true);
    });
    socket.on('error', () => ok(false));
  });
}

describe('stackAddresses', () => {
  it('uses an IPv4 address as given, and refuses what clients could not dial', () => {
    expect(stackAddresses()).toEqual({ bind: '127.0.0.1', address: '127.0.0.1' });
    expect(stackAddresses('192.168.1.20')).toEqual({ bind: '192.168.1.20', address: '192.168.1.20' });
    expect(() => stackAddresses('::1')).toThrow(/IPv4 address, or 0\.0\.0\.0/);
    expect(() => stackAddresses('my-laptop.local')).toThrow(/IPv4 address, or 0\.0\.0\.0/);
  });

  it('listens everywhere on 0.0.0.0 but hands out a LAN address, never the wildcard', () => {
    let result: { bind: string; address: string } | undefined;
    try {
      result = stackAddresses('0.0.0.0');
    } catch (error) {
      // A machine with loopback only: the message says what to pass instead.
      expect((error as Error).message).toMatch(/no LAN IPv4 address; pass the address/);
      return;
    }
    expect(result.bind).toBe('0.0.0.0');
    expect(result.address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(result.address).not.toBe('0.0.0.0');
    expect(result.address.startsWith('127.')).toBe(false);
  });
});

describe.skipIf(skip)(`the stack on another address (${ADDRESS})`, () => {
  let stack: Stack;
  let workDir: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'demo-host-'));
    stack = await startStack({ host: ADDRESS, devCredentials: join(workDir, 'dev.json') });
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('names the address in every URL it hands out and listens there only', async () => {
    expect(stack.address).toBe(ADDRESS);
    const urls = [
      stack.url,
      stack.config.tokenUrl,
      stack.config.relayUrl,
      ...Object.values(stack.config.ingress),
      ...Object.values(stack.consoles),
    ];
    for (const url of urls) expect(new URL(url).hostname).toBe(ADDRESS);
    for (const port of Object.values(stack.ports)) {
      expect(await listening(ADDRESS, port)).toBe(true);
      expect(await listening('127.0.0.1', port)).toBe(false);
    }
  });

  it('serves the page, a token and a speaking session to a client that knows only the address', {
    timeout: 60_000,
  }, async () => {
    expect((await fetch(stack.url)).status).toBe(200);
    const config = (await (await fetch(`${stack.url}demo-config.json`)).json()) as { tokenUrl: string };
    expect(new URL(config.tokenUrl).hostname).toBe(ADDRESS);

    const { pcm, sampleRate } = await readWav(join(REPO_ROOT, 'apps/demo/dist/samples/hello.wav'));
    let frames = 0;
    let ended: () => void;
    const done = new Promise<void>((ok) => {
      ended = ok;
    });
    const session = new AvatarSession({
      avatarId: 'mika',
      appId: stack.appId,
      // What the phone app does: a token from the token server per connection.
      sessionToken: async () => {
        const response = await fetch(config.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { sessionToken: string }).sessionToken;
      },
      consoleUrl: stack.consoles.primary,
      ingressUrl: stack.config.ingress['ap-northeast']!,
      backupRegion: null,
      sampleRate,
      onFrames: (_encoded, isLast) => {
        frames++;
        if (isLast) ended();
      },
    });
    try {
      await session.start();
      const chunk = Math.round(sampleRate / 10);
      for (let i = 0; i < pcm.length; i += chunk) {
        session.sendAudio(pcm.subarray(i, i + chunk), i + chunk >= pcm.length);
      }
      await done;
    } finally {
      await session.close();
    }
    // 5.5 s of speech at 25 fps comes back as many animation messages; one is not a session.
    console.log(
      `stack on ${ADDRESS}: ${frames} animation messages for ${(pcm.length / sampleRate).toFixed(1)} s`,
    );
    expect(frames).toBeGreaterThan(10);
  });
});
