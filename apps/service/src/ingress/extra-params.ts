/**
 * `ClientConfigureSession.extra_params`: a string map SDKs pass through from their callers. The
 * service takes any keys within the bounds below (unknown keys are ignored) and acts on the ones
 * in {@link EXTRA_PARAM_VALUES}; a known key with a value it cannot take refuses the configure.
 */
import type { AvatarErrorCode } from '@avatar-drive/core';
import { AGENT_IDENTITY_PARAM, PLAYBACK_RPC_PARAM } from '../egress/livekit-egress.js';

/** At most this many entries. */
export const MAX_EXTRA_PARAMS = 32;
/** Keys and values, UTF-8 bytes summed over all entries, stay under this. */
export const MAX_EXTRA_PARAMS_BYTES = 4096;
/** One key at most this long (UTF-8 bytes). */
export const MAX_EXTRA_PARAM_KEY_BYTES = 128;

/** The keys the service acts on and what each accepts (documented in docs/protocol.md). */
export const EXTRA_PARAM_VALUES: Readonly<Record<string, { check: (v: string) => boolean; expect: string }>> =
  {
    [PLAYBACK_RPC_PARAM]: { check: (v) => v === 'on' || v === 'off', expect: '"on" or "off"' },
    [AGENT_IDENTITY_PARAM]: {
      check: (v) => v.length > 0 && v.length <= 256,
      expect: 'a participant identity (1–256 characters)',
    },
  };

/** The refusal for `params`, or undefined when they are acceptable. */
export function extraParamsRefusal(
  params: { [key: string]: string } | undefined,
): { code: AvatarErrorCode; message: string } | undefined {
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_EXTRA_PARAMS) {
    return {
      code: 'invalidRequest',
      message: `extra_params has ${entries.length} entries; send at most ${MAX_EXTRA_PARAMS}.`,
    };
  }
  let bytes = 0;
  for (const [key, value] of entries) {
    const keyBytes = Buffer.byteLength(key);
    if (keyBytes === 0 || keyBytes > MAX_EXTRA_PARAM_KEY_BYTES) {
      return {
        code: 'invalidRequest',
        message: `extra_params keys must be 1–${MAX_EXTRA_PARAM_KEY_BYTES} bytes; one is ${keyBytes}.`,
      };
    }
    bytes += keyBytes + Buffer.byteLength(value);
    const known = EXTRA_PARAM_VALUES[key];
    if (known && !known.check(value)) {
      return {
        code: 'invalidRequest',
        message: `extra_params "${key}" takes ${known.expect}; remove it or send one of those.`,
      };
    }
  }
  if (bytes > MAX_EXTRA_PARAMS_BYTES) {
    return {
      code: 'invalidRequest',
      message: `extra_params holds ${bytes} bytes; keep keys and values under ${MAX_EXTRA_PARAMS_BYTES} bytes in total.`,
    };
  }
  return undefined;
}
