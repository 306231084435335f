/**
 * Typed errors shared by every Avatar Drive package.
 *
 * Every failure a user can hit ends in an {@link AvatarError} whose `code` is one of
 * {@link AVATAR_ERROR_CODES} and whose message says what to do next.
 */

/** Every error code an Avatar Drive SDK or the service can report. */
export const AVATAR_ERROR_CODES = [
  'sessionTokenExpired',
  'sessionTokenInvalid',
  'appIDUnrecognized',
  'appIDMismatch',
  'avatarNotFound',
  'creditsExhausted',
  'sessionDurationExceeded',
  'concurrencyLimit',
  'unsupportedSampleRate',
  'invalidAudio',
  'invalidEgressConfig',
  'egressUnavailable',
  'idleTimeout',
  'upstreamError',
  'invalidRequest',
  'connectionFailed',
  'connectionClosed',
  'protocolError',
  'serverError',
  'notInitialized',
  'invalidState',
  'assetDownloadFailed',
  'unknown',
] as const;

export type AvatarErrorCode = (typeof AVATAR_ERROR_CODES)[number];

/** Where in a session's life an error happened. */
export type ErrorPhase = 'initialize' | 'load' | 'connect' | 'configure' | 'stream' | 'playback' | 'close';

/** The WebSocket close codes of driveningress.v2 (also sent as `ServerError.code`). */
export const CloseCode = {
  /** Credits or quota exhausted: do not retry. */
  CreditsExhausted: 4001,
  /** Session duration limit reached: a new connection is allowed. */
  SessionDurationExceeded: 4002,
  /** Concurrency limit reached: wait, then retry. */
  ConcurrencyLimit: 4003,
  /** Authentication failed or app mismatch: get a fresh token first. */
  AuthFailed: 4010,
  /** Upstream (engine, shared store, egress) unavailable: retry with backoff. */
  UpstreamUnavailable: 4503,
} as const;

export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** What a client should do after a connection closed with a given code. */
export type RetryPolicy = 'never' | 'reconnect' | 'after-delay' | 'refresh-token' | 'backoff';

export interface CloseCodeInfo {
  readonly code: CloseCode;
  readonly errorCode: AvatarErrorCode;
  /** Whether an SDK may retry on its own. 40xx: the request is at fault; 45xx: retry. */
  readonly retryable: boolean;
  readonly policy: RetryPolicy;
  readonly meaning: string;
}

/** The one table of close codes and their retry meaning. */
export const CLOSE_CODES: Readonly<Record<CloseCode, CloseCodeInfo>> = {
  4001: {
    code: 4001,
    errorCode: 'creditsExhausted',
    retryable: false,
    policy: 'never',
    meaning: 'Credits or quota exhausted; do not retry until the account is topped up.',
  },
  4002: {
    code: 4002,
    errorCode: 'sessionDurationExceeded',
    retryable: false,
    policy: 'reconnect',
    meaning: 'Session duration limit reached; open a new session (with a new token) to continue.',
  },
  4003: {
    code: 4003,
    errorCode: 'concurrencyLimit',
    retryable: false,
    policy: 'after-delay',
    meaning: 'Too many concurrent sessions for this app; wait for one to end, then retry.',
  },
  4010: {
    code: 4010,
    errorCode: 'sessionTokenInvalid',
    retryable: false,
    policy: 'refresh-token',
    meaning: 'Authentication failed or app mismatch; mint a fresh session token before reconnecting.',
  },
  4503: {
    code: 4503,
    errorCode: 'upstreamError',
    retryable: true,
    policy: 'backoff',
    meaning: 'Upstream unavailable; retry with exponential backoff.',
  },
};

/** Looks up a close code; `undefined` for codes outside the table (1000, 1006, …). */
export function closeCodeInfo(code: number): CloseCodeInfo | undefined {
  return (CLOSE_CODES as Record<number, CloseCodeInfo | undefined>)[code];
}

/** True when an SDK may retry a connection closed with `code` on its own (45xx, abnormal closes). */
export function isRetryableCloseCode(code: number): boolean {
  const info = closeCodeInfo(code);
  if (info) return info.retryable;
  if (code >= 4000 && code < 4500) return false;
  if (code >= 4500 && code < 5000) return true;
  // 1006 (abnormal), 1011 (server error), 1012 (restart), 1013 (try again later).
  return code === 1006 || code === 1011 || code === 1012 || code === 1013;
}

export interface AvatarErrorOptions {
  retryable?: boolean;
  closeCode?: number;
  httpStatus?: number;
  phase?: ErrorPhase;
  cause?: unknown;
  /** Structured detail for programs (never secrets). */
  details?: Record<string, unknown>;
}

const DEFAULT_RETRYABLE: ReadonlySet<AvatarErrorCode> = new Set<AvatarErrorCode>([
  'upstreamError',
  'connectionFailed',
  'egressUnavailable',
  'serverError',
]);

/** The one error type of Avatar Drive: a code for programs, a message for people. */
export class AvatarError extends Error {
  override readonly name = 'AvatarError';
  readonly code: AvatarErrorCode;
  readonly retryable: boolean;
  readonly closeCode?: number;
  readonly httpStatus?: number;
  readonly phase?: ErrorPhase;
  readonly details?: Record<string, unknown>;

  constructor(code: AvatarErrorCode, message: string, options: AvatarErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? DEFAULT_RETRYABLE.has(code);
    if (options.closeCode !== undefined) this.closeCode = options.closeCode;
    if (options.httpStatus !== undefined) this.httpStatus = options.httpStatus;
    if (options.phase !== undefined) this.phase = options.phase;
    if (options.details !== undefined) this.details = options.details;
  }

  /** A plain object for logs and JSON (no stack, no cause). */
  toJSON(): {
    code: AvatarErrorCode;
    message: string;
    retryable: boolean;
    closeCode?: number;
    httpStatus?: number;
    phase?: ErrorPhase;
  } {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.closeCode !== undefined && { closeCode: this.closeCode }),
      ...(this.httpStatus !== undefined && { httpStatus: this.httpStatus }),
      ...(this.phase !== undefined && { phase: this.phase }),
    };
  }

  /** Builds the error a client reports when the server closed with `closeCode`. */
  static fromClose(closeCode: number, reason: string, phase?: ErrorPhase): AvatarError {
    const info = closeCodeInfo(closeCode);
    const code: AvatarErrorCode = info?.errorCode ?? 'connectionClosed';
    const message = reason || info?.meaning || `The connection closed with code ${closeCode}.`;
    return new AvatarError(code, message, {
      closeCode,
      retryable: isRetryableCloseCode(closeCode),
      ...(phase !== undefined && { phase }),
    });
  }
}

/** True for any value that is an {@link AvatarError} (also across bundle copies). */
export function isAvatarError(value: unknown): value is AvatarError {
  return (
    value instanceof AvatarError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { name?: unknown }).name === 'AvatarError' &&
      typeof (value as { code?: unknown }).code === 'string')
  );
}
