import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { audioTemplates, framedTemplates, REQ_ID_BYTES } from '../bench/drive-messages.js';
import {
  clientCloseFrame,
  clientFrame,
  OPCODE_BINARY,
  OPCODE_CLOSE,
  OPCODE_PING,
  OPCODE_TEXT,
  type ServerFrameHandler,
  ServerFrameReader,
} from '../bench/websocket-frames.js';
import { acceptFor, handshakeProblem, parseUpgradeResponse } from '../bench/websocket-handshake.js';

// ws's own framing, as the reference: its Sender and Receiver are exported but not typed.
const { Sender, Receiver } = createRequire(import.meta.url)('ws') as {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean },
    ): Buffer[];
  };
  Receiver: new (options: { isServer: boolean }) => Writable;
};

/** A frame as a server sends it (unmasked), framed by ws itself. */
function serverFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  return Buffer.concat(Sender.frame(payload, { fin, opcode, mask: false, readOnly: false }));
}

type Event = [string, ...unknown[]];

function recorder(): { handler: ServerFrameHandler; events: Event[] } {
  const events: Event[] = [];
  return {
    events,
    handler: {
      onMessage: (opcode, bytes, start, end) =>
        events.push(['message', opcode, bytes.toString('latin1', start, end)]),
      onPing: (payload) => events.push(['ping', payload.toString()]),
      onClose: (code, reason) => events.push(['close', code, reason]),
      onProtocolError: (code, reason) => events.push(['error', code, reason]),
    },
  };
}

const payload = (n: number, fill = 'x') => Buffer.alloc(n, fill);

describe('ServerFrameReader', () => {
  const stream = Buffer.concat([
    serverFrame(OPCODE_BINARY, Buffer.from('one')),
    serverFrame(OPCODE_BINARY, payload(300, 'a')), // 16-bit length
    serverFrame(OPCODE_PING, Buffer.from('are you there')),
    serverFrame(OPCODE_BINARY, payload(70_000, 'b')), // 64-bit length
    serverFrame(OPCODE_TEXT, Buffer.from('text')),
  ]);
  const expected: Event[] = [
    ['message', OPCODE_BINARY, 'one'],
    ['message', OPCODE_BINARY, 'a'.repeat(300)],
    ['ping', 'are you there'],
    ['message', OPCODE_BINARY, 'b'.repeat(70_000)],
    ['message', OPCODE_TEXT, 'text'],
  ];

  it('hands over every frame of a read that holds several', () => {
    const { handler, events } = recorder();
    new ServerFrameReader(handler).push(stream);
    expect(events).toEqual(expected);
  });

  it('reassembles frames split across reads at any byte, in a read buffer that is reused', () => {
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const { handler, events } = recorder();
      const reader = new ServerFrameReader(handler);
      const shared = Buffer.alloc(size);
      for (let p = 0; p < stream.length; p += size) {
        const n = stream.copy(shared, 0, p, Math.min(p + size, stream.length));
        reader.push(shared, 0, n);
        shared.fill(0); // what a later read into the same buffer would do
      }
      expect(events, `reads of ${size} bytes`).toEqual(expected);
    }
  });

  it('reassembles a fragmented message, with a ping between its fragments', () => {
    const { handler, events } = recorder();
    new ServerFrameReader(handler).push(
      Buffer.concat([
        serverFrame(OPCODE_BINARY, Buffer.from('frag'), false),
        serverFrame(OPCODE_PING, Buffer.from('p')),
        serverFrame(0, Buffer.from('men'), false),
        serverFrame(0, Buffer.from('ted'), true),
      ]),
    );
    expect(events).toEqual([
      ['ping', 'p'],
      ['message', OPCODE_BINARY, 'fragmented'],
    ]);
  });

  it('reports the close frame and reads nothing after it', () => {
    const { handler, events } = recorder();
    const close = Buffer.concat([Buffer.from([0x0f, 0xa2]), Buffer.from('session duration limit')]);
    new ServerFrameReader(handler).push(
      Buffer.concat([serverFrame(OPCODE_CLOSE, close), serverFrame(OPCODE_BINARY, Buffer.from('late'))]),
    );
    expect(events).toEqual([['close', 4002, 'session duration limit']]);
  });

  it('refuses what a server must not send', () => {
    const masked = Buffer.concat(
      Sender.frame(Buffer.from('m'), { fin: true, opcode: 2, mask: true, readOnly: false }),
    );
    const rsv = serverFrame(OPCODE_BINARY, Buffer.from('r'));
    rsv[0]! |= 0x40;
    const cases: [Buffer, number][] = [
      [masked, 1002],
      [rsv, 1002],
      [serverFrame(0, Buffer.from('c')), 1002], // continuation without a start
      [serverFrame(OPCODE_PING, Buffer.from('p'), false), 1002], // fragmented control frame
      [Buffer.from([0x83, 0x00]), 1002], // unknown opcode
    ];
    for (const [bytes, code] of cases) {
      const { handler, events } = recorder();
      new ServerFrameReader(handler).push(bytes);
      expect(events).toHaveLength(1);
      expect(events[0]!.slice(0, 2)).toEqual(['error', code]);
    }
    const { handler, events } = recorder();
    new ServerFrameReader(handler, 1000).push(serverFrame(OPCODE_BINARY, payload(1001)));
    expect(events[0]!.slice(0, 2)).toEqual(['error', 1009]);
  });
});

