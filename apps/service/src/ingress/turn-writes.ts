/**
 * Socket writes held to the end of the event-loop turn: the first write of a turn to a socket corks
 * it, and one `setImmediate` for all sockets uncorks them after the poll phase — each socket then
 * gets one `writev` for everything it was sent in the turn (an animation message beside a playback
 * state, or the frames of several audio chunks read at once when the loop runs behind), instead of
 * one syscall per message. It also keeps the turn's kernel work (on loopback a write runs the
 * receiver's TCP path too) out from between the engine calls of the sessions read in that turn, so
 * the engine's shared tables stay in cache from one session to the next. A message waits at most
 * for the rest of the turn it was produced in, well inside a 40 ms frame.
 */
import type { Socket } from 'node:net';

const corked: Socket[] = [];
const marked = new WeakSet<Socket>();
let scheduled = false;

function uncorkAll(): void {
  scheduled = false;
  // Sockets corked while these are flushed (a write callback that writes again) wait for the next turn.
  const sockets = corked.splice(0);
  for (const socket of sockets) {
    marked.delete(socket);
    socket.uncork();
  }
}

/** Corks `socket` until the end of this turn (no-op when this turn already did). Call before writing. */
export function holdForTurn(socket: Socket): void {
  if (marked.has(socket)) return;
  marked.add(socket);
  socket.cork();
  corked.push(socket);
  if (!scheduled) {
    scheduled = true;
    setImmediate(uncorkAll);
  }
}

/** Writes what `socket` holds now (the session ended, or is about to close). */
export function releaseNow(socket: Socket): void {
  if (!marked.delete(socket)) return;
  const i = corked.indexOf(socket);
  if (i >= 0) corked.splice(i, 1);
  socket.uncork();
}
