/** Per-deployment limits, all configurable (env/flags, see README), with defaults. */
export interface ServiceLimits {
  /** Concurrent ingress sessions per app across all nodes (close 4003 past it). */
  maxConcurrentSessionsPerApp: number;
  /** Longest a session may last (close 4002). */
  maxSessionMs: number;
  /** Close a session that sent nothing for this long. */
  idleTimeoutMs: number;
  /** Largest WebSocket message accepted (ServerError + close 1009 past it). */
  maxMessageBytes: number;
  /** Output buffered for a slow reader before the session stops reading its input. */
  maxOutputBufferBytes: number;
  /** Close a session whose reader stayed too slow for this long. */
  slowReaderTimeoutMs: number;
  /** A held pause longer than this interrupts the request (reason pause_timeout). */
  pauseTimeoutMs: number;
  /** WebSocket ping interval; a peer that misses one pong is dropped. */
  pingIntervalMs: number;
  /** Session tokens per app per window. */
  tokenRateLimit: number;
  tokenRateWindowMs: number;
}

export const DEFAULT_LIMITS: ServiceLimits = {
  maxConcurrentSessionsPerApp: 500,
  maxSessionMs: 60 * 60_000,
  idleTimeoutMs: 120_000,
  maxMessageBytes: 256 * 1024,
  maxOutputBufferBytes: 1024 * 1024,
  slowReaderTimeoutMs: 30_000,
  pauseTimeoutMs: 120_000,
  pingIntervalMs: 30_000,
  tokenRateLimit: 600,
  tokenRateWindowMs: 60_000,
};