describe('client frames', () => {
  /** What ws's server-side receiver makes of bytes a client sent. */
  function receive(bytes: Buffer): Promise<{ messages: Buffer[]; closes: number[] }> {
    const receiver = new Receiver({ isServer: true });
    const messages: Buffer[] = [];
    const closes: number[] = [];
    receiver.on('message', (data: Buffer) => messages.push(data));
    receiver.on('conclude', (code: number) => closes.push(code));
    return new Promise((resolve, reject) => {
      receiver.on('error', reject);
      receiver.write(bytes, () => resolve({ messages, closes }));
    });
  }

  it('are masked with a zero key, so the payload goes out as it is, and ws reads them', async () => {
    const small = clientFrame(OPCODE_BINARY, Buffer.from('hello'));
    expect([...small.subarray(0, 6)]).toEqual([0x82, 0x85, 0, 0, 0, 0]);
    expect(small.subarray(6).toString()).toBe('hello');
    const big = payload(70_000, 'z');
    const { messages, closes } = await receive(
      Buffer.concat([
        small,
        clientFrame(OPCODE_BINARY, payload(300)),
        clientFrame(OPCODE_BINARY, big),
        clientCloseFrame(1000),
      ]),
    );
    expect(messages.map((m) => m.length)).toEqual([5, 300, 70_000]);
    expect(messages[2]!.equals(big)).toBe(true);
    expect(closes).toEqual([1000]);
  });

  it('carry the audio templates with the req_id where the template says', async () => {
    const pcm = new Int16Array(16000 * 0.05).map((_, i) => i);
    const plain = audioTemplates(pcm, 320);
    const framed = framedTemplates(plain);
    expect(framed.messages).toHaveLength(3); // 20 + 20 + 10 ms
    for (const [c, frame] of framed.messages.entries())
      frame.write('r'.repeat(REQ_ID_BYTES), framed.reqIdAt[c]!, 'latin1');
    const { messages } = await receive(Buffer.concat(framed.messages));
    messages.forEach((message, c) => {
      expect(message.length).toBe(plain.messages[c]!.length);
      const at = plain.reqIdAt[c]!;
      expect(message.toString('latin1', at, at + REQ_ID_BYTES)).toBe('r'.repeat(REQ_ID_BYTES));
    });
  });
});

describe('handshake', () => {
  it('checks the accept key against RFC 6455’s example', () => {
    expect(acceptFor('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    const bytes = (extra: string) =>
      Buffer.from(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${extra}\r\n\x82\x00`,
        'latin1',
      );
    const raw = bytes('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n');
    const ok = parseUpgradeResponse(raw)!;
    expect(handshakeProblem(ok, 'dGhlIHNhbXBsZSBub25jZQ==')).toBeUndefined();
    // What follows the blank line is the first frame, not header.
    expect([...raw.subarray(ok.headerBytes)]).toEqual([0x82, 0x00]);
    const extension = parseUpgradeResponse(
      bytes(
        'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Extensions: permessage-deflate\r\n',
      ),
    )!;
    expect(handshakeProblem(extension, 'dGhlIHNhbXBsZSBub25jZQ==')).toMatch(/extension/);
    expect(handshakeProblem(ok, 'another key')).toMatch(/Accept/);
    expect(parseUpgradeResponse(Buffer.from('HTTP/1.1 101 Switching'))).toBeUndefined();
  });
});
