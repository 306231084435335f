/**
 * New frames carved from shared slabs: each one is what core's createDriveFrame makes (fields,
 * lengths, zeros, Float32Arrays that core's wire packing accepts), and no two frames share a value,
 * across slab boundaries and across drivers.
 */
import { createDriveFrame, DRIVE_FRAME_FIELDS, driveFrameToFlame, FRAME_LAYOUT } from '@avatar-drive/core';
import { describe, expect, it } from 'vitest';
import { createDriver } from '../src/driver.js';
import { FRAMES_PER_SLAB, newDriveFrame } from '../src/frame-slab.js';
import { espeak } from './helpers.js';

describe('frame slabs', () => {
  it("makes createDriveFrame's frame: same fields, lengths and zeros", () => {
    const frame = newDriveFrame(7);
    const reference = createDriveFrame(7);
    expect(Object.keys(frame)).toEqual(Object.keys(reference));
    expect(frame.index).toBe(7);
    for (const field of DRIVE_FRAME_FIELDS) {
      expect(frame[field], field).toBeInstanceOf(Float32Array);
      expect(frame[field].length, field).toBe(FRAME_LAYOUT[field]);
      expect(Array.from(frame[field]), field).toEqual(Array.from(reference[field]));
    }
    expect(driveFrameToFlame(frame)).toEqual(driveFrameToFlame(reference));
  });

  it('never lets two frames share a value, across slab boundaries', () => {
    const frames = Array.from({ length: 3 * FRAMES_PER_SLAB + 5 }, (_, i) => newDriveFrame(i));
    // Write a distinct value into every element of every frame, then read them all back.
    let next = 1;
    for (const frame of frames) for (const field of DRIVE_FRAME_FIELDS) frame[field].fill(next++);
    next = 1;
    for (const frame of frames) {
      for (const field of DRIVE_FRAME_FIELDS) {
        const expected = next++;
        expect(frame[field].every((v) => v === expected)).toBe(true);
      }
    }
    // More frames come out zeroed, whatever the earlier ones hold.
    const later = newDriveFrame(0);
    for (const field of DRIVE_FRAME_FIELDS) expect(later[field].every((v) => v === 0)).toBe(true);
  });

  it("keeps drivers' frames apart when they are interleaved", () => {
    const { pcm, sampleRate } = espeak(
      'Two drivers share the slabs of new frames, and each one keeps its own frames apart from the other.',
    );
    const a = createDriver({ sampleRate });
    const b = createDriver({ sampleRate });
    const step = sampleRate / 50;
    const fromA = [];
    const fromB = [];
    for (let at = 0; at < pcm.length; at += step) {
      fromA.push(...a.push(pcm.subarray(at, at + step)));
      fromB.push(...b.push(pcm.subarray(at, at + step)));
    }
    expect(fromA.length).toBeGreaterThan(FRAMES_PER_SLAB);
    // Same input, same frames, yet distinct arrays: clearing A's frames leaves B's as they were.
    const before = fromB.map((f) => Array.from(f.expression));
    for (const frame of fromA) frame.expression.fill(0);
    expect(fromB.map((f) => Array.from(f.expression))).toEqual(before);
    expect(before.some((values) => values.some((v) => v > 0))).toBe(true);
    a.close();
    b.close();
  });
});
