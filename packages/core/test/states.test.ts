import { describe, expect, it } from 'vitest';
import {
  AvatarError,
  CONNECTION_STATES,
  CONNECTION_TRANSITIONS,
  CONVERSATION_STATES,
  CONVERSATION_TRANSITIONS,
  type ConnectionState,
  type ConnectionTrigger,
  createConnectionMachine,
  createConversationMachine,
  StateMachine,
} from '../src/index.js';

describe('connection transitions', () => {
  it('follow docs/architecture.md (States)', () => {
    const m = createConnectionMachine();
    expect(m.state).toBe('disconnected');
    expect(m.apply('start')).toBe('connecting');
    expect(m.apply('open')).toBe('connected');
    expect(m.apply('close')).toBe('disconnected');
    m.apply('start');
    expect(m.apply('error')).toBe('failed');
    expect(m.apply('retry')).toBe('connecting');
    expect(m.apply('error')).toBe('failed');
    expect(m.apply('close')).toBe('disconnected');
  });

  it('allow close() from every state', () => {
    for (const state of CONNECTION_STATES) expect(CONNECTION_TRANSITIONS[state].close).toBe('disconnected');
  });

  it('reject illegal triggers naming from, trigger and "no transition"', () => {
    const m = createConnectionMachine();
    let caught: unknown;
    try {
      m.apply('open');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AvatarError);
    expect((caught as AvatarError).code).toBe('invalidState');
    expect((caught as AvatarError).message).toMatch(/"open".*"disconnected".*no transition/);
    expect((caught as AvatarError).details).toEqual({ from: 'disconnected', trigger: 'open' });
    expect(m.state).toBe('disconnected');
    expect(m.can('open')).toBe(false);
    expect(m.can('start')).toBe(true);
  });

  it('transition() checks the target and names from, to and trigger', () => {
    const m = createConnectionMachine();
    expect(() => m.transition('connected', 'start')).toThrow(
      /from "disconnected" to "connected" on "start".*leads to "connecting"/,
    );
    expect(() => m.transition('connected', 'open')).toThrow(/no transition/);
    expect(m.transition('connecting', 'start')).toBe('connecting');
  });
});

describe('conversation transitions', () => {
  it('follow docs/architecture.md (States)', () => {
    const m = createConversationMachine();
    expect(m.state).toBe('idle');
    expect(m.apply('chunk')).toBe('playing');
    expect(m.apply('chunk')).toBe('playing');
    expect(m.apply('pause')).toBe('paused');
    expect(m.apply('chunk')).toBe('paused');
    expect(m.apply('resume')).toBe('playing');
    expect(m.apply('finished')).toBe('idle');
    m.apply('chunk');
    expect(m.apply('interrupt')).toBe('idle');
    m.apply('chunk');
    m.apply('pause');
    expect(m.apply('interrupt')).toBe('idle');
  });

  it('reject pause when idle, resume when playing, finished when paused', () => {
    const m = createConversationMachine();
    expect(() => m.apply('pause')).toThrow(AvatarError);
    m.apply('chunk');
    expect(() => m.apply('resume')).toThrow(/no transition/);
    m.apply('pause');
    expect(() => m.apply('finished')).toThrow(/Allowed here: chunk → paused, resume → playing/);
  });

  it('reset to idle from every state', () => {
    for (const state of CONVERSATION_STATES) expect(CONVERSATION_TRANSITIONS[state].reset).toBe('idle');
  });
});

describe('StateMachine', () => {
  it('notifies listeners in order and never re-entrantly', () => {
    const m = createConnectionMachine();
    const log: string[] = [];
    let depth = 0;
    m.onChange((to, from, trigger) => {
      depth++;
      expect(depth).toBe(1);
      log.push(`${from}-${trigger}->${to}`);
      if (to === 'connecting') m.apply('open'); // nested apply: state moves now, notification later
      expect(m.state).toBe(to === 'connecting' ? 'connected' : m.state);
      depth--;
    });
    m.apply('start');
    expect(log).toEqual(['disconnected-start->connecting', 'connecting-open->connected']);
    expect(m.state).toBe('connected');
  });

  it('unsubscribes', () => {
    const m = createConversationMachine();
    let calls = 0;
    const off = m.onChange(() => calls++);
    m.apply('chunk');
    off();
    m.apply('finished');
    expect(calls).toBe(1);
  });

  it('recovers from a throwing listener', () => {
    const m = createConversationMachine();
    const off = m.onChange(() => {
      throw new Error('listener bug');
    });
    expect(() => m.apply('chunk')).toThrow('listener bug');
    off();
    const seen: string[] = [];
    m.onChange((to) => seen.push(to));
    m.apply('pause');
    expect(seen).toEqual(['paused']);
  });

  it('rejects an initial state missing from the table, and unknown triggers', () => {
    expect(
      () =>
        new StateMachine<ConnectionState, ConnectionTrigger>(
          CONNECTION_TRANSITIONS,
          'nope' as ConnectionState,
        ),
    ).toThrow(AvatarError);
    const m = createConnectionMachine();
    expect(m.can('toString' as ConnectionTrigger)).toBe(false);
    expect(() => m.apply('constructor' as ConnectionTrigger)).toThrow(AvatarError);
    expect(m.allowedTriggers()).toEqual(['start', 'close']);
  });
});
