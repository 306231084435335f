/**
 * The one table of WebSocket close codes (and `ServerError.code` numbers) of driveningress.v2.
 *
 * Every number a server closes with, a client closes with, or a `ServerError` carries is a row
 * of {@link CLOSE_CODE_TABLE} and has a name in {@link CloseCode}; code elsewhere uses the names.
 * Five rows are the contract close codes (`contract: true`: 4001, 4002, 4003, 4010, 4503) whose
 * meaning every SDK shares; the other 40xx/45xx rows are Avatar Drive's own codes in the same
 * scheme (40xx: the request is at fault, do not retry as is; 45xx: retry), and the 1xxx rows are
 * the RFC 6455 codes the SDKs and the service use.
 */
import type { AvatarErrorCode } from './errors.js';

/** Every close code by name. */
export const CloseCode = {
  /** RFC 6455: normal closure (the client closed). */
  Normal: 1000,
  /** RFC 6455: the connection dropped without a close frame (never sent, only observed). */
  Abnormal: 1006,
  /** RFC 6455: a message was larger than the receiver accepts. */
  MessageTooBig: 1009,
  /** RFC 6455: the server hit an unexpected condition. */
  InternalError: 1011,
  /** RFC 6455: the server is restarting; reconnect. */
  ServiceRestart: 1012,
  /** RFC 6455: the server is overloaded; try again later. */
  TryAgainLater: 1013,
  /** The request is malformed or names something unknown. */
  InvalidRequest: 4000,
  /** Credits or quota exhausted: do not retry. */
  CreditsExhausted: 4001,
  /** Session duration limit reached: a new connection is allowed. */
  SessionDurationExceeded: 4002,
  /** Concurrency limit reached: wait, then retry. */
  ConcurrencyLimit: 4003,
  /** The avatar id is not known. */
  AvatarNotFound: 4004,
  /** A frame broke driveningress.v2 (also: a client's own protocol timeout). */
  ProtocolError: 4005,
  /** The sample rate is not one of the supported ones. */
  UnsupportedSampleRate: 4006,
  /** The audio cannot be used: not mono PCM s16le in whole samples, or not a decodable Ogg Opus stream. */
  InvalidAudio: 4007,
  /** The egress (RTC) configuration is unusable. */
  InvalidEgressConfig: 4008,
  /** No message for too long. */
  IdleTimeout: 4009,
  /** Authentication failed or app mismatch: get a fresh token first. */
  AuthFailed: 4010,
  /** A call or message arrived in a state that does not allow it. */
  InvalidState: 4011,
  /** The server failed. */
  ServerError: 4500,
  /** The egress (LiveKit, Agora) is unreachable. */
  EgressUnavailable: 4502,
  /** Upstream (engine, shared store, egress) unavailable: retry with backoff. */
  UpstreamUnavailable: 4503,
} as const;

/** A close code from {@link CloseCode}. */
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** The five contract close codes, whose retry meaning every SDK shares. */
export type ContractCloseCode =
  | typeof CloseCode.CreditsExhausted
  | typeof CloseCode.SessionDurationExceeded
  | typeof CloseCode.ConcurrencyLimit
  | typeof CloseCode.AuthFailed
  | typeof CloseCode.UpstreamUnavailable;

/** What a client should do after a connection closed with a given code. */
export type RetryPolicy = 'never' | 'reconnect' | 'after-delay' | 'refresh-token' | 'backoff';

/** One row of {@link CLOSE_CODE_TABLE}. */
export interface CloseCodeInfo<C extends CloseCode = CloseCode> {
  readonly code: C;
  /** Its key in {@link CloseCode}. */
  readonly name: keyof typeof CloseCode;
  /** The AvatarError code a received code stands for (`connectionClosed` for 1xxx). */
  readonly errorCode: AvatarErrorCode;
  /** Further AvatarError codes sent with this number (e.g. every auth failure is 4010). */
  readonly alsoFor: readonly AvatarErrorCode[];
  /** One of the five contract close codes (else Avatar Drive's own or RFC 6455's). */
  readonly contract: boolean;
  /** Whether an SDK may retry on its own. 40xx: the request is at fault; 45xx: retry. */
  readonly retryable: boolean;
  readonly policy: RetryPolicy;
  readonly meaning: string;
}

