/**
 * Who is on the other end. Every per-client decision of the service (connection caps, logs of
 * refused requests) asks here, so that trusting a proxy's forwarded address is a change to this
 * module only.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** The TCP peer of `socket` (before any request arrives, this is all there is to go on). */
export function peerAddress(socket: Pick<Socket, 'remoteAddress'>): string {
  return socket.remoteAddress ?? 'unknown';
}

/** The client address of `req`: today its TCP peer. */
export function clientAddress(req: IncomingMessage): string {
  return peerAddress(req.socket);
}
