/** Small HTTP(S) client for tests that need what `fetch` cannot: a private CA, a source address. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';

export interface TestRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** CA certificate(s) that sign the server's certificate. */
  ca?: string;
  /** Local address to connect from (any 127.x.y.z works on Linux loopback). */
  localAddress?: string;
}

export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: () => unknown;
}

/** One request; resolves with the whole response, rejects on a connection or TLS failure. */
export function request(url: string, options: TestRequest = {}): Promise<TestResponse> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: options.method ?? 'GET',
        headers: {
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...options.headers,
        },
        ...(options.ca && { ca: options.ca }),
        // Verify the certificate against the host we dialled, even when a test sends another Host.
        checkServerIdentity: (_host: string, cert: PeerCertificate) =>
          checkServerIdentity(target.hostname.replace(/^\[|\]$/g, ''), cert),
        ...(options.localAddress && { localAddress: options.localAddress }),
        agent: false,
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The certificate a TLS server presents to a new connection (verified against `ca`). */
export function peerCertificate(host: string, port: number, ca: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, ca }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      resolve(cert);
    });
    socket.once('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('TLS handshake timed out')));
  });
}
