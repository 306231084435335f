import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARKIT_BLENDSHAPES, VISEMES } from '@avatar-drive/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buzz, wavBytes } from './helpers.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'engine-cli-'));

function runCli(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function file(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

// Each case starts Node processes; on a loaded machine that takes a few seconds.
describe('avatar-drive lipsync', { timeout: 60_000 }, () => {
  beforeAll(() => {
    if (!existsSync(cli))
      throw new Error(`${cli} is missing: run \`pnpm --filter @avatar-drive/engine build\` first.`);
  });

  it('writes one JSON line per 25 fps frame, in order', () => {
    const pcm = buzz(16000, 1.01, 1);
    const { code, stdout, stderr } = runCli('lipsync', file('mono16k.wav', wavBytes(pcm, 16000)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBe(Math.ceil((pcm.length * 25) / 16000));
    lines.forEach((line, i) => {
      const record = JSON.parse(line) as {
        t_ms: number;
        visemes: Record<string, number>;
        blendshapes: Record<string, number>;
        head: Record<string, number>;
      };
      expect(Object.keys(record)).toEqual(['t_ms', 'visemes', 'blendshapes', 'head']);
      expect(record.t_ms).toBe(40 * i);
      expect(Object.keys(record.visemes)).toEqual([...VISEMES]);
      expect(Object.keys(record.blendshapes)).toEqual([...ARKIT_BLENDSHAPES]);
      expect(Object.keys(record.head)).toEqual(['pitch', 'yaw', 'roll']);
    });
  });

  it('writes CSV with a header row', () => {
    const pcm = buzz(24000, 0.5, 2);
    const { code, stdout } = runCli(
      'lipsync',
      file('mono24k.wav', wavBytes(pcm, 24000)),
      '--format',
      'csv',
      '--lookahead',
      '0',
    );
    expect(code).toBe(0);
    const rows = stdout.trim().split('\n');
    const header = rows[0]!.split(',');
    expect(header.length).toBe(1 + 15 + 52 + 3);
    expect(header[0]).toBe('t_ms');
    expect(rows.length - 1).toBe(Math.ceil((pcm.length * 25) / 24000));
    for (const row of rows.slice(1)) expect(row.split(',').length).toBe(header.length);
  });

  it('mixes multi-channel audio down with a note', () => {
    const mono = buzz(44100, 0.6, 3);
    const stereo = new Int16Array(mono.length * 2);
    for (let i = 0; i < mono.length; i++) {
      stereo[2 * i] = mono[i]!;
      stereo[2 * i + 1] = mono[i]! >> 1;
    }
    const { code, stdout, stderr } = runCli('lipsync', file('stereo.wav', wavBytes(stereo, 44100, 2)));
    expect(code).toBe(0);
    expect(stderr).toMatch(/2 channels.*mix/);
    expect(stdout.trim().split('\n').length).toBe(Math.ceil((mono.length * 25) / 44100));
  });

  it('resamples a rate outside the supported 7, with a note', () => {
    const pcm = buzz(11025, 0.5, 4);
    const { code, stdout, stderr } = runCli('lipsync', file('11k.wav', wavBytes(pcm, 11025)));
    expect(code).toBe(0);
    expect(stderr).toMatch(/11025 Hz to 16000 Hz/);
    expect(stdout.trim().split('\n').length).toBe(Math.ceil((pcm.length * 25) / 11025));
  });

  it('exits 2 with a message for input that is not a WAV, or an encoding it cannot read', () => {
    const text = runCli('lipsync', file('notes.wav', new TextEncoder().encode('just some text, not audio')));
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^avatar-drive: /);
    expect(text.stdout).toBe('');

    // A µ-law WAV (format tag 7): a header the parser understands, an encoding it does not decode.
    const mulaw = wavBytes(new Int16Array(800), 8000);
    new DataView(mulaw.buffer).setUint16(20, 7, true);
    const encoded = runCli('lipsync', file('mulaw.wav', mulaw));
    expect(encoded.code).toBe(2);
    expect(encoded.stderr).toMatch(/law/i);

    const missing = runCli('lipsync', join(dir, 'does-not-exist.wav'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does-not-exist/);
  });

  it('exits 2 on usage errors and 0 on --help', () => {
    expect(runCli().code).toBe(2);
    expect(runCli('dance', 'x.wav').code).toBe(2);
    expect(runCli('lipsync').code).toBe(2);
    expect(runCli('lipsync', 'x.wav', '--format', 'xml').stderr).toMatch(/jsonl or csv/);
    expect(runCli('lipsync', 'x.wav', '--lookahead', '900').code).toBe(2);
    const help = runCli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/avatar-drive lipsync <file.wav>/);
  });
});
