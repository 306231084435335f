/**
 * The connection state machine of an {@link AvatarSession}. Single-use: `closed` is final.
 *
 * | state        | start      | open      | drop         | fail   | close   | closed |
 * |--------------|------------|-----------|--------------|--------|---------|--------|
 * | idle         | connecting |           |              |        |         | closed |
 * | connecting   |            | connected |              | closed | closing |        |
 * | connected    |            |           | reconnecting | closed | closing |        |
 * | reconnecting |            | connected |              | closed | closing |        |
 * | closing      |            |           |              |        |         | closed |
 * | closed       |            |           |              |        |         |        |
 */
import { StateMachine, type TransitionTable } from '@avatar-drive/core';

/** Where an {@link AvatarSession}'s connection is. */
export type SessionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'closing' | 'closed';
/** What moves it. */
export type SessionTrigger = 'start' | 'open' | 'drop' | 'fail' | 'close' | 'closed';

export const SESSION_TRANSITIONS: TransitionTable<SessionState, SessionTrigger> = Object.freeze({
  idle: { start: 'connecting', closed: 'closed' },
  connecting: { open: 'connected', fail: 'closed', close: 'closing' },
  connected: { drop: 'reconnecting', fail: 'closed', close: 'closing' },
  reconnecting: { open: 'connected', fail: 'closed', close: 'closing' },
  closing: { closed: 'closed' },
  closed: {},
});

export function createSessionMachine(): StateMachine<SessionState, SessionTrigger> {
  return new StateMachine(SESSION_TRANSITIONS, 'idle', 'session');
}
