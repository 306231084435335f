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
    const timed = (run: () => EngineResult['frames']): Promise<EngineResult> => {
      const start = performance.now();
      try {
        const frames = run();
        return Promise.resolve({ frames, cpuMs: performance.now() - start });
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return {
      push: (pcm) => timed(() => driver.push(pcm)),
      end: () => timed(() => driver.end()),
      reset: () => driver.reset(),
      close: () => {},
    };
  }

  ready(): boolean {
    return true;
  }

  async close(): Promise<void> {}
}
