import { describe, expect, it } from 'vitest';
import {
  AvatarError,
  CloseCode,
  configureSessionMessage,
  confirmSessionMessage,
  decodeMessage,
  encodeMessage,
  type IngressChannelHandlers,
  type IngressHandshakeOptions,
  type Message,
  openIngress,
  serverErrorMessage,
  type WebSocketLike,
} from '../src/index.js';

/** A WebSocketLike whose peer a test scripts step by step (no network). */
class ScriptedSocket implements WebSocketLike {
  binaryType = 'blob';
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly sent: Message[] = [];
  closedWith: [number | undefined, string | undefined] | undefined;
  constructor(readonly url: string) {}

  send(data: Uint8Array): void {
    this.sent.push(decodeMessage(data));
  }
  close(code?: number, reason?: string): void {
    this.closedWith = [code, reason];
    this.readyState = 2;
  }
  // The peer's side.
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(message: Message): void {
    this.onmessage?.({ data: encodeMessage(message).slice().buffer });
  }
  pushRaw(data: unknown): void {
    this.onmessage?.({ data });
  }
  error(event: unknown): void {
    this.onerror?.(event);
  }
  closed(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

const endpoint = { ingressUrl: 'ws://127.0.0.1:1/v2/driveningress', region: 'east' };
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.sig`;
const NOW = 1_800_000_000;
const FRESH = jwt({ exp: NOW + 600 });

interface Run {
  socket: ScriptedSocket;
  result: Promise<unknown>;
  events: string[];
  handlers: IngressChannelHandlers;
}

function start(options: Partial<IngressHandshakeOptions<ScriptedSocket>> = {}): Run {
  let socket: ScriptedSocket | undefined;
  const events: string[] = [];
  const handlers: IngressChannelHandlers = {
    onMessage: (message) => events.push(`message ${message.data.case}`),
    onBadFrame: (error) => events.push(`bad ${error.code}`),
    onClose: (code, reason) => events.push(`close ${code} ${reason}`),
  };
  const result = openIngress(
    {
      webSocket: (url) => {
        socket = new ScriptedSocket(url);
        return socket;
      },
      url: `${endpoint.ingressUrl}?id=mika`,
      endpoint,
      sessionToken: FRESH,
      configure: configureSessionMessage({ sampleRate: 16000 }),
      timeoutMs: 5000,
      nowSeconds: () => NOW,
      ...options,
    },
    handlers,
  );
  result.catch(() => undefined);
  return { socket: socket!, result, events, handlers };
}

async function failure(run: Run): Promise<AvatarError> {
  const outcome = await run.result.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(AvatarError);
  return outcome as AvatarError;
}

describe('the ingress handshake (upgrade → configure → confirm)', () => {
  it('sends the configure message on open and resolves on the confirm; later frames reach the handlers', async () => {
    const run = start();
    expect(run.socket.binaryType).toBe('arraybuffer');
    run.socket.open();
    expect(run.socket.sent.map((m) => m.data.case)).toEqual(['clientConfigureSession']);
    run.socket.push(confirmSessionMessage({ connectionId: 'conn_1', capabilities: ['playback_control'] }));
    // In the same turn as the confirm: must not be lost.
    run.socket.push(serverErrorMessage({ code: 4000, message: 'late' }));
    run.socket.pushRaw('text frame');
    const channel = (await run.result) as Awaited<ReturnType<typeof openIngress>>;
    expect(channel.connectionId).toBe('conn_1');
    expect(channel.capabilities).toEqual(['playback_control']);
    expect(channel.open).toBe(true);
    run.socket.closed(1000, 'bye');
    run.socket.closed(1000, 'again');
    expect(run.events).toEqual(['message serverError', 'bad protocolError', 'close 1000 bye']);
  });

  it('a ServerError then its close is one configure error with that close code and its retry meaning', async () => {
    const run = start();
    run.socket.open();
    run.socket.push(serverErrorMessage({ code: 4503, message: 'The shared store is down.' }));
    run.socket.closed(4503, 'upstream');
    expect(await failure(run)).toMatchObject({
      code: 'upstreamError',
      message: 'The shared store is down.',
      closeCode: 4503,
      retryable: true,
      phase: 'configure',
    });
    const auth = start();
    auth.socket.open();
    auth.socket.push(serverErrorMessage({ code: 4010, message: 'Token already used.' }));
    auth.socket.closed(4010, '');
    expect(await failure(auth)).toMatchObject({
      code: 'sessionTokenInvalid',
      closeCode: 4010,
      retryable: false,
    });
  });

  it('a refusal with the service error body takes its code and detail, and never shows the token', async () => {
    const run = start();
    run.socket.error({
      message: 'Unexpected server response: 404',
      refusal: {
        status: 404,
        body: { errors: [{ status: 404, code: 'avatarNotFound', detail: `No avatar for ${FRESH}.` }] },
        retryAfter: null,
      },
    });
    run.socket.closed(CloseCode.Abnormal);
    const error = await failure(run);
    expect(error).toMatchObject({
      code: 'avatarNotFound',
      httpStatus: 404,
      retryable: false,
      phase: 'connect',
    });
    expect(error.message).toContain(
      'Opening the ingress WebSocket at ws://127.0.0.1:1/v2/driveningress failed',
    );
    expect(error.message).not.toContain(FRESH);
    const busy = start();
    busy.socket.error({
      refusal: { status: 429, body: { errors: [{ code: 'concurrencyLimit' }] }, retryAfter: '3' },
    });
    busy.socket.closed(CloseCode.Abnormal);
    expect(await failure(busy)).toMatchObject({
      code: 'concurrencyLimit',
      retryable: false,
      details: { retryAfterSeconds: 3 },
    });
  });

  it('a refusal known only by the status in the platform text is named; 4xx final, 5xx retryable', async () => {
    const cases: [string, Partial<AvatarError>][] = [
      ['Unexpected server response: 401', { code: 'sessionTokenInvalid', retryable: false, httpStatus: 401 }],
      ["Expected HTTP 101 response but was '404 Not Found'", { code: 'avatarNotFound', retryable: false }],
      ['Received bad response code from server: 400.', { code: 'invalidRequest', retryable: false }],
      ['Unexpected server response: 502', { code: 'connectionFailed', retryable: true, httpStatus: 502 }],
    ];
    for (const [text, expected] of cases) {
      const run = start();
      run.socket.error({ message: text });
      run.socket.closed(CloseCode.Abnormal);
      expect(await failure(run), text).toMatchObject({ ...expected, closeCode: 1006, phase: 'connect' });
    }
  });

  it('an expired token is named from its exp, in the SDK’s own words', async () => {
    const run = start({
      sessionToken: jwt({ exp: NOW - 5 }),
      texts: { expiredToken: 'Call refreshToken() first.' },
    });
    run.socket.error({});
    run.socket.closed(CloseCode.Abnormal);
    const error = await failure(run);
    expect(error).toMatchObject({ code: 'sessionTokenExpired', retryable: false });
    expect(error.message).toMatch(/refused it\. Call refreshToken\(\) first\.$/);
  });

  it('an unnamed abnormal close is a retryable connectionFailed with the platform’s words', async () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const run = start();
    run.socket.error({ error: cause, message: cause.message });
    run.socket.closed(CloseCode.Abnormal);
    const error = await failure(run);
    expect(error).toMatchObject({
      code: 'connectionFailed',
      retryable: true,
      closeCode: 1006,
      phase: 'connect',
    });
    expect(error.message).toBe(
      'Could not connect to ws://127.0.0.1:1/v2/driveningress (ECONNREFUSED). Check the region or ingress URL; retrying may help.',
    );
    expect(error.cause).toBe(cause);
    const browser = start({ texts: { unreachable: (e, detail) => `down: ${e.region} ${String(detail)}` } });
    browser.socket.error({ type: 'error' });
    browser.socket.closed(CloseCode.Abnormal);
    expect((await failure(browser)).message).toBe('down: east undefined');
  });

  it('another close before the confirm follows the close-code table', async () => {
    const run = start();
    run.socket.open();
    run.socket.closed(4001, '');
    expect(await failure(run)).toMatchObject({ closeCode: 4001, retryable: false, phase: 'connect' });
    const restart = start();
    restart.socket.open();
    restart.socket.closed(1012, 'restarting');
    expect(await failure(restart)).toMatchObject({ closeCode: 1012, message: 'restarting' });
  });

  it('no confirm in time: a retryable connectionFailed, and the socket is closed', async () => {
    const run = start({ timeoutMs: 20 });
    run.socket.open();
    const error = await failure(run);
    expect(error).toMatchObject({ code: 'connectionFailed', retryable: true, phase: 'connect' });
    expect(error.message).toMatch(/within 20 ms/);
    expect(run.socket.closedWith).toEqual([CloseCode.InvalidRequest, 'confirm timeout']);
  });

  it('a bad frame or another message before the confirm is a protocolError; the socket is closed', async () => {
    const run = start();
    run.socket.open();
    run.socket.pushRaw(new Uint8Array([0xff, 0xff]));
    expect(await failure(run)).toMatchObject({ code: 'protocolError', phase: 'configure' });
    expect(run.socket.closedWith).toEqual([CloseCode.ProtocolError, 'protocol error']);
    const early = start();
    early.socket.open();
    early.socket.push(configureSessionMessage({ sampleRate: 16000 }));
    const error = await failure(early);
    expect(error.message).toMatch(/clientConfigureSession before confirming/);
  });

  it('a factory that throws: its AvatarError as is, anything else a connectionFailed', async () => {
    const own = new AvatarError('invalidState', 'no WebSocket here');
    const thrown = start({
      webSocket: () => {
        throw own;
      },
    });
    expect(await failure(thrown)).toBe(own);
    const other = start({
      webSocket: () => {
        throw new TypeError('bad url');
      },
    });
    expect(await failure(other)).toMatchObject({ code: 'connectionFailed', phase: 'connect' });
  });
});
