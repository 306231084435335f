/**
 * The real LiveKit server for the e2e tests: LIVEKIT_URL when scripts/test-all.sh exported it,
 * otherwise the one scripts/livekit.sh runs for this checkout (started here, and stopped
 * afterwards only if it was started here).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    livekitUrl: string;
    livekitApiKey: string;
    livekitApiSecret: string;
  }
}

const repo = fileURLToPath(new URL('../../../..', import.meta.url));

function livekit(command: string): string {
  return execFileSync('bash', ['scripts/livekit.sh', command], { cwd: repo, encoding: 'utf8' }).trim();
}

export default function setup(project: TestProject): () => void {
  const apiKey = process.env.LIVEKIT_API_KEY ?? 'devkey';
  const apiSecret = process.env.LIVEKIT_API_SECRET ?? 'secret';
  if (process.env.LIVEKIT_URL) {
    project.provide('livekitUrl', process.env.LIVEKIT_URL);
    project.provide('livekitApiKey', apiKey);
    project.provide('livekitApiSecret', apiSecret);
    return () => undefined;
  }
  const running = spawnSync('bash', ['scripts/livekit.sh', 'status'], { cwd: repo }).status === 0;
  if (!running) livekit('start');
  project.provide('livekitUrl', livekit('url'));
  project.provide('livekitApiKey', 'devkey');
  project.provide('livekitApiSecret', 'secret');
  return () => {
    if (!running) livekit('stop');
  };
}
