/**
 * The two fields SDKs in the field send: `ClientConfigureSession.extra_params` (accepted,
 * size-bounded, known keys checked) and `ClientAudioInput.trace_context` (its trace id on the
 * request's log lines), over a real WebSocket to the service.
 */
import { wire } from '@avatar-drive/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extraParamsRefusal, MAX_EXTRA_PARAMS, MAX_EXTRA_PARAMS_BYTES } from '../src/ingress/extra-params.js';
import { parseTraceparent } from '../src/ingress/trace-context.js';
import type { RunningService } from '../src/service.js';
import {
  LogCapture,
  makeAvatarsDir,
  mintToken,
  startTestService,
  TestClient,
  tone,
} from './support/harness.js';

const log = new LogCapture();
let service: RunningService;
beforeAll(async () => {
  service = await startTestService({ avatarsDir: await makeAvatarsDir(), log, standIn: true });
});
afterAll(async () => {
  await service?.close();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

describe('trace_context', () => {
  it('parses W3C traceparent and ignores what is not one', () => {
    expect(parseTraceparent(TRACEPARENT)).toEqual({
      traceId: TRACE_ID,
      parentSpanId: '00f067aa0ba902b7',
      sampled: true,
    });
    expect(parseTraceparent(`00-${TRACE_ID}-00f067aa0ba902b7-00`)?.sampled).toBe(false);
    // A later version may append fields; version 00 may not.
    expect(parseTraceparent(`01-${TRACE_ID}-00f067aa0ba902b7-01-extra`)?.traceId).toBe(TRACE_ID);
    expect(parseTraceparent(`00-${TRACE_ID}-00f067aa0ba902b7-01-extra`)).toBeUndefined();
    expect(parseTraceparent(`ff-${TRACE_ID}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${'0'.repeat(16)}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID.toUpperCase()}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect(parseTraceparent('')).toBeUndefined();
    expect(parseTraceparent(undefined)).toBeUndefined();
  });

  it("puts the request's trace id on its log lines", async () => {
    const client = await TestClient.open(service, await mintToken(service));
    client.configure(16000);
    await client.confirmed();
    const pcm = tone(300);
    client.send({
      type: wire.MessageType.CLIENT_AUDIO_INPUT,
      data: {
        case: 'clientAudioInput',
        value: {
          reqId: 'traced',
          end: false,
          audio: new Uint8Array(pcm.buffer),
          traceContext: { traceparent: TRACEPARENT, tracestate: 'vendor=1' },
        },
      },
    });
    client.audio('traced', tone(100), true);
    client.audio('untraced', tone(100), true);
    await client.waitFor(
      (m) =>
        m.data.case === 'serverPlaybackState' &&
        m.data.value.reqId === 'untraced' &&
        m.data.value.state === wire.PlaybackState.ENDED,
      10_000,
    );
    client.close();
    const lines = log.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const traced = lines.filter((l) => l.reqId === 'traced');
    expect(traced.map((l) => l.msg)).toEqual(['request started', 'request finished']);
    for (const line of traced) expect(line.traceId).toBe(TRACE_ID);
    expect(traced[0]!.parentSpanId).toBe('00f067aa0ba902b7');
    const untraced = lines.filter((l) => l.reqId === 'untraced');
    expect(untraced.length).toBe(2);
    for (const line of untraced) expect(line.traceId).toBeUndefined();
  });
});

describe('extra_params', () => {
  it('bounds entries, bytes and key length, and checks the keys the service acts on', () => {
    expect(extraParamsRefusal(undefined)).toBeUndefined();
    expect(extraParamsRefusal({ anything: 'goes', 'livekit.playback_rpc': 'off' })).toBeUndefined();
    const many = Object.fromEntries(Array.from({ length: MAX_EXTRA_PARAMS + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(extraParamsRefusal(many)?.message).toMatch(/at most 32/);
    expect(extraParamsRefusal({ big: 'x'.repeat(MAX_EXTRA_PARAMS_BYTES) })?.message).toMatch(/4096 bytes/);
    expect(extraParamsRefusal({ ['k'.repeat(200)]: 'v' })?.message).toMatch(/keys must be/);
    expect(extraParamsRefusal({ '': 'v' })?.code).toBe('invalidRequest');
    expect(extraParamsRefusal({ 'livekit.playback_rpc': 'maybe' })?.message).toMatch(/"on" or "off"/);
  });

  it('is accepted within bounds and refused past them with a typed error, over the wire', async () => {
    const ok = await TestClient.open(service, await mintToken(service));
    ok.configure(16000, { extraParams: { 'sdk.feature': 'x', 'livekit.playback_rpc': 'on' } });
    await ok.confirmed();
    ok.close();

    const tooBig = await TestClient.open(service, await mintToken(service));
    tooBig.configure(16000, { extraParams: { blob: 'x'.repeat(5000) } });
    const error = await tooBig.waitFor((m) => m.data.case === 'serverError');
    expect(error.data.case === 'serverError' && error.data.value.message).toMatch(
      /^invalidRequest: extra_params holds/,
    );
    expect((await tooBig.closed).code).toBeGreaterThanOrEqual(4000);
  });
});
