/** Messages between the engine pool and its worker threads. */
import type { DriverOptions } from './engine-pool.js';

export interface WorkerSetup {
  driverModule: string;
  driverExport: string;
  driverOptions: Omit<DriverOptions, 'sampleRate'>;
}

export type WorkerRequest =
  | { op: 'open'; channel: number; sampleRate: number }
  | { op: 'close'; channel: number }
  | { op: 'reset'; channel: number }
  | { op: 'push'; channel: number; id: number; pcm: Int16Array }
  | { op: 'end'; channel: number; id: number };

export type WorkerReply =
  | { id: number; packed: Float32Array; cpuMs: number; error?: undefined }
  | { id: number; error: string };
