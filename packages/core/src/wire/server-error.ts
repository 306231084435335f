/**
 * `ServerError.code` ⇄ {@link AvatarError}. The five close codes keep their contract meaning;
 * errors without a close code get a code of their own in the same scheme (40xx: the request is
 * at fault, do not retry as is; 45xx: retry), so a client can rebuild the right AvatarError.
 */
import { create } from '@bufbuild/protobuf';
import { closeCodeInfo, errorCodeForServerCode, SERVER_ERROR_CODES } from '../close-codes.js';
import { AvatarError, type ErrorPhase } from '../errors.js';
import {
  type Message,
  type ServerError,
  ServerErrorSchema,
} from '../gen/driveningress/v2/driveningress_pb.js';
import { serverErrorMessage } from './messages.js';

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
 * take their retry meaning from `CLOSE_CODE_TABLE`; other 45xx codes are retryable, 40xx are not;
 * codes outside the scheme become `serverError`.
 */
export function serverErrorToAvatarError(serverError: ServerError, phase?: ErrorPhase): AvatarError {
  const code = serverError.code;
  const close = closeCodeInfo(code);
  const errorCode = errorCodeForServerCode(code) ?? 'serverError';
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
