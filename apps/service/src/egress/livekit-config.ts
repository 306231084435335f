/**
 * Validation of `LiveKitEgressConfig` and the join token the avatar uses.
 *
 * The avatar joins as participant kind `agent`, identity `publisher_id`, with attribute
 * `lk.publish_on_behalf` naming the agent it speaks for (the convention LiveKit's avatar
 * plugins use), plus any `extra_attributes`. With `api_token` the caller minted that token
 * (it must carry kind agent and a room join grant); with `api_key` + `api_secret` the
 * service mints it. Credentials never appear in an error message.
 */
import {
  AVATAR_PARTICIPANT_KIND,
  AvatarError,
  avatarParticipantGrant,
  PUBLISH_ON_BEHALF_ATTRIBUTE,
} from '@avatar-drive/core';
import { AccessToken } from 'livekit-server-sdk';
import type { LiveKitEgressSettings } from './types.js';

/** The attribute that ties an avatar participant to the agent whose speech it renders (core's). */
export { PUBLISH_ON_BEHALF_ATTRIBUTE };

/** Limits that keep a config from being abused (LiveKit's own limits are in the same range). */
const MAX_ATTRIBUTES = 32;
const MAX_ATTRIBUTE_BYTES = 4096;
const MAX_IDENTITY_LENGTH = 128;
const MAX_IDLE_TIMEOUT_S = 24 * 3600;

/** A validated config, ready to join. */
export interface ResolvedLiveKitConfig {
  /** ws:// or wss:// URL of the LiveKit server. */
  url: string;
  roomName: string;
  /** The avatar's identity in the room. */
  identity: string;
  /** Attributes the avatar participant must carry (the token's, then extra_attributes). */
  attributes: Record<string, string>;
  /** Idle timeout in ms; 0 = never. */
  idleTimeoutMs: number;
  /** The join token: the caller's `api_token`, or one the service minted. */
  token: string;
  /** True when the service minted the token (and so granted itself attribute updates). */
  minted: boolean;
}

export interface ResolveOptions {
  /** Idle timeout (seconds) when the config says 0. */
  defaultIdleTimeoutS: number;
  /** Lifetime of tokens the service mints. */
  tokenTtlS: number;
}

function invalid(message: string): AvatarError {
  return new AvatarError('invalidEgressConfig', message, { phase: 'configure', retryable: false });
}

/** Claims of a LiveKit join token that matter here (decoded, not verified: only the server can). */
interface JoinClaims {
  sub?: unknown;
  exp?: unknown;
  nbf?: unknown;
  kind?: unknown;
  attributes?: unknown;
  video?: { room?: unknown; roomJoin?: unknown; canPublish?: unknown; canPublishData?: unknown };
}

function decodeClaims(token: string): JoinClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) {
    throw invalid(
      'livekit_egress.api_token is not a JWT: pass a LiveKit access token (header.payload.signature).',
    );
  }
  try {
    const json = Buffer.from(parts[1]!, 'base64url').toString('utf8');
    const claims = JSON.parse(json) as unknown;
    if (typeof claims !== 'object' || claims === null) throw new Error('not an object');
    return claims as JoinClaims;
  } catch {
    throw invalid('livekit_egress.api_token has an unreadable payload: pass a LiveKit access token.');
  }
}

function normaliseUrl(raw: string): string {
  const value = raw.trim();
  if (!value) {
    throw invalid('livekit_egress.url is empty: set it to the LiveKit server URL (wss://… or ws://…).');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`livekit_egress.url "${value}" is not a URL: use wss://host or ws://host:port.`);
  }
  // LiveKit SDKs accept the HTTP form of the same address; the signalling itself is WebSocket.
  const scheme = { 'ws:': 'ws:', 'wss:': 'wss:', 'http:': 'ws:', 'https:': 'wss:' }[url.protocol];
  if (!scheme) {
    throw invalid(`livekit_egress.url uses ${url.protocol}; use wss:// (or ws:// for a local server).`);
  }
  if (url.username || url.password) {
    throw invalid(
      'livekit_egress.url must not carry credentials; put them in api_token or api_key/api_secret.',
    );
  }
  url.protocol = scheme;
  return url.toString().replace(/\/$/, '');
}

