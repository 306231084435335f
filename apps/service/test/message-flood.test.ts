/**
 * The flood guard's rule on a made-up clock (issue 32, N3): what honest clients send never comes
 * near the bound, with the margin printed; floods of light messages pass it within a second.
 */
import { describe, expect, it } from 'vitest';
import {
  LIGHT_MESSAGE_BURST,
  LIGHT_MESSAGES_PER_SECOND,
  MessageFloodGuard,
  MIN_AUDIO_BYTES,
} from '../src/capacity/message-flood.js';

/** One message a client sends: when (ms) and how many bytes of audio it carries (0 = control). */
type Sent = { at: number; audioBytes: number };

/** Feeds `messages` to a guard; returns the highest level seen and when (if ever) it tripped. */
function run(messages: Sent[]): { maxLevel: number; trippedAt: number | undefined } {
  let now = 0;
  const guard = new MessageFloodGuard(() => now);
  let maxLevel = 0;
  for (const m of messages) {
    now = m.at;
    if (guard.arrived()) return { maxLevel: guard.level, trippedAt: m.at };
    guard.carried(m.audioBytes);
    maxLevel = Math.max(maxLevel, guard.level);
  }
  return { maxLevel, trippedAt: undefined };
}

/**
 * A conversation of `minutes`: utterances of `utteranceMs` in `chunkMs` chunks of `bytesPerMs`
 * audio, sent in real time (or all at once when `burst`), each ended by an empty end marker,
 * plus the given control messages per utterance, a pause between.
 */
function conversation(o: {
  minutes: number;
  chunkMs: number;
  bytesPerMs: number;
  utteranceMs?: number;
  burst?: boolean;
  controlsPerUtterance?: number;
}): Sent[] {
  const out: Sent[] = [{ at: 0, audioBytes: 0 }]; // configure
  const utteranceMs = o.utteranceMs ?? 3000;
  let t = 10;
  while (t < o.minutes * 60_000) {
    for (let ms = 0; ms < utteranceMs; ms += o.chunkMs) {
      out.push({ at: o.burst ? t : t + ms, audioBytes: Math.round(o.chunkMs * o.bytesPerMs) });
    }
    const end = o.burst ? t : t + utteranceMs;
    out.push({ at: end, audioBytes: 0 }); // end marker without audio
    for (let i = 0; i < (o.controlsPerUtterance ?? 0); i++) out.push({ at: end + i, audioBytes: 0 });
    t += utteranceMs + 500;
  }
  return out;
}

describe('MessageFloodGuard', () => {
  const honest: [string, Parameters<typeof conversation>[0]][] = [
    [
      '20 ms chunks of 16 kHz PCM, real time (client-web, server-sdk)',
      { minutes: 10, chunkMs: 20, bytesPerMs: 32 },
    ],
    [
      '10 ms chunks of 48 kHz PCM, real time (a WebRTC-paced agent)',
      { minutes: 10, chunkMs: 10, bytesPerMs: 96 },
    ],
    [
      '128-frame AudioWorklet chunks at 48 kHz forwarded one by one',
      { minutes: 5, chunkMs: 128 / 48, bytesPerMs: 96 },
    ],
    [
      'a finished TTS reply sent at once in 40 ms chunks (a burst of 250)',
      { minutes: 10, chunkMs: 40, bytesPerMs: 32, utteranceMs: 10_000, burst: true },
    ],
    ['20 ms Ogg Opus pages (~60 bytes each)', { minutes: 10, chunkMs: 20, bytesPerMs: 3 }],
    [
      'an interrupt, pause and resume with every utterance',
      { minutes: 10, chunkMs: 20, bytesPerMs: 32, controlsPerUtterance: 3 },
    ],
  ];
  for (const [name, pattern] of honest) {
    it(`honest: ${name} never comes near the bound`, () => {
      const { maxLevel, trippedAt } = run(conversation(pattern));
      console.log(
        `flood guard, ${name}: at most ${maxLevel.toFixed(1)} light messages in the bucket, bound ${LIGHT_MESSAGE_BURST}`,
      );
      expect(trippedAt).toBeUndefined();
      expect(maxLevel).toBeLessThan(LIGHT_MESSAGE_BURST / 10);
    });
  }

  it('honest: 40 control messages a second for ten minutes (under the sustained rate) is allowed', () => {
    const messages = Array.from({ length: 40 * 600 }, (_, i) => ({ at: i * 25, audioBytes: 0 }));
    expect(run(messages).trippedAt).toBeUndefined();
  });

  it.each([
    ['control messages as fast as the intake budget lets them in (800/s)', 800, 0],
    ['one-sample audio frames (800/s)', 800, 2],
    ['audio frames just under the minimum (700/s)', 700, MIN_AUDIO_BYTES - 2],
    ['control messages at twice the sustained rate', 2 * LIGHT_MESSAGES_PER_SECOND, 0],
  ])('flood: %s is caught', (_name, perSecond, audioBytes) => {
    const messages = Array.from({ length: perSecond * 60 }, (_, i) => ({
      at: (i * 1000) / perSecond,
      audioBytes,
    }));
    const { trippedAt } = run(messages);
    expect(trippedAt).toBeDefined();
    // The burst, filled at the rate over the sustained one.
    const expected = (LIGHT_MESSAGE_BURST / (perSecond - LIGHT_MESSAGES_PER_SECOND)) * 1000;
    expect(trippedAt!).toBeGreaterThan(expected * 0.9);
    expect(trippedAt!).toBeLessThan(expected * 1.1 + 1000 / perSecond);
  });

  it('the message says what to do', () => {
    expect(MessageFloodGuard.explain()).toMatch(/Send audio in chunks of 10–100 ms .* open a new session\.$/);
  });
});
