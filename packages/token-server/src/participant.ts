/**
 * Who gets a LiveKit token for which room: the mounting app's decision. POST /token asks a
 * {@link ParticipantHook} (which sees the request, so it can use the app's own session or user),
 * then checks what it returned: a room and identity of printable characters only (no control or
 * format characters that could forge log lines, recolour a terminal or reorder text), and never a
 * reserved identity (the avatar's, the agent's), so no caller can take the avatar's place in a room.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** What a token is issued for. */
export interface Participant {
  room: string;
  identity: string;
  /** Display name (default: the identity). */
  name?: string;
}

/** The POST /token body (every field optional). */
export interface TokenRequestBody {
  room?: string;
  identity?: string;
}

/**
 * Decides the room and identity of a POST /token request. Throw an error with a `statusCode`
 * (e.g. 401, 403) to refuse the request with that status and message.
 */
export type ParticipantHook = (
  request: FastifyRequest<{ Body: TokenRequestBody }>,
) => Participant | Promise<Participant>;

/** The avatar participant's identity by default (agent-plugin's `avatarIdentity`). */
export const DEFAULT_AVATAR_IDENTITY = 'avatar-drive-avatar';

/**
 * Identities no caller may be given by default: the avatar's, and the `agent-` identities LiveKit
 * Agents workers join with. An entry ending in `*` is a prefix.
 */
export const DEFAULT_RESERVED_IDENTITIES: readonly string[] = [DEFAULT_AVATAR_IDENTITY, 'agent-*'];

/** Room used when neither the request nor the config names one. */
export const DEFAULT_ROOM = 'avatar-drive';

const MAX_NAME_LENGTH = 128;
/** Control (C0, C1: NUL, CR, LF, ESC…), format (bidi overrides, zero-width), separators, private use, surrogates. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]/u;

/** `browser-` and 8 hex digits. */
export function defaultIdentity(): string {
  return `browser-${randomBytes(4).toString('hex')}`;
}

/**
 * The default when the mounting app gives no `participant` hook: the room the body names or
 * `defaultRoom`, and always a generated `browser-<8 hex>` identity. A body that names an identity
 * is refused (403): without a hook nothing ties a name to the caller, and a named identity would
 * let any caller take — and evict — another participant's place in the room. Give a
 * `participant` hook that reads your own authentication to issue your users' identities, or
 * {@link referenceParticipant} for an unauthenticated demo that lets callers choose.
 */
export function generatedParticipant(defaultRoom = DEFAULT_ROOM): ParticipantHook {
  return (request) => {
    const body = request.body ?? {};
    if ((body.identity?.trim() ?? '') !== '') {
      throw new ParticipantRefused(
        403,
        'This token server binds identities to its own authentication and names one for you: send no identity. (Its operator can configure a participant hook that reads your session, or --trust-body-identity for an unauthenticated demo.)',
      );
    }
    return { room: body.room ?? defaultRoom, identity: defaultIdentity() };
  };
}

/**
 * The spec's reference behaviour, for unauthenticated demos only (any caller may name any
 * identity that is not reserved): the room the body names or `defaultRoom`,
 * the trimmed identity the body names or a generated `browser-<8 hex>`. Reserved identities are
 * refused after any hook, this one included.
 */
export function referenceParticipant(defaultRoom = DEFAULT_ROOM): ParticipantHook {
  return (request) => {
    const body = request.body ?? {};
    const identity = body.identity?.trim() ?? '';
    return { room: body.room ?? defaultRoom, identity: identity === '' ? defaultIdentity() : identity };
  };
}

/** A refusal with an HTTP status (the plugin answers `{error: message}`). */
export class ParticipantRefused extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.name = 'ParticipantRefused';
    this.statusCode = statusCode;
  }
}

/** True when `identity` is one of `reserved` (exact, case-insensitive; `x*` = prefix `x`). */
export function isReservedIdentity(identity: string, reserved: readonly string[]): boolean {
  const id = identity.toLowerCase();
  return reserved.some((entry) => {
    const e = entry.toLowerCase();
    return e.endsWith('*') ? id.startsWith(e.slice(0, -1)) : id === e;
  });
}

/** Checks a hook's answer; throws {@link ParticipantRefused} saying what to change. */
export function checkParticipant(participant: Participant, reserved: readonly string[]): Participant {
  const { room, identity } = participant;
  const name = participant.name ?? identity;
  for (const [field, value] of [
    ['room', room],
    ['identity', identity],
    ['name', name],
  ] as const) {
    if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NAME_LENGTH) {
      throw new ParticipantRefused(400, `The ${field} must be 1 to ${MAX_NAME_LENGTH} characters.`);
    }
    if (UNPRINTABLE.test(value)) {
      throw new ParticipantRefused(
        400,
        `The ${field} contains control or format characters (newlines, escapes, bidi or zero-width characters). Use printable characters only.`,
      );
    }
  }
  if (isReservedIdentity(identity, reserved)) {
    throw new ParticipantRefused(
      403,
      `The identity "${identity}" is reserved (the avatar's or an agent's). Choose another identity, or send none to get a generated one.`,
    );
  }
  return { room, identity, name };
}