function row<C extends CloseCode>(
  name: keyof typeof CloseCode & string,
  code: C,
  errorCode: AvatarErrorCode,
  rest: {
    alsoFor?: AvatarErrorCode[];
    contract?: boolean;
    retryable: boolean;
    policy: RetryPolicy;
    meaning: string;
  },
): CloseCodeInfo<C> {
  return Object.freeze({
    code,
    name,
    errorCode,
    alsoFor: Object.freeze(rest.alsoFor ?? []),
    contract: rest.contract ?? false,
    retryable: rest.retryable,
    policy: rest.policy,
    meaning: rest.meaning,
  });
}

const C = CloseCode;

/** The one table: every close code with its error code, retry meaning and what it means. */
export const CLOSE_CODE_TABLE: readonly CloseCodeInfo[] = Object.freeze([
  row('Normal', C.Normal, 'connectionClosed', {
    retryable: false,
    policy: 'never',
    meaning: 'The connection was closed normally.',
  }),
  row('Abnormal', C.Abnormal, 'connectionClosed', {
    retryable: true,
    policy: 'backoff',
    meaning: 'The connection dropped without a close frame; reconnect with backoff.',
  }),
  row('MessageTooBig', C.MessageTooBig, 'connectionClosed', {
    retryable: false,
    policy: 'never',
    meaning: 'A message was larger than the server accepts; send smaller audio chunks.',
  }),
  row('InternalError', C.InternalError, 'connectionClosed', {
    retryable: true,
    policy: 'backoff',
    meaning: 'The server hit an unexpected condition; reconnect with backoff.',
  }),
  row('ServiceRestart', C.ServiceRestart, 'connectionClosed', {
    retryable: true,
    policy: 'backoff',
    meaning: 'The server is restarting; reconnect (to another node or region) with backoff.',
  }),
  row('TryAgainLater', C.TryAgainLater, 'connectionClosed', {
    retryable: true,
    policy: 'backoff',
    meaning: 'The server is overloaded; reconnect with backoff.',
  }),
  row('InvalidRequest', C.InvalidRequest, 'invalidRequest', {
    alsoFor: ['avatarInvalid', 'avatarTooLarge'],
    retryable: false,
    policy: 'never',
    meaning: 'The request is malformed; fix it before sending it again.',
  }),
  row('CreditsExhausted', C.CreditsExhausted, 'creditsExhausted', {
    contract: true,
    retryable: false,
    policy: 'never',
    meaning: 'Credits or quota exhausted; do not retry until the account is topped up.',
  }),
  row('SessionDurationExceeded', C.SessionDurationExceeded, 'sessionDurationExceeded', {
    contract: true,
    retryable: false,
    policy: 'reconnect',
    meaning: 'Session duration limit reached; open a new session (with a new token) to continue.',
  }),
  row('ConcurrencyLimit', C.ConcurrencyLimit, 'concurrencyLimit', {
    contract: true,
    retryable: false,
    policy: 'after-delay',
    meaning: 'Too many concurrent sessions for this app; wait for one to end, then retry.',
  }),
  row('AvatarNotFound', C.AvatarNotFound, 'avatarNotFound', {
    retryable: false,
    policy: 'never',
    meaning: 'The avatar id is not known; list the avatars and use one of their ids.',
  }),
  row('ProtocolError', C.ProtocolError, 'protocolError', {
    retryable: false,
    policy: 'never',
    meaning: 'A frame broke driveningress.v2; check that both ends speak the same protocol.',
  }),
  row('UnsupportedSampleRate', C.UnsupportedSampleRate, 'unsupportedSampleRate', {
    retryable: false,
    policy: 'never',
    meaning: 'The sample rate is not supported; use 8, 16, 22.05, 24, 32, 44.1 or 48 kHz.',
  }),
  row('InvalidAudio', C.InvalidAudio, 'invalidAudio', {
    retryable: false,
    policy: 'never',
    meaning:
      'The audio cannot be used (not mono PCM s16le in whole samples, or not a decodable Ogg Opus stream); fix the audio, then open a new session.',
  }),
  row('InvalidEgressConfig', C.InvalidEgressConfig, 'invalidEgressConfig', {
    retryable: false,
    policy: 'never',
    meaning: 'The egress configuration is unusable; fix it before reconnecting.',
  }),
  row('IdleTimeout', C.IdleTimeout, 'idleTimeout', {
    retryable: false,
    policy: 'reconnect',
    meaning: 'No message for too long; open a new session when there is audio to send.',
  }),
  row('AuthFailed', C.AuthFailed, 'sessionTokenInvalid', {
    alsoFor: ['sessionTokenExpired', 'appIDUnrecognized', 'appIDMismatch'],
    contract: true,
    retryable: false,
    policy: 'refresh-token',
    meaning: 'Authentication failed or app mismatch; mint a fresh session token before reconnecting.',
  }),
  row('InvalidState', C.InvalidState, 'invalidState', {
    alsoFor: ['notInitialized'],
    retryable: false,
    policy: 'never',
    meaning: 'The message arrived in a state that does not allow it.',
  }),
  row('ServerError', C.ServerError, 'serverError', {
    alsoFor: ['unknown', 'connectionFailed', 'connectionClosed', 'assetDownloadFailed'],
    retryable: true,
    policy: 'backoff',
    meaning: 'The server failed; retry with backoff.',
  }),
  row('EgressUnavailable', C.EgressUnavailable, 'egressUnavailable', {
    retryable: true,
    policy: 'backoff',
    meaning: 'The egress (LiveKit, Agora) is unreachable; retry with backoff.',
  }),
  row('UpstreamUnavailable', C.UpstreamUnavailable, 'upstreamError', {
    contract: true,
    retryable: true,
    policy: 'backoff',
    meaning: 'Upstream unavailable; retry with exponential backoff.',
  }),
]);

