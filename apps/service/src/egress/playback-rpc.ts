/**
 * The LiveKit Agents avatar output contract, avatar side (livekit-agents' `DataStreamAudioOutput`
 * / `AvatarRunner`, `@livekit/agents`' datastream_io): the avatar participant calls
 * `lk.playback_started` (payload "") and `lk.playback_finished` (payload
 * `{"playback_position": seconds, "interrupted": bool}`) on the agent participant, one
 * started/finished pair per speech segment, in order; the agent calls `lk.clear_buffer` on the
 * avatar to interrupt. An agent that did not register a method answers UNSUPPORTED_METHOD (1400),
 * which is not an error here: older plugins only listen to the driving session.
 */
import type { LocalParticipant, RpcInvocationData } from '@livekit/rtc-node';
import { RpcError } from '@livekit/rtc-node';

export const RPC_PLAYBACK_STARTED = 'lk.playback_started';
export const RPC_PLAYBACK_FINISHED = 'lk.playback_finished';
export const RPC_CLEAR_BUFFER = 'lk.clear_buffer';

/** The participant attribute some avatar plugins use to name the agent the RPCs go to. */
export const AGENT_IDENTITY_ATTRIBUTE = 'livekit_agent_identity';

/** What {@link PlaybackRpc} needs of its room. */
export interface PlaybackRpcOptions {
  /** The avatar's participant (calls the agent, takes `lk.clear_buffer`). */
  local: LocalParticipant;
  /** The agent's identity: the only caller `lk.clear_buffer` is taken from. */
  agentIdentity: string;
  /** Called when the agent asks to interrupt; the egress then reports `interrupted`. */
  onClearBuffer: () => void;
  /** Where calls that failed for another reason than "not registered" are reported. */
  onCallFailed: (method: string, error: unknown) => void;
  /** How long one call waits for the agent's answer. Default 5 s. */
  responseTimeoutMs?: number;
}

/** The `lk.playback_finished` payload, as livekit-agents' `PlaybackFinishedEvent` serialises it. */
export function playbackFinishedPayload(playedMs: number, interrupted: boolean): string {
  return JSON.stringify({ playback_position: Math.max(0, playedMs) / 1000, interrupted });
}

/** One avatar's side of the playback RPCs; calls go out in the order they were made. */
export class PlaybackRpc {
  readonly #options: PlaybackRpcOptions;
  /** Calls are chained so that `finished` never overtakes the `started` before it. */
  #chain: Promise<void> = Promise.resolve();
  #closed = false;
  /** A segment was reported started and not yet finished. */
  #segmentOpen = false;

  constructor(options: PlaybackRpcOptions) {
    this.#options = options;
    options.local.registerRpcMethod(RPC_CLEAR_BUFFER, (data) => this.#clearBuffer(data));
  }

  /** A segment's first audio left the avatar's track. */
  started(): void {
    this.#segmentOpen = true;
    this.#call(RPC_PLAYBACK_STARTED, '');
  }

  /** A segment played out (`interrupted` false) or was cut after `playedMs`. */
  finished(playedMs: number, interrupted: boolean): void {
    this.#segmentOpen = false;
    this.#call(RPC_PLAYBACK_FINISHED, playbackFinishedPayload(playedMs, interrupted));
  }

  /**
   * The avatar is leaving: a segment reported started gets its `interrupted` finish, so the
   * agent's wait for playout ends now rather than on its own timeout.
   */
  finishOpenSegment(playedMs: number): void {
    if (this.#segmentOpen) this.finished(playedMs, true);
  }

  /** Resolves when every call made so far has been answered (or failed). */
  settled(): Promise<void> {
    return this.#chain;
  }

  /** Stops taking `lk.clear_buffer` and making calls. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#options.local.unregisterRpcMethod(RPC_CLEAR_BUFFER);
    } catch {
      // The room is already gone: nothing is registered any more.
    }
  }

  #call(method: string, payload: string): void {
    if (this.#closed) return;
    const { local, agentIdentity, onCallFailed } = this.#options;
    const responseTimeout = this.#options.responseTimeoutMs ?? 5000;
    this.#chain = this.#chain.then(async () => {
      if (this.#closed) return;
      try {
        await local.performRpc({ destinationIdentity: agentIdentity, method, payload, responseTimeout });
      } catch (error) {
        // Asked again next time: an agent may register its handlers after the avatar joined.
        if (error instanceof RpcError && error.code === RpcError.ErrorCode.UNSUPPORTED_METHOD) return;
        if (!this.#closed) onCallFailed(method, error);
      }
    });
  }

  async #clearBuffer(data: RpcInvocationData): Promise<string> {
    // Only the agent this avatar speaks for may cut it off.
    if (data.callerIdentity !== this.#options.agentIdentity) return 'reject';
    if (!this.#closed) this.#options.onClearBuffer();
    return 'ok';
  }
}
