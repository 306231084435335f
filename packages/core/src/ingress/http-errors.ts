/**
 * Turns the service's HTTP error answers (console API and rejected WebSocket upgrades, both
 * `{errors: [{status, code, title, detail}]}`) into typed {@link AvatarError}s.
 */
import { CloseCode } from '../close-codes.js';
import { AVATAR_ERROR_CODES, AvatarError, type AvatarErrorCode, type ErrorPhase } from '../errors.js';

/** One entry of the service's JSON error body. */
export interface ServiceErrorEntry {
  status?: number;
  code?: string;
  title?: string;
  detail?: string;
}

const AUTH_CODES: ReadonlySet<AvatarErrorCode> = new Set<AvatarErrorCode>([
  'sessionTokenExpired',
  'sessionTokenInvalid',
  'appIDUnrecognized',
  'appIDMismatch',
]);

/** The error code a bare HTTP status stands for, when the body names none. */
function codeForStatus(status: number): AvatarErrorCode {
  if (status === 401 || status === 403) return 'sessionTokenInvalid';
  if (status === 404) return 'avatarNotFound';
  if (status === 429) return 'concurrencyLimit';
  if (status === 503 || status === 502 || status === 504) return 'upstreamError';
  if (status >= 500) return 'serverError';
  return 'invalidRequest';
}

/** Reads the first error entry of a body, tolerating anything that is not the documented shape. */
export function firstErrorEntry(body: unknown): ServiceErrorEntry | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const entry = errors[0] as unknown;
  return typeof entry === 'object' && entry !== null ? (entry as ServiceErrorEntry) : undefined;
}

/** Parses a response body as JSON, or `undefined` when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What {@link httpErrorToAvatarError} says about the request that failed. */
export interface HttpErrorContext {
  /** What was being done, e.g. "Minting a session token at http://…". */
  action: string;
  phase: ErrorPhase;
  /** Secrets that must never appear in the message (API key, tokens). */
  secrets?: readonly (string | undefined)[];
  /** The `Retry-After` header, when the server sent one. */
  retryAfter?: string | null;
}

/**
 * The AvatarError for an HTTP error answer: the body's `code` when it is a known code, else one
 * derived from the status; the body's `detail` as the message. Authentication failures carry
 * `closeCode` 4010 (the contract's "fresh token first"); 5xx are retryable, 4xx are not.
 */
export function httpErrorToAvatarError(
  status: number,
  body: unknown,
  context: HttpErrorContext,
): AvatarError {
  const entry = firstErrorEntry(body);
  const named = entry?.code;
  const code: AvatarErrorCode =
    typeof named === 'string' && (AVATAR_ERROR_CODES as readonly string[]).includes(named)
      ? (named as AvatarErrorCode)
      : codeForStatus(status);
  const detail = typeof entry?.detail === 'string' && entry.detail !== '' ? entry.detail : undefined;
  const title = typeof entry?.title === 'string' ? entry.title : undefined;
  const what = detail ?? title ?? `The service answered HTTP ${status} without an error body.`;
  const retryable = status >= 500 || status === 429 ? status !== 501 : false;
  const retryAfterSeconds = parseRetryAfter(context.retryAfter);
  const message = redact(`${context.action} failed (HTTP ${status}, ${code}): ${what}`, context.secrets);
  return new AvatarError(code, message, {
    httpStatus: status,
    // 429 is "wait, then retry": retryable by the caller, never hammered by the SDK.
    retryable: status === 429 ? false : retryable,
    phase: context.phase,
    ...(AUTH_CODES.has(code) && { closeCode: CloseCode.AuthFailed }),
    details: {
      httpStatus: status,
      ...(title !== undefined && { title: redact(title, context.secrets) }),
      ...(detail !== undefined && { detail: redact(detail, context.secrets) }),
      ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    },
  });
}

function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Replaces every occurrence of a secret in `text` (defence in depth: servers should never echo them). */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}
