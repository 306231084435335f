/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { equals, fromJsonString } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import {
  animationToDriveFrames,
  decodeMessage,
  decodeRelayMessage,
  encodeMessage,
  encodeRelayMessage,
  MessageSchema,
} from '../src/index.js';
import { fromHex, goldenFiles, toHex } from './golden/files.js';
import {
  GOLDEN_FRAMES,
  GOLDEN_RESPONSE_ANIMATION_PAYLOAD,
  RELAY_VECTORS,
  WIRE_VECTORS,
} from './golden/vectors.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const readFixture = (file: string) => readFileSync(join(fixtures, file), 'utf8');

describe('golden byte vectors', () => {
  it('every fixture file is what the code produces (run golden:write after an intended change)', () => {
    for (const [file, content] of goldenFiles()) {
      expect(readFixture(file), file).toBe(content);
    }
  });

  for (const { name, message } of WIRE_VECTORS) {
    it(`${name}: encode gives the fixture bytes, decode gives the values back`, () => {
      const hex = readFixture(`${name}.hex`).trim();
      expect(toHex(encodeMessage(message))).toBe(hex);
      const decoded = decodeMessage(fromHex(hex));
      expect(equals(MessageSchema, decoded, message)).toBe(true);
      const fromJson = fromJsonString(MessageSchema, readFixture(`${name}.json`));
      expect(equals(MessageSchema, decoded, fromJson)).toBe(true);
    });
  }

  it('response-animation carries the two golden keyframes exactly', () => {
    const decoded = decodeMessage(fromHex(readFixture('response-animation.hex')));
    if (decoded.data.case !== 'serverResponseAnimation') throw new Error('wrong case');
    const frames = animationToDriveFrames(decoded.data.value);
    expect(frames).toEqual(GOLDEN_FRAMES);
    expect(frames[1]!.index).toBe(1);
  });

  it('a few bytes spelled out, so the layout is pinned independently of the encoder', () => {
    // Message{type=7 (CLIENT_INTERRUPT), client_interrupt(8){req_id(1)="req-1"}}
    expect(readFixture('interrupt.hex').trim()).toBe('080742070a057265712d31');
    // magic ad, v1, audio, no flags, seq 0, id "conv-1", 16000 Hz, 4 samples.
    expect(readFixture('relay-audio.hex').trim()).toBe(
      ['ad', '01', '01', '00', '00000000', '06', '636f6e762d31', '00003e80', '00000100ffffff7f'].join(''),
    );
  });

  for (const { name, message } of RELAY_VECTORS) {
    it(`${name}: relay encode gives the fixture bytes, decode gives the fields back`, () => {
      const hex = readFixture(`${name}.hex`).trim();
      expect(toHex(encodeRelayMessage(message))).toBe(hex);
      const decoded = decodeRelayMessage(fromHex(hex));
      const json = JSON.parse(readFixture(`${name}.json`)) as Record<string, unknown>;
      expect(decoded.kind).toBe(json.kind);
      expect(decoded.conversationId).toBe(json.conversationId);
      expect(decoded.sequence).toBe(json.sequence);
      expect(decoded.last).toBe(json.last);
      if (decoded.kind === 'audio') {
        expect(decoded.sampleRate).toBe(json.sampleRate);
        expect(toHex(decoded.pcm)).toBe(json.pcm);
      } else {
        expect(toHex(decoded.payload)).toBe(json.payload);
        expect(decoded.payload).toEqual(GOLDEN_RESPONSE_ANIMATION_PAYLOAD);
        expect(animationToDriveFrames(decoded.animation)).toEqual(GOLDEN_FRAMES);
      }
    });
  }
});
