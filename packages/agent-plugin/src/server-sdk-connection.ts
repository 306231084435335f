/**
 * Adapts an RTC-mode `AvatarSession` of `@avatar-drive/server-sdk` (started, with LiveKit egress
 * options) to the plugin's {@link DrivingConnection}. The session numbers its own requests, so
 * the plugin's request ids are mapped onto the ids `sendAudio` returns.
 */
import { EventEmitter } from 'node:events';
import type { AvatarSession } from '@avatar-drive/server-sdk';
import type { DrivingConnection } from './connection.js';

/**
 * The part of server-sdk's `AvatarSession` the adapter uses: imported (type only; server-sdk is an
 * optional peer), so the compiler checks that the adapter and the session agree. `startTurn` is
 * optional: server-sdk drops the rest of an interrupted turn until it is called.
 */
export type RtcAvatarSessionLike = Pick<
  AvatarSession,
  'sendAudio' | 'interrupt' | 'close' | 'onPlaybackState' | 'onError' | 'onClose'
> &
  Partial<Pick<AvatarSession, 'startTurn'>>;

/**
 * Wraps a started RTC-mode session. Its `onPlaybackState`, `onError` and `onClose` callbacks
 * are taken over (retryable errors are left to the session's own reconnect; the session closing
 * with an error is reported as `error`).
 */
export function drivingConnectionFromAvatarSession(session: RtcAvatarSessionLike): DrivingConnection {
  const events = new EventEmitter();
  const theirs = new Map<string, string>(); // session request id → plugin request id
  const ours = new Map<string, string>(); // plugin request id → session request id
  session.onPlaybackState = ({ reqId, state, playedMs }) => {
    const id = theirs.get(reqId);
    if (id === undefined) return;
    if (state === 'playing') events.emit('playing', { reqId: id });
    else if (state === 'ended' || state === 'interrupted') {
      events.emit(state, { reqId: id, playedMs });
      theirs.delete(reqId);
      ours.delete(id);
    }
  };
  session.onClose = (event) => {
    if (event.error) events.emit('error', event.error);
  };
  session.onError = (error) => {
    if (!error.retryable) events.emit('error', error);
  };
  const connection: DrivingConnection = {
    sendAudio(pcm, reqId, end) {
      // Segments arrive one after another, each ended (flush) or interrupted before the next:
      // a segment's first chunk is a new turn (after an interrupt the session drops input until then).
      if (!ours.has(reqId)) session.startTurn?.();
      const id = session.sendAudio(pcm, end);
      ours.set(reqId, id);
      theirs.set(id, reqId);
    },
    interrupt(reqId) {
      const id = ours.get(reqId);
      if (id === undefined) return;
      // server-sdk interrupts the latest request, which is the one speaking.
      session.interrupt();
    },
    close: async () => {
      await session.close();
    },
    on(event, listener) {
      events.on(event, listener as (...args: unknown[]) => void);
      return connection;
    },
    off(event, listener) {
      events.off(event, listener as (...args: unknown[]) => void);
      return connection;
    },
  };
  return connection;
}
