import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/event-queue.js';

describe('EventQueue', () => {
  it('delivers in order and never nests a callback inside another', () => {
    const q = new EventQueue();
    const log: string[] = [];
    let depth = 0;
    const deliver = (name: string, then?: () => void) => () => {
      depth += 1;
      log.push(`${name}@${depth}`);
      then?.();
      depth -= 1;
    };
    q.push(deliver('a', () => q.push(deliver('c', () => q.push(deliver('d'))))));
    q.push(deliver('b'));
    expect(log).toEqual(['a@1', 'c@1', 'd@1', 'b@1']);
  });

  it('keeps going when a callback throws', () => {
    const q = new EventQueue();
    const log: string[] = [];
    const original = console.error;
    console.error = () => {};
    try {
      q.push(() => {
        q.push(() => log.push('after'));
        throw new Error('app bug');
      });
    } finally {
      console.error = original;
    }
    expect(log).toEqual(['after']);
  });
});
