/**
 * Pause and resume as promises: each waits for the ServerPlaybackState that answers it (the
 * service answers in order), a ServerError about its request, the connection's end, or its
 * deadline. Also how a service playback state reads (`PlaybackStateInfo`).
 */
import { AvatarError, PlaybackState, type wire } from '@avatar-drive/core';
import type { PlaybackStateInfo } from './session-types.js';

/** The two requests that wait for an answer. */
export type PlaybackOp = 'pause' | 'resume';

interface PendingAck {
  op: PlaybackOp;
  reqId: string;
  resolve: (state: PlaybackStateInfo) => void;
  reject: (error: AvatarError) => void;
  timer: NodeJS.Timeout;
}

const STATE_NAMES: Record<number, PlaybackStateInfo['state'] | undefined> = {
  [PlaybackState.PLAYING]: 'playing',
  [PlaybackState.PAUSED]: 'paused',
  [PlaybackState.ENDED]: 'ended',
  [PlaybackState.INTERRUPTED]: 'interrupted',
};

/** A received ServerPlaybackState as the session reports it. */
export function playbackStateInfo(value: wire.ServerPlaybackState): PlaybackStateInfo {
  return {
    reqId: value.reqId,
    state: STATE_NAMES[value.state] ?? 'playing',
    playedMs: Number(value.playedMs),
    reason: value.reason,
  };
}

/** Why `op` cannot be sent now (for request `latestReqId`), or `undefined` when it can. */
function playbackRefusal(
  op: PlaybackOp,
  capabilities: readonly string[],
  latestReqId: string | undefined,
): AvatarError | undefined {
  if (!capabilities.includes('playback_control')) {
    return new AvatarError(
      'invalidState',
      `This service does not support ${op}() (no playback_control capability).`,
      { phase: 'playback' },
    );
  }
  if (latestReqId === undefined) {
    return new AvatarError('invalidState', `Nothing to ${op}: send audio with sendAudio() first.`, {
      phase: 'playback',
    });
  }
  return undefined;
}

/** The pause/resume requests waiting for the service's answer, oldest first. */
export class PlaybackAcks {
  readonly #pending: PendingAck[] = [];
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Sends `op` for the latest request (through `send`) and resolves with the state that answers it.
   * @throws AvatarError `invalidState` (synchronously) when the service cannot take `op` or no
   *   request was sent yet.
   */
  request(
    op: PlaybackOp,
    capabilities: readonly string[],
    latestReqId: string | undefined,
    send: (reqId: string) => void,
  ): Promise<PlaybackStateInfo> {
    const refusal = playbackRefusal(op, capabilities, latestReqId);
    if (refusal) throw refusal;
    const reqId = latestReqId!;
    return new Promise<PlaybackStateInfo>((resolve, reject) => {
      const timeoutMs = this.#timeoutMs;
      const pending: PendingAck = {
        op,
        reqId,
        resolve,
        reject,
        timer: setTimeout(() => {
          const i = this.#pending.indexOf(pending);
          if (i >= 0) this.#pending.splice(i, 1);
          reject(
            new AvatarError('serverError', `The service did not answer ${op}() within ${timeoutMs} ms.`, {
              phase: 'playback',
              retryable: true,
            }),
          );
        }, timeoutMs),
      };
      this.#pending.push(pending);
      send(reqId);
    });
  }

  /** Matches a playback state to the oldest pause/resume waiting for it (acks come in order). */
  settle(info: PlaybackStateInfo): void {
    const pending = this.#pending[0];
    if (!pending || pending.reqId !== info.reqId) return;
    const fits =
      info.state === 'ended' ||
      info.state === 'interrupted' ||
      (pending.op === 'pause' ? info.state === 'paused' : info.state === 'playing' && info.reason === '');
    if (!fits) return;
    this.#pending.shift();
    clearTimeout(pending.timer);
    pending.resolve(info);
  }

  /** A ServerError about request `reqId` fails the first request waiting on it. */
  rejectRequest(reqId: string, error: AvatarError): void {
    if (reqId === '') return;
    const i = this.#pending.findIndex((a) => a.reqId === reqId);
    if (i < 0) return;
    const [pending] = this.#pending.splice(i, 1);
    clearTimeout(pending!.timer);
    pending!.reject(error);
  }

  /** Fails every waiting request (the connection ended). */
  rejectAll(error: AvatarError): void {
    for (const pending of this.#pending.splice(0)) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }
}
