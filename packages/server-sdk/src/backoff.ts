/**
 * AvatarSession's retry options: the one reconnect policy of every Avatar Drive SDK
 * (`@avatar-drive/core`'s reconnect.ts) plus whether a dropped session reconnects.
 */
import {
  DEFAULT_RECONNECT_POLICY,
  backoffDelay as policyBackoff,
  type ReconnectPolicy,
} from '@avatar-drive/core';

/** How an {@link AvatarSession} retries retryable failures (45xx, network). */
export interface ReconnectOptions extends Partial<ReconnectPolicy> {
  /** Reconnect after an established connection drops with a retryable code; default true. */
  afterDrop?: boolean;
}

/** The shared policy's defaults, and reconnecting after a drop (a server can mint fresh tokens). */
export const DEFAULT_RECONNECT: Required<ReconnectOptions> = {
  ...DEFAULT_RECONNECT_POLICY,
  afterDrop: true,
};

/**
 * The delay before backoff step `step` (0-based): `initial · 2^step`, capped at `max`, with
 * the policy's jitter (default: 50 %–100 % of the step) so many clients do not retry in lockstep.
 */
export function backoffDelay(
  step: number,
  options: Required<ReconnectOptions>,
  random = Math.random,
): number {
  return policyBackoff(step, options, random);
}
