import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { ServerErrorSchema } from '../src/gen/driveningress/v2/driveningress_pb.js';
import {
  AVATAR_ERROR_CODES,
  AvatarError,
  avatarErrorToServerError,
  CLOSE_CODES,
  decodeMessage,
  encodeMessage,
  SERVER_ERROR_CODES,
  serverErrorCodeFor,
  serverErrorMessageFromAvatarError,
  serverErrorToAvatarError,
} from '../src/index.js';

describe('AvatarError ⇄ ServerError', () => {
  it('close-code errors travel as their close code and come back with its retry meaning', () => {
    for (const info of Object.values(CLOSE_CODES)) {
      const sent = avatarErrorToServerError(new AvatarError(info.errorCode, info.meaning), { reqId: 'r' });
      expect(sent.code).toBe(info.code);
      const back = serverErrorToAvatarError(sent, 'stream');
      expect(back.code).toBe(info.errorCode);
      expect(back.closeCode).toBe(info.code);
      expect(back.retryable).toBe(info.retryable);
      expect(back.phase).toBe('stream');
      expect(back.details).toMatchObject({ serverCode: info.code, reqId: 'r' });
    }
  });

  it('every auth failure is sent as 4010', () => {
    for (const code of [
      'sessionTokenExpired',
      'sessionTokenInvalid',
      'appIDUnrecognized',
      'appIDMismatch',
    ] as const) {
      expect(serverErrorCodeFor(new AvatarError(code, 'x'))).toBe(4010);
    }
  });

  it('codes with a number of their own round-trip exactly, without a closeCode', () => {
    const own = AVATAR_ERROR_CODES.filter((code) => {
      const n = SERVER_ERROR_CODES[code];
      return Object.values(SERVER_ERROR_CODES).filter((m) => m === n).length === 1;
    });
    expect(own).toEqual(expect.arrayContaining(['protocolError', 'unsupportedSampleRate', 'avatarNotFound']));
    for (const code of own) {
      const back = serverErrorToAvatarError(avatarErrorToServerError(new AvatarError(code, `m ${code}`)));
      expect(back.code).toBe(code);
      expect(back.message).toBe(`m ${code}`);
      if (!(SERVER_ERROR_CODES[code] in CLOSE_CODES)) expect(back.closeCode).toBeUndefined();
    }
  });

  it('avatar file refusals (HTTP only) share InvalidRequest; it reads back as invalidRequest', () => {
    for (const code of ['invalidRequest', 'avatarInvalid', 'avatarTooLarge'] as const) {
      expect(SERVER_ERROR_CODES[code]).toBe(SERVER_ERROR_CODES.invalidRequest);
      const back = serverErrorToAvatarError(avatarErrorToServerError(new AvatarError(code, 'm')));
      expect(back.code).toBe('invalidRequest');
      expect(back.retryable).toBe(false);
    }
  });

  it('uses an explicit contract closeCode, but not a transport close code like 1006', () => {
    expect(serverErrorCodeFor(new AvatarError('serverError', 'x', { closeCode: 4503 }))).toBe(4503);
    expect(serverErrorCodeFor(new AvatarError('connectionClosed', 'x', { closeCode: 1006 }))).toBe(4500);
  });

  it('unknown codes become serverError; 45xx retryable, 40xx not; empty messages get a meaning', () => {
    const unknown = serverErrorToAvatarError(create(ServerErrorSchema, { code: 17, message: 'odd' }));
    expect(unknown.code).toBe('serverError');
    expect(unknown.retryable).toBe(false);
    expect(serverErrorToAvatarError(create(ServerErrorSchema, { code: 4599 })).retryable).toBe(true);
    expect(serverErrorToAvatarError(create(ServerErrorSchema, { code: 4077 })).retryable).toBe(false);
    expect(serverErrorToAvatarError(create(ServerErrorSchema, { code: 4001 })).message).toBe(
      CLOSE_CODES[4001].meaning,
    );
    expect(serverErrorToAvatarError(create(ServerErrorSchema, { code: 4077 })).message).toMatch(/4077/);
  });

  it('serverErrorMessageFromAvatarError builds a frame that decodes to the same ServerError', () => {
    const error = new AvatarError('invalidAudio', 'Odd byte count; send whole s16le samples.');
    const decoded = decodeMessage(
      encodeMessage(serverErrorMessageFromAvatarError(error, { connectionId: 'c' })),
    );
    if (decoded.data.case !== 'serverError') throw new Error('wrong case');
    expect(decoded.data.value).toMatchObject({ connectionId: 'c', code: 4007, message: error.message });
  });
});
