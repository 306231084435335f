/** Runs every session's driver on the event loop: no thread hops, best for light engines. */
import { performance } from 'node:perf_hooks';
import type { DriverFactory, DriverOptions, EngineChannel, EnginePool, EngineResult } from './engine-pool.js';

export class InlineEnginePool implements EnginePool {
  readonly mode = 'inline';
  readonly #factory: DriverFactory;
  readonly #options: Omit<DriverOptions, 'sampleRate'>;

  constructor(factory: DriverFactory, options: Omit<DriverOptions, 'sampleRate'> = {}) {
    this.#factory = factory;
    this.#options = options;
  }

  open(sampleRate: number): EngineChannel {
    const driver = this.#factory({ ...this.#options, sampleRate });
    const now = {
      push: (pcm: Int16Array): EngineResult => {
        const start = performance.now();
        const frames = driver.push(pcm);
        return { frames, cpuMs: performance.now() - start };
      },
      end: (): EngineResult => {
        const start = performance.now();
        const frames = driver.end();
        return { frames, cpuMs: performance.now() - start };
      },
      recycle: driver.recycle?.bind(driver),
    };
    const settle = (run: () => EngineResult): Promise<EngineResult> => {
      try {
        return Promise.resolve(run());
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return {
      now,
      push: (pcm) => settle(() => now.push(pcm)),
      end: () => settle(() => now.end()),
      reset: () => driver.reset(),
      // Frees the driver's slot in the engine's shared WebAssembly memory at once.
      close: () => driver.close?.(),
    };
  }

  ready(): boolean {
    return true;
  }

  async close(): Promise<void> {}
}
