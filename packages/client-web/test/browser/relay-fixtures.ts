/** Relay messages a Host-mode server would send, built with core's encoder (Node side of the tests). */
import {
  ARKIT_INDEX,
  createDriveFrame,
  type RelayEncoder,
  responseAnimationMessage,
} from '@avatar-drive/core';

export const SR = 16000;

/** Base64 of bytes, to hand them to the page. */
export const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/**
 * An utterance of `seconds`: silence with 440 Hz bursts starting at frames `starts`, each
 * `burstFrames` long, and matching animation where jawOpen ramps 0 → 1 over `rampFrames` from
 * each burst's first frame, holds, and drops to 0 after it.
 */
export function burstUtterance(
  encoder: RelayEncoder,
  conversationId: string,
  options: { seconds: number; starts: number[]; burstFrames: number; rampFrames: number; chunkMs?: number },
): { audio: string[]; frames: string[] } {
  const { seconds, starts, burstFrames, rampFrames } = options;
  const pcm = new Int16Array(Math.round(SR * seconds));
  for (const k0 of starts) {
    const a = (k0 * SR) / 25;
    const b = Math.min(pcm.length, a + (burstFrames * SR) / 25);
    for (let i = a; i < b; i++) pcm[i] = Math.round(16000 * Math.sin((2 * Math.PI * 440 * (i - a)) / SR));
  }
  const chunk = ((options.chunkMs ?? 200) * SR) / 1000;
  const audio: string[] = [];
  for (let at = 0; at < pcm.length; at += chunk) {
    const last = at + chunk >= pcm.length;
    audio.push(b64(encoder.audio(conversationId, pcm.subarray(at, at + chunk), { sampleRate: SR, last })));
  }
  const frameCount = Math.ceil(seconds * 25);
  const frames = Array.from({ length: frameCount }, (_, k) => {
    const f = createDriveFrame(k);
    const burst = starts.find((k0) => k >= k0 && k < k0 + burstFrames);
    if (burst !== undefined) f.expression[ARKIT_INDEX.jawOpen] = Math.min(1, (k - burst) / rampFrames);
    return f;
  });
  const messages: string[] = [];
  for (let at = 0; at < frames.length; at += 10) {
    const end = at + 10 >= frames.length;
    const message = responseAnimationMessage({
      reqId: conversationId,
      frames: frames.slice(at, at + 10),
      end,
    });
    messages.push(b64(encoder.animation(conversationId, message.data.value as never)));
  }
  return { audio, frames: messages };
}
