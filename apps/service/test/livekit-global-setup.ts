/**
 * Starts the real LiveKit server (scripts/livekit.sh) unless one is already running for this
 * checkout, hands its URL to the tests, and stops it afterwards only if it started it here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    livekitUrl: string;
  }
}

const repo = fileURLToPath(new URL('../../..', import.meta.url));

function livekit(command: string): string {
  return execFileSync('bash', ['scripts/livekit.sh', command], { cwd: repo, encoding: 'utf8' }).trim();
}

export default function setup(project: TestProject): () => void {
  const running = spawnSync('bash', ['scripts/livekit.sh', 'status'], { cwd: repo }).status === 0;
  if (!running) livekit('start');
  project.provide('livekitUrl', livekit('url'));
  return () => {
    if (!running) livekit('stop');
  };
}
