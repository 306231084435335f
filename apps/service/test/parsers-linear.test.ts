/**
 * No parser that reads a client's request line or headers before authentication is worse than
 * linear (issue 32, N1/N2): for generated hostile inputs — a short run of the characters these
 * parsers care about (slashes, spaces, commas, dashes, digits, quotes…) repeated, between a
 * prefix that gets the parser going and a suffix that makes it fail late — the time per byte at
 * 16 KB is compared with the time per byte at 1 KB. Linear is about 1×; the quadratic patterns
 * this replaced were 16× (the size ratio). The bound (6×) leaves a wide margin both ways; each
 * figure is the fastest of several timings, so a busy machine's pauses do not count.
 */
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { requestOrigin, TrustedProxies } from '../src/client-address.js';
import { notModified, requestedRange } from '../src/http/conditional-range.js';
import { handshakeProblem, ingressTarget } from '../src/ingress/socket/handshake.js';

const SMALL = 1024;
const LARGE = 16 * 1024;
const BOUND = 6;

/** `prefix` + `unit` repeated to `size` characters + `suffix`. */
const build = (prefix: string, unit: string, suffix: string, size: number) =>
  prefix + unit.repeat(Math.ceil(size / unit.length)).slice(0, size) + suffix;

/** Fastest of `tries` timings of `calls` calls of `run(input)`, in ms. */
function fastest(run: (input: string) => unknown, input: string, calls: number, tries = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let t = 0; t < tries; t++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) run(input);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Time per byte at 16 KB over time per byte at 1 KB (16 calls of 1 KB against 1 call of 16 KB). */
function growth(run: (input: string) => unknown, prefix: string, unit: string, suffix: string): number {
  const small = build(prefix, unit, suffix, SMALL);
  const large = build(prefix, unit, suffix, LARGE);
  // Warm up both sizes (the JIT), then measure; the small input's 16 calls cover the same bytes.
  fastest(run, small, 16, 2);
  fastest(run, large, 1, 2);
  const tSmall = fastest(run, small, (LARGE / SMALL) * 4);
  const tLarge = fastest(run, large, 4);
  return tLarge / Math.max(tSmall, 0.05);
}

const HOSTILE_CHARS = [' ', '\t', '/', ',', '-', '=', '0', '9', 'a', '.', ':', '"', 'W', '[', ';'];
// Single characters as often as short runs: the classic quadratic cases repeat one character.
const unitArb = fc.oneof(
  fc.constantFrom(...HOSTILE_CHARS),
  fc.array(fc.constantFrom(...HOSTILE_CHARS), { minLength: 2, maxLength: 4 }).map((chars) => chars.join('')),
);
const suffixArb = fc.constantFrom('x', '!', '', '\u0000', '"');

/** A request with `headers` (lower-case names) from a trusted proxy at 127.0.0.1. */
function fakeRequest(headers: Record<string, string>): IncomingMessage {
  return {
    method: 'GET',
    headers: {
      upgrade: 'websocket',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'sec-websocket-version': '13',
      ...headers,
    },
    socket: { remoteAddress: '127.0.0.1', localAddress: '127.0.0.1', localPort: 8080 },
  } as unknown as IncomingMessage;
}
const TRUSTED = new TrustedProxies(['127.0.0.1']);

/**
 * Each parser's prefixes, and the inputs that are always tried (fast-check's examples) besides
 * the generated ones: the attack kit's findings and their neighbours.
 */
const PARSERS: Array<{
  name: string;
  prefixes: string[];
  examples?: Array<[string, string, string]>;
  run: (input: string) => unknown;
}> = [
  {
    name: 'ingress path (URL + trailing slashes; undefined when malformed)',
    prefixes: ['/v2', '/v2/driveningress', '/'],
    examples: [['/v2', '/', 'x']],
    run: (input) => ingressTarget(input),
  },
  {
    name: 'Range',
    prefixes: ['bytes=', 'bytes = 0', 'bytes=0-', ' bytes', ''],
    examples: [
      ['bytes=', ' ', 'x'],
      ['bytes=0', ' ', 'x'],
      ['bytes=0-', ' ', 'x'],
    ],
    run: (input) => requestedRange(input, undefined, 100_000, '"etag"'),
  },
  {
    name: 'If-Range + Range',
    prefixes: ['"etag"', 'W/"', ''],
    run: (input) => requestedRange('bytes=0-9', input, 100_000, '"etag"'),
  },
  {
    name: 'If-None-Match',
    prefixes: ['W/"', '"etag", ', '*', ''],
    run: (input) => notModified(input, '"etag"'),
  },
  {
    name: 'Sec-WebSocket-Protocol',
    prefixes: ['avd', 'avd, ', 'a,b', ''],
    examples: [
      ['avd', ' ', 'x'],
      ['avd', ', avd', ''],
    ],
    run: (input) => handshakeProblem(fakeRequest({ 'sec-websocket-protocol': input })),
  },
  {
    name: 'Sec-WebSocket-Key',
    prefixes: ['dGhlIHNhbXBsZSBub25jZQ', 'a', ''],
    run: (input) => handshakeProblem(fakeRequest({ 'sec-websocket-key': input })),
  },
  {
    name: 'X-Forwarded-For / -Host / -Proto',
    prefixes: ['10.0.0.1, ', 'a.b', '[::1', 'a-', ''],
    run: (input) =>
      requestOrigin(
        fakeRequest({ 'x-forwarded-for': input, 'x-forwarded-host': input, 'x-forwarded-proto': input }),
        TRUSTED,
      ),
  },
];

describe('request-line and header parsers grow linearly with hostile input (1 KB vs 16 KB)', () => {
  for (const parser of PARSERS) {
    it(parser.name, () => {
      let worst = { ratio: 0, input: '' };
      fc.assert(
        fc.property(fc.constantFrom(...parser.prefixes), unitArb, suffixArb, (prefix, unit, suffix) => {
          const ratio = growth(parser.run, prefix, unit, suffix);
          if (ratio > worst.ratio)
            worst = {
              ratio,
              input: `${JSON.stringify(prefix)} + ${JSON.stringify(unit)}… + ${JSON.stringify(suffix)}`,
            };
          return ratio < BOUND;
        }),
        { numRuns: 25, examples: parser.examples ?? [] },
      );
      console.log(
        `[linear] ${parser.name}: worst 16 KB/1 KB time per byte ${worst.ratio.toFixed(2)} against < ${BOUND} (quadratic: 16; margin ×${(BOUND / worst.ratio).toFixed(1)}) at ${worst.input}`,
      );
    });
  }
});
