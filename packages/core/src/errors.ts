/**
 * Typed errors shared by every Avatar Drive package.
 *
 * Every failure a user can hit ends in an {@link AvatarError} whose `code` is one of
 * {@link AVATAR_ERROR_CODES} and whose message says what to do next.
 */
import { closeCodeInfo, isRetryableCloseCode } from './close-codes.js';

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
  'avatarInvalid',
  'avatarTooLarge',
  'unknown',
] as const;

export type AvatarErrorCode = (typeof AVATAR_ERROR_CODES)[number];

/** Where in a session's life an error happened. */
export type ErrorPhase = 'initialize' | 'load' | 'connect' | 'configure' | 'stream' | 'playback' | 'close';

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
