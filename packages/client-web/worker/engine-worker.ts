/**
 * The engine worker: `@avatar-drive/engine`'s driver off the page's main thread. Bundled on its
 * own at build time by scripts/build-worker.mjs (engine and weights inside: the published package
 * carries them in that script, so the engine is a build-time dependency) and started from that
 * text by src/local/worker-engine.ts; never imported by the package entry.
 *
 * It treats a session's audio the way the service's ingress does (apps/service utterance-feed
 * and drive-session), so the frames are the service's bit for bit: one driver per session with
 * the service's defaults, `end` flushes the utterance (adaptation carries over), a new utterance
 * while one is open, or a cancel of the open one, resets the driver.
 */
import { isAvatarError, packDriveFrames } from '@avatar-drive/core';
import { createDriver, type Driver } from '@avatar-drive/engine';
import type { FromEngineWorker, ToEngineWorker } from '../src/local/worker-protocol.js';

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToEngineWorker>) => void) | null;
  postMessage(message: FromEngineWorker, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
let driver: Driver | undefined;
/** The utterance whose audio has not ended yet. */
let openId: string | undefined;

function handle(message: ToEngineWorker): void {
  switch (message.op) {
    case 'open': {
      // A re-open replaces the driver: free the old one's WebAssembly slot now.
      driver?.close();
      driver = createDriver({
        sampleRate: message.sampleRate,
        ...(message.lookaheadMs !== undefined && { lookaheadMs: message.lookaheadMs }),
        ...(message.seed !== undefined && { seed: message.seed }),
      });
      openId = undefined;
      scope.postMessage({ op: 'ready' });
      return;
    }
    case 'push': {
      if (!driver) throw new Error('push before open');
      if (openId !== undefined && openId !== message.id) driver.reset(); // preempted
      openId = message.end ? undefined : message.id;
      const frames = message.pcm.length > 0 ? driver.push(message.pcm) : [];
      if (message.end) frames.push(...driver.end());
      if (frames.length === 0 && !message.end) return;
      const data = packDriveFrames(frames);
      scope.postMessage({ op: 'frames', id: message.id, data, end: message.end }, [data.buffer]);
      return;
    }
    case 'cancel': {
      if (driver && openId === message.id) {
        driver.reset();
        openId = undefined;
      }
      return;
    }
  }
}

scope.onmessage = (event) => {
  try {
    handle(event.data);
  } catch (error) {
    driver = undefined;
    scope.postMessage({
      op: 'failed',
      code: isAvatarError(error) ? error.code : 'upstreamError',
      message: `The on-device engine failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
};
