/**
 * RTC-mode egress options: where the service publishes the avatar (a LiveKit room or an Agora
 * channel) instead of sending animation back on the WebSocket. Checked here so a mistake is
 * reported before connecting, with what to fix; secrets never appear in messages.
 */
import { AvatarError, type ConfigureSessionInit } from '@avatar-drive/core';

/** Publish the avatar into a LiveKit room. */
export interface LiveKitEgressOptions {
  provider: 'livekit';
  /** LiveKit server URL (wss://… or https://…). */
  url: string;
  /** Room to join. */
  room: string;
  /** A LiveKit access token for the avatar participant (preferred over key + secret). */
  apiToken?: string;
  /** LiveKit API key, with `apiSecret`, when no `apiToken` is given. */
  apiKey?: string;
  /** LiveKit API secret. */
  apiSecret?: string;
  /** Identity the avatar publishes on behalf of (e.g. the agent's identity). */
  publisherId?: string;
  /** Participant attributes to set on the avatar. */
  extraAttributes?: Readonly<Record<string, string>>;
  /** Seconds without audio before the avatar leaves; 0 = server default. */
  idleTimeout?: number;
}

/**
 * Publish the avatar into an Agora channel. The Agora app id is configured on the service:
 * driveningress.v2's AgoraEgressConfig has no app id field.
 */
export interface AgoraEgressOptions {
  provider: 'agora';
  channel: string;
  token?: string;
  /** Agora user id of the avatar (uint32); 0 lets Agora pick. */
  uid?: number;
  publisherId?: string;
}

/** Either egress. */
export type EgressOptions = LiveKitEgressOptions | AgoraEgressOptions;

function bad(message: string): AvatarError {
  return new AvatarError('invalidEgressConfig', message, { phase: 'initialize' });
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw bad(`egress.${field} must be a string.`);
  return value;
}

/**
 * The `ClientConfigureSession` egress fields for `egress`.
 * @throws AvatarError `invalidEgressConfig` naming the field to fix.
 */
export function egressConfigure(egress: EgressOptions | undefined): Partial<ConfigureSessionInit> {
  if (egress === undefined) return {};
  if (typeof egress !== 'object' || egress === null) {
    throw bad("egress must be an object like { provider: 'livekit', url, room, apiToken }.");
  }
  if (egress.provider === 'livekit') {
    const url = optionalString(egress.url, 'url');
    if (!url || !/^(wss?|https?):\/\/\S+$/i.test(url)) {
      throw bad('egress.url must be the LiveKit server URL (wss://…, ws://…, https://… or http://…).');
    }
    const room = optionalString(egress.room, 'room');
    if (!room || room.trim() === '') throw bad('egress.room must name the LiveKit room to publish into.');
    const apiToken = optionalString(egress.apiToken, 'apiToken');
    const apiKey = optionalString(egress.apiKey, 'apiKey');
    const apiSecret = optionalString(egress.apiSecret, 'apiSecret');
    if (!apiToken && !(apiKey && apiSecret)) {
      throw bad('LiveKit egress needs egress.apiToken, or both egress.apiKey and egress.apiSecret.');
    }
    const publisherId = optionalString(egress.publisherId, 'publisherId');
    const idleTimeout = egress.idleTimeout ?? 0;
    if (!Number.isInteger(idleTimeout) || idleTimeout < 0 || idleTimeout > 2 ** 31 - 1) {
      throw bad(
        `egress.idleTimeout must be whole seconds ≥ 0 (0 = server default), got ${String(idleTimeout)}.`,
      );
    }
    const extraAttributes: Record<string, string> = {};
    if (egress.extraAttributes !== undefined) {
      if (typeof egress.extraAttributes !== 'object' || egress.extraAttributes === null) {
        throw bad('egress.extraAttributes must map attribute names to string values.');
      }
      for (const [key, value] of Object.entries(egress.extraAttributes)) {
        if (typeof value !== 'string') throw bad(`egress.extraAttributes["${key}"] must be a string.`);
        extraAttributes[key] = value;
      }
    }
    return {
      livekitEgress: {
        url,
        roomName: room,
        apiToken: apiToken ?? '',
        apiKey: apiKey ?? '',
        apiSecret: apiSecret ?? '',
        publisherId: publisherId ?? '',
        extraAttributes,
        idleTimeout,
      },
    };
  }
  if (egress.provider === 'agora') {
    const channel = optionalString(egress.channel, 'channel');
    if (!channel || channel.trim() === '') throw bad('egress.channel must name the Agora channel.');
    const uid = egress.uid ?? 0;
    if (!Number.isInteger(uid) || uid < 0 || uid > 0xffffffff) {
      throw bad(`egress.uid must be a uint32 (0 … 4294967295), got ${String(uid)}.`);
    }
    return {
      agoraEgress: {
        channelName: channel,
        token: optionalString(egress.token, 'token') ?? '',
        uid,
        publisherId: optionalString(egress.publisherId, 'publisherId') ?? '',
      },
    };
  }
  throw bad(
    `egress.provider must be 'livekit' or 'agora', got ${JSON.stringify((egress as { provider?: unknown }).provider)}.`,
  );
}