const BY_CODE: ReadonlyMap<number, CloseCodeInfo> = new Map(
  CLOSE_CODE_TABLE.map((info) => [info.code, info]),
);

/** The five contract close codes, by number (rows of {@link CLOSE_CODE_TABLE}). */
export const CLOSE_CODES: Readonly<Record<ContractCloseCode, CloseCodeInfo<ContractCloseCode>>> =
  Object.freeze(
    Object.fromEntries(CLOSE_CODE_TABLE.filter((info) => info.contract).map((info) => [info.code, info])),
  ) as Record<ContractCloseCode, CloseCodeInfo<ContractCloseCode>>;

/** Looks up a contract close code; `undefined` for other codes (1000, 1006, 4005, …). */
export function closeCodeInfo(code: number): CloseCodeInfo<ContractCloseCode> | undefined {
  const info = BY_CODE.get(code);
  return info?.contract ? (info as CloseCodeInfo<ContractCloseCode>) : undefined;
}

/** Looks up any code of the table (for logs and diagnostics); `undefined` outside it. */
export function describeCloseCode(code: number): CloseCodeInfo | undefined {
  return BY_CODE.get(code);
}

/** True when an SDK may retry a connection closed with `code` on its own (45xx, abnormal closes). */
export function isRetryableCloseCode(code: number): boolean {
  const info = BY_CODE.get(code);
  if (info) return info.retryable;
  if (code >= 4000 && code < 4500) return false;
  return code >= 4500 && code < 5000;
}

/** The `ServerError.code` (and close code) for every AvatarError code, from the table. */
export const SERVER_ERROR_CODES: Readonly<Record<AvatarErrorCode, number>> = Object.freeze(
  Object.fromEntries(
    CLOSE_CODE_TABLE.filter((info) => info.code >= 4000).flatMap((info) =>
      [info.errorCode, ...info.alsoFor].map((errorCode) => [errorCode, info.code]),
    ),
  ) as Record<AvatarErrorCode, number>,
);

/** The AvatarError code a received `ServerError.code` stands for; `undefined` outside the table. */
export function errorCodeForServerCode(code: number): AvatarErrorCode | undefined {
  return code >= 4000 ? BY_CODE.get(code)?.errorCode : undefined;
}
