/**
 * The LiveKit Agents avatar output contract, agent side, as livekit-agents' DataStreamAudioOutput
 * speaks it: the avatar participant calls `lk.playback_started` (payload "") and
 * `lk.playback_finished` (`{"playback_position": seconds, "interrupted": bool}`) on the agent,
 * one pair per speech segment, in order; the agent calls `lk.clear_buffer` on the avatar to
 * interrupt. Only the avatar's own calls are taken.
 */
import { type LocalParticipant, RpcError, type RpcInvocationData } from '@livekit/rtc-node';

export const RPC_PLAYBACK_STARTED = 'lk.playback_started';
export const RPC_PLAYBACK_FINISHED = 'lk.playback_finished';
export const RPC_CLEAR_BUFFER = 'lk.clear_buffer';

/** What the avatar reported at the end of a segment. */
export interface AvatarPlaybackFinished {
  /** Seconds of the segment that played. */
  playbackPosition: number;
  interrupted: boolean;
}

/** Where the avatar's reports go (the plugin's audio output). */
export interface AvatarPlaybackListener {
  onAvatarPlaybackStarted(): void;
  onAvatarPlaybackFinished(event: AvatarPlaybackFinished): void;
}

/**
 * How an `lk.clear_buffer` call went: `ok` (the avatar took it), `unsupported` (it registered no
 * such method: interrupt another way, and do not ask it again), `failed` (no answer, refused, gone).
 */
export type ClearBufferResult = 'ok' | 'unsupported' | 'failed';

/**
 * Reads a `lk.playback_finished` payload; undefined when it is not one (snake_case, as
 * livekit-agents serialises it; camelCase too, as some JS producers write it).
 */
export function parsePlaybackFinished(payload: string): AvatarPlaybackFinished | undefined {
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(payload);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    raw = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const position = raw.playback_position ?? raw.playbackPosition;
  if (typeof position !== 'number' || !Number.isFinite(position) || typeof raw.interrupted !== 'boolean') {
    return undefined;
  }
  return { playbackPosition: Math.max(0, position), interrupted: raw.interrupted };
}

/**
 * Registers the agent's `lk.playback_started` / `lk.playback_finished` handlers for the avatar
 * `avatarIdentity`; returns the function that unregisters them. A call from anyone else, or a
 * payload that is not the contract's, is answered `reject` and changes nothing (the driving
 * session's playback states still finish the segment).
 */
export function registerPlaybackRpc(
  local: Pick<LocalParticipant, 'registerRpcMethod' | 'unregisterRpcMethod'>,
  avatarIdentity: string,
  listener: AvatarPlaybackListener,
): () => void {
  local.registerRpcMethod(RPC_PLAYBACK_STARTED, async (data: RpcInvocationData) => {
    if (data.callerIdentity !== avatarIdentity) return 'reject';
    listener.onAvatarPlaybackStarted();
    return 'ok';
  });
  local.registerRpcMethod(RPC_PLAYBACK_FINISHED, async (data: RpcInvocationData) => {
    if (data.callerIdentity !== avatarIdentity) return 'reject';
    const event = parsePlaybackFinished(data.payload);
    if (!event) return 'reject';
    listener.onAvatarPlaybackFinished(event);
    return 'ok';
  });
  return () => {
    local.unregisterRpcMethod(RPC_PLAYBACK_STARTED);
    local.unregisterRpcMethod(RPC_PLAYBACK_FINISHED);
  };
}

/** Calls `lk.clear_buffer` on the avatar; see {@link ClearBufferResult}. */
export async function clearAvatarBuffer(
  local: Pick<LocalParticipant, 'performRpc'>,
  avatarIdentity: string,
  responseTimeoutMs = 2000,
): Promise<ClearBufferResult> {
  try {
    await local.performRpc({
      destinationIdentity: avatarIdentity,
      method: RPC_CLEAR_BUFFER,
      payload: '',
      responseTimeout: responseTimeoutMs,
    });
    return 'ok';
  } catch (error) {
    if (error instanceof RpcError && error.code === RpcError.ErrorCode.UNSUPPORTED_METHOD)
      return 'unsupported';
    return 'failed';
  }
}
