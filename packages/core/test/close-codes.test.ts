import { describe, expect, it } from 'vitest';
import {
  AVATAR_ERROR_CODES,
  AvatarError,
  CLOSE_CODE_TABLE,
  CLOSE_CODES,
  CloseCode,
  closeCodeInfo,
  describeCloseCode,
  isRetryableCloseCode,
  SERVER_ERROR_CODES,
} from '../src/index.js';

describe('the close-code table', () => {
  it('has one row per name, each number once, named as in CloseCode', () => {
    expect(CLOSE_CODE_TABLE.map((info) => info.code).sort()).toEqual(Object.values(CloseCode).sort());
    for (const info of CLOSE_CODE_TABLE) expect(CloseCode[info.name]).toBe(info.code);
  });

  it('gives every AvatarError code a ServerError number', () => {
    for (const code of AVATAR_ERROR_CODES) expect(SERVER_ERROR_CODES[code]).toBeGreaterThanOrEqual(4000);
    expect(SERVER_ERROR_CODES.sessionTokenExpired).toBe(CloseCode.AuthFailed);
  });

  it('keeps the five contract codes and their retry meaning', () => {
    expect(Object.keys(CLOSE_CODES).map(Number).sort()).toEqual([4001, 4002, 4003, 4010, 4503]);
    expect(closeCodeInfo(CloseCode.ProtocolError)).toBeUndefined();
    expect(describeCloseCode(CloseCode.ProtocolError)?.errorCode).toBe('protocolError');
    expect(AvatarError.fromClose(CloseCode.ConcurrencyLimit, '').code).toBe('concurrencyLimit');
    expect(AvatarError.fromClose(CloseCode.ProtocolError, 'x').code).toBe('connectionClosed');
  });

  it('retries 45xx and abnormal closes, never 40xx or a normal close', () => {
    expect(isRetryableCloseCode(CloseCode.UpstreamUnavailable)).toBe(true);
    expect(isRetryableCloseCode(CloseCode.Abnormal)).toBe(true);
    expect(isRetryableCloseCode(CloseCode.ServiceRestart)).toBe(true);
    expect(isRetryableCloseCode(4599)).toBe(true);
    expect(isRetryableCloseCode(CloseCode.ConcurrencyLimit)).toBe(false);
    expect(isRetryableCloseCode(4077)).toBe(false);
    expect(isRetryableCloseCode(CloseCode.Normal)).toBe(false);
    expect(isRetryableCloseCode(1001)).toBe(false);
  });
});
