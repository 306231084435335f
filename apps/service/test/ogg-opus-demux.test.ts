/**
 * The Ogg Opus demuxer and decoder on their own: the page checksum against opusenc's pages, the
 * page reader and the stream decoder at every split point, and each refusal's text.
 */
import { isAvatarError, oggCrc } from '@avatar-drive/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { OggOpusStream } from '../src/audio/ogg-opus-stream.js';
import { type OggPage, OggPageReader } from '../src/audio/ogg-pages.js';
import { OpusPacketDecoder } from '../src/audio/opus-decoder.js';
import { opusDecodeRate } from '../src/audio/session-audio.js';
import { atRate, opusenc, speech } from './support/ogg-opus-files.js';
import { joinBytes, pageInfo, pagesOf, reseal } from './support/ogg-pages.js';

/** A short stream with many small pages (opusenc flushes a page every 20 ms of audio). */
let short: Uint8Array;
/** A longer one with opusenc's default pages (up to a second each). */
let long: Uint8Array;
let longPcm: Int16Array;

beforeAll(() => {
  const source = speech('Yes.');
  const pcm = atRate(source, 16000).subarray(0, 4800); // 0.3 s
  short = opusenc(pcm, 16000, { kbps: 16, maxDelayMs: 20 });
  longPcm = atRate(speech('Opus in, animation out.'), 16000);
  long = opusenc(longPcm, 16000, { kbps: 24 });
});

function decodeAll(pieces: Uint8Array[], rate: 8000 | 16000 = 16000): Int16Array {
  const stream = new OggOpusStream(new OpusPacketDecoder(rate));
  const out = pieces.map((p) => stream.push(p));
  stream.finish();
  return Int16Array.from(out.flatMap((p) => Array.from(p)));
}

function refusal(act: () => void): string {
  try {
    act();
  } catch (error) {
    if (isAvatarError(error) && error.code === 'invalidAudio') return error.message;
    throw error;
  }
  throw new Error('not refused');
}

function pagesRead(pieces: Uint8Array[]): Array<Omit<OggPage, 'lacing' | 'body'> & { body: number[] }> {
  const reader = new OggPageReader();
  const pages: Array<Omit<OggPage, 'lacing' | 'body'> & { body: number[] }> = [];
  for (const piece of pieces)
    reader.push(piece, (p) => pages.push({ ...p, body: Array.from(p.body), lacing: undefined } as never));
  expect(reader.pending).toBe(0);
  return pages;
}

describe('the Ogg page checksum', () => {
  it('is the CRC opusenc wrote into every page', () => {
    for (const page of pagesOf(long)) {
      const stored = new DataView(page.buffer).getUint32(22, true);
      const zeroed = page.slice();
      zeroed.set([0, 0, 0, 0], 22);
      expect(oggCrc(zeroed)).toBe(stored);
    }
  });
});

describe('the page reader', () => {
  it('reads the same pages whatever the split: at every byte, and one byte at a time', () => {
    const whole = pagesRead([short]);
    expect(whole.length).toBe(pagesOf(short).length);
    expect(whole.map((p) => p.sequence)).toEqual(whole.map((_, i) => i));
    for (let cut = 1; cut < short.length; cut++) {
      expect(pagesRead([short.subarray(0, cut), short.subarray(cut)])).toEqual(whole);
    }
    expect(pagesRead(Array.from(short, (_, i) => short.subarray(i, i + 1)))).toEqual(whole);
  });
});

