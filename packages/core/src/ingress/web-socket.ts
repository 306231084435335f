/**
 * The WebSocket the ingress handshake runs over, as small as every runtime can offer it: the
 * browser's and React Native's WebSocket fit it as they are, Node's `ws` through an adapter.
 * Core has no DOM or Node types, so the events are typed by what the handshake reads.
 */

/** The subset of the WHATWG WebSocket the ingress handshake uses (browsers, React Native, `ws`). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  /** `data`: an ArrayBuffer or Uint8Array for a binary frame, a string for a text frame. */
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  /**
   * The event may carry `message` (the platform's text, which may name an HTTP status) and an
   * adapter that sees the refused upgrade's answer puts it in `refusal` ({@link UpgradeRefusal}).
   */
  onerror: ((event: unknown) => void) | null;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
}

/** Creates a WebSocket for a URL. */
export type WebSocketFactory<S extends WebSocketLike = WebSocketLike> = (url: string) => S;

/** `readyState` values (WHATWG). */
export const WebSocketReadyState = {
  CONNECTING: 0,
  OPEN: 1,
  CLOSING: 2,
  CLOSED: 3,
} as const;
