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
import { AvatarError, StateMachine, type TransitionTable } from '@avatar-drive/core';

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

/** The error for `what` (e.g. `sendAudio()`) called while the session is not connected, saying what to do. */
export function notConnectedError(what: string, state: SessionState): AvatarError {
  const hint =
    state === 'idle'
      ? 'await session.start() first'
      : state === 'connecting' || state === 'reconnecting'
        ? 'wait until onStateChange reports connected'
        : 'the session is closed; create a new AvatarSession';
  return new AvatarError('invalidState', `${what} needs a connected session (it is ${state}): ${hint}.`);
}
