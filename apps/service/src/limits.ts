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
  /** Audio a session may send, as a multiple of real time ({@link intakeWindowMs} of burst). */
  maxIntakeRealtimeFactor: number;
  /** The window the intake rate is measured over (its burst allowance is factor × window). */
  intakeWindowMs: number;
  /** Input an RTC session may send while its egress opens, before it is refused. */
  maxPendingWhileOpeningBytes: number;
  /** Close a connection whose request headers have not all arrived after this long. */
  headersTimeoutMs: number;
  /** Close a connection whose request (headers and body) has not all arrived after this long. */
  requestTimeoutMs: number;
  /**
   * Avatar uploads instead of {@link requestTimeoutMs}: a progress-based timeout. Each window of
   * this length must bring at least {@link uploadMinBytesPerSecond} × the window of body, so an
   * honest slow upload of any size finishes while a stalled or trickling one is ended.
   */
  uploadProgressWindowMs: number;
  /** The slowest upload rate kept going (see {@link uploadProgressWindowMs}). */
  uploadMinBytesPerSecond: number;
  /** Close a keep-alive connection idle between requests after this long. */
  keepAliveTimeoutMs: number;
  /** Close a connection (not yet a session) that sends and receives nothing for this long. */
  connectionIdleTimeoutMs: number;
  /** Connections one address may hold open before they become sessions; more are closed at once. */
  maxConnectionsPerAddress: number;
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
  maxIntakeRealtimeFactor: 4,
  intakeWindowMs: 10_000,
  maxPendingWhileOpeningBytes: 512 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  uploadProgressWindowMs: 10_000,
  uploadMinBytesPerSecond: 4096,
  keepAliveTimeoutMs: 5_000,
  connectionIdleTimeoutMs: 30_000,
  maxConnectionsPerAddress: 256,
};
