/** The typed refusal of an avatar file: an AvatarError carrying the problem and the HTTP status. */
import { AvatarError, type AvatarFileProblem } from '@avatar-drive/core';

/** HTTP status per problem: too large is 413, a file that cannot be used is 422. */
const STATUS: Record<AvatarFileProblem, number> = {
  tooLarge: 413,
  notGlb: 422,
  truncated: 422,
  jsonInvalid: 422,
  jsonTooComplex: 422,
  externalUri: 422,
  outOfRange: 422,
  vrmMalformed: 422,
  validationFailed: 422,
  validationTimeout: 422,
  notDrivable: 422,
  zipMalformed: 422,
  zipBomb: 413,
  unsafeName: 422,
  lamIncomplete: 422,
  plyMalformed: 422,
  vertexOrderMismatch: 422,
  countMismatch: 422,
  unsupportedExtension: 422,
  compressionMalformed: 422,
};

/** Builds the refusal for `problem`; `message` says what is wrong and what to do about it. */
export function fileProblem(problem: AvatarFileProblem, message: string): AvatarError {
  return new AvatarError(problem === 'tooLarge' ? 'avatarTooLarge' : 'avatarInvalid', message, {
    httpStatus: STATUS[problem],
    details: { problem },
  });
}

/** The problem an error carries, when it is a file refusal. */
export function problemOf(error: unknown): AvatarFileProblem | undefined {
  const details = (error as AvatarError | undefined)?.details;
  return details?.problem as AvatarFileProblem | undefined;
}