describe('the Ogg Opus stream', () => {
  it('decodes exactly the encoder’s input length (pre-skip and end trim applied)', () => {
    expect(decodeAll([long]).length).toBe(longPcm.length);
    expect(decodeAll([long], 8000).length).toBe(longPcm.length / 2);
  });

  it('yields the same PCM for a split at every byte', () => {
    const whole = decodeAll([short]);
    expect(whole.length).toBe(4800);
    for (let cut = 0; cut <= short.length; cut++) {
      const parts = decodeAll([short.subarray(0, cut), short.subarray(cut)]);
      if (parts.length !== whole.length || parts.some((v, i) => v !== whole[i])) {
        throw new Error(`split at byte ${cut} changed the PCM`);
      }
    }
  });

  it('accepts a stream that stops at a page boundary without its EOS page, and keeps every sample', () => {
    const pages = pagesOf(long);
    const withoutEos = decodeAll([joinBytes(pages.slice(0, -1))]);
    const last = pages.at(-1)!.slice();
    last[5] = last[5]! & ~0x04;
    const eosCleared = decodeAll([joinBytes([...pages.slice(0, -1), reseal(last)])]);
    // Without the end trim the last page's padding stays: at least the encoder's input.
    expect(eosCleared.length).toBeGreaterThanOrEqual(longPcm.length);
    expect(withoutEos.length).toBeLessThan(longPcm.length);
  });

  it('refuses each kind of bad input with what to change', () => {
    const pages = pagesOf(long);
    const stream = () => new OggOpusStream(new OpusPacketDecoder(16000));
    // A byte changed inside an audio page.
    const crc = long.slice();
    crc[pages[0]!.length + pages[1]!.length + 60]! ^= 0x40;
    expect(refusal(() => stream().push(crc))).toMatch(/fails its CRC check/);
    // Not Ogg at all.
    expect(refusal(() => stream().push(new TextEncoder().encode('RIFF....WAVEfmt and then some')))).toMatch(
      /not an Ogg page/,
    );
    // An Ogg stream of another codec.
    const head = pages[0]!.slice();
    head.set(new TextEncoder().encode('Speex   '), 28);
    expect(refusal(() => stream().push(reseal(head)))).toMatch(/first packet is not an OpusHead .*"Speex/);
    // Starting anywhere but at the first page.
    expect(refusal(() => stream().push(pages[2]!))).toMatch(/not a beginning-of-stream page/);
    // A page dropped.
    expect(refusal(() => stream().push(joinBytes([pages[0]!, pages[1]!, pages[3]!])))).toMatch(
      /page 3 arrived where page 2 was expected/,
    );
    // A second logical stream multiplexed in, and a chained one after the EOS.
    const other = pagesOf(short);
    expect(refusal(() => stream().push(joinBytes([pages[0]!, other[0]!])))).toMatch(
      /a second Ogg logical stream/,
    );
    expect(refusal(() => stream().push(joinBytes([long, short])))).toMatch(
      /after the Ogg end-of-stream page/,
    );
    // An audio packet libopus refuses (the page is otherwise intact).
    const audio = pages[2]!.slice();
    audio.set([0xff, 0xff, 0xff], 27 + audio[26]!);
    expect(refusal(() => stream().push(joinBytes([pages[0]!, pages[1]!, reseal(audio)])))).toMatch(
      /is not a valid Opus packet \(opus: /,
    );
    // Cut inside a page, or before the headers, then ended.
    expect(
      refusal(() => {
        const s = stream();
        s.push(long.subarray(0, long.length - 10));
        s.finish();
      }),
    ).toMatch(/ended inside a page \(\d+ bytes of an incomplete page\)/);
    expect(
      refusal(() => {
        const s = stream();
        s.push(pages[0]!);
        s.finish();
      }),
    ).toMatch(/ended before its OpusHead and OpusTags/);
    // More than two channels.
    const surround = pages[0]!.slice();
    surround[28 + 9] = 6;
    surround[28 + 18] = 1;
    expect(refusal(() => stream().push(reseal(surround)))).toMatch(
      /6 channels with channel mapping family 1/,
    );
    expect(pageInfo(pages[0]!).flags & 0x02).toBe(0x02);
  });
});

describe('the decode rate', () => {
  it('is 16 kHz for the engine alone (8 kHz streams stay at 8), the stream’s rate for a room (12 → 16)', () => {
    const rates = [8000, 12000, 16000, 24000, 48000] as const;
    expect(rates.map((r) => opusDecodeRate(r, false))).toEqual([8000, 16000, 16000, 16000, 16000]);
    expect(rates.map((r) => opusDecodeRate(r, true))).toEqual([8000, 16000, 16000, 24000, 48000]);
  });
});
