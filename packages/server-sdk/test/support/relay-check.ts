/** Decodes a session's relay output with core's relay decoder, the way client-web does. */
import {
  animationToDriveFrames,
  type DecodedRelayMessage,
  type DriveFrame,
  int16FromBytes,
  RelayDecoder,
} from '@avatar-drive/core';

export interface DecodedConversation {
  audio: Int16Array;
  audioMessages: number;
  audioLast: boolean;
  sampleRates: Set<number>;
  frames: DriveFrame[];
  animationMessages: number;
  animationLast: boolean;
}

/** Decodes relay messages in arrival order; throws (protocolError) on any loss, duplicate or reordering. */
export function decodeRelay(messages: readonly Uint8Array[]): Map<string, DecodedConversation> {
  const decoder = new RelayDecoder();
  const out = new Map<string, DecodedConversation>();
  const chunks = new Map<string, Int16Array[]>();
  for (const bytes of messages) {
    const message: DecodedRelayMessage = decoder.decode(bytes);
    let conv = out.get(message.conversationId);
    if (!conv) {
      conv = {
        audio: new Int16Array(0),
        audioMessages: 0,
        audioLast: false,
        sampleRates: new Set(),
        frames: [],
        animationMessages: 0,
        animationLast: false,
      };
      out.set(message.conversationId, conv);
      chunks.set(message.conversationId, []);
    }
    if (message.kind === 'audio') {
      if (conv.audioLast) throw new Error('audio after last');
      conv.audioMessages += 1;
      conv.audioLast = message.last;
      conv.sampleRates.add(message.sampleRate);
      chunks.get(message.conversationId)!.push(int16FromBytes(message.pcm).slice());
    } else {
      if (conv.animationLast) throw new Error('animation after last');
      conv.animationMessages += 1;
      conv.animationLast = message.last;
      if (message.last !== message.animation.end) throw new Error('last flag differs from end');
      conv.frames.push(...animationToDriveFrames(message.animation, conv.frames.length));
    }
  }
  for (const [id, conv] of out) {
    const parts = chunks.get(id)!;
    const total = parts.reduce((n, p) => n + p.length, 0);
    conv.audio = new Int16Array(total);
    let o = 0;
    for (const p of parts) {
      conv.audio.set(p, o);
      o += p.length;
    }
  }
  return out;
}
