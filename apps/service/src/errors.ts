/**
 * How the service reports errors: HTTP bodies `{errors: [{status, code, title, detail}]}` and the
 * mapping from {@link AvatarError} codes to HTTP statuses and titles.
 */
import { AvatarError, type AvatarErrorCode } from '@avatar-drive/core';

/** One entry of an HTTP error body. */
export interface HttpErrorEntry {
  status: number;
  code: AvatarErrorCode;
  title: string;
  detail: string;
  /** Avatar file refusals: which kind (an AvatarFileProblem of @avatar-drive/core). */
  problem?: string;
}

/** The HTTP error body every console and upgrade rejection uses. */
export interface HttpErrorBody {
  errors: HttpErrorEntry[];
}

/**
 * Existing driveningress.v2 SDKs classify refusals by phrases in these titles and details
 * ("Invalid session token", "app id mismatch", "unsupported sample rate"): keep the phrases
 * (test/refusal-texts.test.ts pins every refusal's status, code and text).
 */
const TITLES: Partial<Record<AvatarErrorCode, string>> = {
  sessionTokenExpired: 'Session token expired',
  sessionTokenInvalid: 'Invalid session token',
  appIDUnrecognized: 'App ID or API key not recognized',
  appIDMismatch: 'App id mismatch',
  avatarNotFound: 'Avatar not found',
  avatarInvalid: 'Avatar file refused',
  avatarTooLarge: 'Avatar file too large',
  concurrencyLimit: 'Too many requests',
  invalidRequest: 'Invalid request',
  upstreamError: 'Upstream unavailable',
  serverError: 'Internal server error',
};

/** A short human title for an error code. */
export function titleFor(code: AvatarErrorCode): string {
  return TITLES[code] ?? code;
}

/** Builds the JSON error body for one error. */
export function errorBody(
  status: number,
  code: AvatarErrorCode,
  detail: string,
  problem?: string,
): HttpErrorBody {
  return { errors: [{ status, code, title: titleFor(code), detail, ...(problem && { problem }) }] };
}

/** An AvatarError that also carries the HTTP status to answer with. */
export function httpError(
  status: number,
  code: AvatarErrorCode,
  detail: string,
  headers?: Record<string, string>,
): AvatarError {
  return new AvatarError(code, detail, { httpStatus: status, ...(headers && { details: { headers } }) });
}

/** JSON schema of {@link HttpErrorBody}, shared by every route's response schema. */
export const errorBodySchema = {
  $id: 'ErrorBody',
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['status', 'code', 'title', 'detail'],
        properties: {
          status: { type: 'integer' },
          code: { type: 'string' },
          title: { type: 'string' },
          detail: { type: 'string' },
          problem: {
            type: 'string',
            description:
              'Avatar file refusals (avatarInvalid, avatarTooLarge): which kind (AVATAR_FILE_PROBLEMS).',
          },
        },
      },
    },
  },
} as const;