function checkAttributes(attributes: Record<string, string>, where: string): void {
  const entries = Object.entries(attributes);
  if (entries.length > MAX_ATTRIBUTES) {
    throw invalid(`${where} has ${entries.length} attributes; at most ${MAX_ATTRIBUTES} are allowed.`);
  }
  let bytes = 0;
  for (const [key, value] of entries) {
    if (!key.trim()) throw invalid(`${where} has an empty attribute name; give every attribute a name.`);
    if (typeof value !== 'string') throw invalid(`${where}["${key}"] must be a string.`);
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  if (bytes > MAX_ATTRIBUTE_BYTES) {
    throw invalid(
      `${where} holds ${bytes} bytes; keep attributes under ${MAX_ATTRIBUTE_BYTES} bytes in total.`,
    );
  }
}

/**
 * Checks everything that can be checked before joining and produces the join token.
 * Throws AvatarError `invalidEgressConfig` with a message naming the field to fix.
 */
export async function resolveLiveKitConfig(
  settings: LiveKitEgressSettings,
  options: ResolveOptions,
): Promise<ResolvedLiveKitConfig> {
  const url = normaliseUrl(settings.url ?? '');
  const extra = { ...(settings.extraAttributes ?? {}) };
  checkAttributes(extra, 'livekit_egress.extra_attributes');
  const idle = settings.idleTimeout ?? 0;
  if (!Number.isInteger(idle) || idle < 0 || idle > MAX_IDLE_TIMEOUT_S) {
    throw invalid(
      `livekit_egress.idle_timeout ${idle} is out of range: give whole seconds from 0 (server default) to ${MAX_IDLE_TIMEOUT_S}.`,
    );
  }
  const idleTimeoutMs = (idle === 0 ? options.defaultIdleTimeoutS : idle) * 1000;
  const publisherId = (settings.publisherId ?? '').trim();
  if (publisherId.length > MAX_IDENTITY_LENGTH) {
    throw invalid(`livekit_egress.publisher_id is longer than ${MAX_IDENTITY_LENGTH} characters.`);
  }
  const roomName = (settings.roomName ?? '').trim();
  const apiToken = (settings.apiToken ?? '').trim();

  if (apiToken) {
    const claims = decodeClaims(apiToken);
    const identity = typeof claims.sub === 'string' ? claims.sub : '';
    if (!identity) throw invalid('livekit_egress.api_token has no identity (sub): mint it with an identity.');
    if (publisherId && publisherId !== identity) {
      throw invalid(
        `livekit_egress.publisher_id "${publisherId}" differs from the api_token identity "${identity}": make them equal or leave publisher_id empty.`,
      );
    }
    if (claims.kind !== AVATAR_PARTICIPANT_KIND) {
      throw invalid(
        `livekit_egress.api_token has participant kind "${String(claims.kind ?? 'standard')}": mint it with kind "agent" (AccessToken.kind = 'agent').`,
      );
    }
    const video = claims.video ?? {};
    if (video.roomJoin !== true) throw invalid('livekit_egress.api_token lacks the roomJoin grant.');
    const tokenRoom = typeof video.room === 'string' ? video.room : '';
    if (!tokenRoom) throw invalid('livekit_egress.api_token names no room: add the room to its grant.');
    if (roomName && roomName !== tokenRoom) {
      throw invalid(
        `livekit_egress.room_name "${roomName}" differs from the api_token room "${tokenRoom}": make them equal or leave room_name empty.`,
      );
    }
    if (video.canPublish === false || video.canPublishData === false) {
      throw invalid('livekit_egress.api_token forbids publishing: grant canPublish and canPublishData.');
    }
    const now = Date.now() / 1000;
    if (typeof claims.exp === 'number' && claims.exp <= now) {
      throw invalid('livekit_egress.api_token has expired: mint a fresh one.');
    }
    const tokenAttributes =
      typeof claims.attributes === 'object' && claims.attributes !== null
        ? (claims.attributes as Record<string, string>)
        : {};
    return {
      url,
      roomName: tokenRoom,
      identity,
      attributes: { ...tokenAttributes, ...extra },
      idleTimeoutMs,
      token: apiToken,
      minted: false,
    };
  }

  const apiKey = (settings.apiKey ?? '').trim();
  const apiSecret = settings.apiSecret ?? '';
  if (!apiKey && !apiSecret) {
    throw invalid(
      'livekit_egress has no credentials: set api_token (preferred), or api_key and api_secret so the service can mint one.',
    );
  }
  if (!apiKey)
    throw invalid('livekit_egress.api_secret is set but api_key is empty: set both, or use api_token.');
  if (!apiSecret)
    throw invalid('livekit_egress.api_key is set but api_secret is empty: set both, or use api_token.');
  if (!roomName) throw invalid('livekit_egress.room_name is empty: name the room the avatar joins.');
  if (!publisherId) {
    throw invalid('livekit_egress.publisher_id is empty: give the identity the avatar takes in the room.');
  }
  const at = new AccessToken(apiKey, apiSecret, {
    identity: publisherId,
    name: publisherId,
    ttl: options.tokenTtlS,
    attributes: extra,
  });
  at.kind = AVATAR_PARTICIPANT_KIND;
  at.addGrant(avatarParticipantGrant(roomName));
  return {
    url,
    roomName,
    identity: publisherId,
    attributes: extra,
    idleTimeoutMs,
    token: await at.toJwt(),
    minted: true,
  };
}
