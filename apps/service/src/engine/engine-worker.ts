/**
 * Worker thread of the engine pool: holds the drivers of the sessions pinned to it and answers
 * push/end calls with packed frames, in the order the calls arrive.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { type DriveDriver, loadDriverFactory, packFrames } from './engine-pool.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './worker-protocol.js';

const setup = workerData as WorkerSetup;
const factory = await loadDriverFactory(setup.driverModule, setup.driverExport);
const drivers = new Map<number, DriveDriver>();
const port = parentPort!;

port.on('message', (message: WorkerRequest) => {
  switch (message.op) {
    case 'open':
      drivers.set(message.channel, factory({ ...setup.driverOptions, sampleRate: message.sampleRate }));
      return;
    case 'close':
      drivers.delete(message.channel);
      return;
    case 'reset':
      drivers.get(message.channel)?.reset();
      return;
    case 'push':
    case 'end': {
      const driver = drivers.get(message.channel);
      let reply: WorkerReply;
      if (!driver) {
        reply = { id: message.id, error: `engine channel ${message.channel} is not open` };
      } else {
        try {
          const start = performance.now();
          const frames = message.op === 'push' ? driver.push(message.pcm) : driver.end();
          const packed = packFrames(frames);
          reply = { id: message.id, packed, cpuMs: performance.now() - start };
          port.postMessage(reply, [packed.buffer as ArrayBuffer]);
          return;
        } catch (error) {
          reply = { id: message.id, error: (error as Error).message };
        }
      }
      port.postMessage(reply);
      return;
    }
  }
});
port.postMessage({ ready: true });
