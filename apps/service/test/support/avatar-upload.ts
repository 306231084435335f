/**
 * Uploading avatar files to a real service in tests, and reading its typed refusals (the problem
 * code the service names for a bad file, its status and what its detail says to do).
 */
import type { AvatarFileProblem } from '@avatar-drive/core';
import { expect } from 'vitest';
import { API_KEY, type Json } from './harness.js';

/** `POST /v1/console/avatars` with the test app's API key; the status and the parsed answer. */
export async function postAvatar(
  baseUrl: string,
  bytes: Uint8Array,
  contentType: string,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${baseUrl}/v1/console/avatars`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': contentType },
    body: bytes,
  });
  return { status: response.status, body: await response.json() };
}

/** The answer is the refusal of a file: `status`, its error code, the `problem`, a detail matching `text`. */
export function expectFileRefusal(
  result: { status: number; body: Json },
  status: number,
  problem: AvatarFileProblem,
  text: RegExp,
): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.errors[0].code).toBe(status === 413 ? 'avatarTooLarge' : 'avatarInvalid');
  expect(result.body.errors[0].problem).toBe(problem);
  expect(result.body.errors[0].detail).toMatch(text);
}
