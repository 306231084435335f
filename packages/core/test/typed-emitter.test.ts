import { describe, expect, it } from 'vitest';
import { TypedEmitter } from '../src/typed-emitter.js';

type Events = {
  value: (n: number, label: string) => void;
  done: () => void;
};

class Source extends TypedEmitter<Events> {
  fire<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): boolean {
    return this.emit(event, ...args);
  }
}

/** An emitter for app listeners: contains what they throw. */
class Contained extends Source {
  readonly caught: string[] = [];
  protected override callListener<E extends keyof Events>(
    event: E,
    listener: Events[E],
    args: Parameters<Events[E]>,
  ): void {
    try {
      (listener as (...a: unknown[]) => void)(...args);
    } catch (error) {
      this.caught.push(`${String(event)}: ${(error as Error).message}`);
    }
  }
}

describe('TypedEmitter', () => {
  it('calls listeners in the order they were added; once runs once; off removes', () => {
    const source = new Source();
    const seen: string[] = [];
    const second = (n: number) => seen.push(`second ${n}`);
    source
      .on('value', (n, label) => seen.push(`first ${n} ${label}`))
      .on('value', second)
      .once('value', (n) => seen.push(`once ${n}`));
    expect(source.fire('value', 1, 'a')).toBe(true);
    source.off('value', second);
    source.fire('value', 2, 'b');
    expect(source.fire('done')).toBe(false);
    expect(seen).toEqual(['first 1 a', 'second 1', 'once 1', 'first 2 b']);
  });

  it("passes a listener's error to the emitter's caller, unless callListener contains it", () => {
    const source = new Source();
    const after: number[] = [];
    source.on('value', () => {
      throw new Error('listener failed');
    });
    source.on('value', (n) => after.push(n));
    expect(() => source.fire('value', 1, 'x')).toThrow('listener failed');
    expect(after).toEqual([]);
    const contained = new Contained();
    contained.on('value', () => {
      throw new Error('app bug');
    });
    contained.on('value', (n) => after.push(n));
    expect(contained.fire('value', 2, 'y')).toBe(true);
    expect(after).toEqual([2]);
    expect(contained.caught).toEqual(['value: app bug']);
  });
});
