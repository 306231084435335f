/**
 * `ServerError.code` ⇄ {@link AvatarError}. The five close codes keep their contract meaning;
 * errors without a close code get a code of their own in the same scheme (40xx: the request is
 * at fault, do not retry as is; 45xx: retry), so a client can rebuild the right AvatarError.
 */
import { create } from '@bufbuild/protobuf';
import { AvatarError, type AvatarErrorCode, CLOSE_CODES, closeCodeInfo, type ErrorPhase } from '../errors.js';
import {
  type Message,
  type ServerError,
  ServerErrorSchema,
} from '../gen/driveningress/v2/driveningress_pb.js';
import { serverErrorMessage } from './messages.js';

/**
 * The `ServerError.code` for every error code. 4001/4002/4003/4010/4503 are the close codes;
 * the rest are Avatar Drive's own, chosen in the same 40xx/45xx scheme.
 */
export const SERVER_ERROR_CODES: Readonly<Record<AvatarErrorCode, number>> = Object.freeze({
  invalidRequest: 4000,
  creditsExhausted: 4001,
  sessionDurationExceeded: 4002,
  concurrencyLimit: 4003,
  avatarNotFound: 4004,
  protocolError: 4005,
  unsupportedSampleRate: 4006,
  invalidAudio: 4007,
  invalidEgressConfig: 4008,
  idleTimeout: 4009,
  sessionTokenInvalid: 4010,
  sessionTokenExpired: 4010,
  appIDUnrecognized: 4010,
  appIDMismatch: 4010,
  invalidState: 4011,
  notInitialized: 4011,
  serverError: 4500,
  unknown: 4500,
  connectionFailed: 4500,
  connectionClosed: 4500,
  assetDownloadFailed: 4500,
  egressUnavailable: 4502,
  upstreamError: 4503,
});

/** The AvatarError code a received `ServerError.code` stands for (close codes per `CLOSE_CODES`). */
const CODE_BY_NUMBER: ReadonlyMap<number, AvatarErrorCode> = new Map<number, AvatarErrorCode>([
  [4000, 'invalidRequest'],
  [4004, 'avatarNotFound'],
  [4005, 'protocolError'],
  [4006, 'unsupportedSampleRate'],
  [4007, 'invalidAudio'],
  [4008, 'invalidEgressConfig'],
  [4009, 'idleTimeout'],
  [4011, 'invalidState'],
  [4500, 'serverError'],
  [4502, 'egressUnavailable'],
  ...Object.values(CLOSE_CODES).map((info) => [info.code, info.errorCode] as [number, AvatarErrorCode]),
]);

/** The `ServerError.code` to send for `error`: its `closeCode` when set, else its code's number. */
export function serverErrorCodeFor(error: AvatarError): number {
  // Only contract close codes travel as-is; 1006 and friends are transport events, not errors to send.
  if (error.closeCode !== undefined && closeCodeInfo(error.closeCode)) return error.closeCode;
  return SERVER_ERROR_CODES[error.code] ?? SERVER_ERROR_CODES.serverError;
}

/** Which connection and request a `ServerError` is about. */
export interface ServerErrorContext {
  connectionId?: string;
  reqId?: string;
}

/** Converts an AvatarError to a `ServerError` (message kept, never a stack or cause). */
export function avatarErrorToServerError(error: AvatarError, context: ServerErrorContext = {}): ServerError {
  return create(ServerErrorSchema, {
    connectionId: context.connectionId ?? '',
    reqId: context.reqId ?? '',
    code: serverErrorCodeFor(error),
    message: error.message,
  });
}

/** A ready-to-encode `Message` carrying `error` as a `ServerError`. */
export function serverErrorMessageFromAvatarError(
  error: AvatarError,
  context: ServerErrorContext = {},
): Message {
  const value = avatarErrorToServerError(error, context);
  return serverErrorMessage({
    connectionId: value.connectionId,
    reqId: value.reqId,
    code: value.code,
    message: value.message,
  });
}

/**
 * Rebuilds the AvatarError a received `ServerError` reports. Close codes set `closeCode` and
 * take their retry meaning from `CLOSE_CODES`; other 45xx codes are retryable, 40xx are not;
 * codes outside the scheme become `serverError`.
 */
export function serverErrorToAvatarError(serverError: ServerError, phase?: ErrorPhase): AvatarError {
  const code = serverError.code;
  const close = closeCodeInfo(code);
  const errorCode = CODE_BY_NUMBER.get(code) ?? 'serverError';
  const retryable = close ? close.retryable : code >= 4500 && code < 5000;
  const message =
    serverError.message || close?.meaning || `The server reported error ${code} without a message.`;
  return new AvatarError(errorCode, message, {
    retryable,
    ...(close && { closeCode: code }),
    ...(phase !== undefined && { phase }),
    details: {
      serverCode: code,
      ...(serverError.connectionId && { connectionId: serverError.connectionId }),
      ...(serverError.reqId && { reqId: serverError.reqId }),
    },
  });
}
