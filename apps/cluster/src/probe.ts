/**
 * Questions to a running cluster: sessions open per node (its /metrics), a token minted through
 * the load balancer, and one raw session attempt that reports how the service answered.
 */
import { configureSessionMessage, decodeMessage, encodeMessage } from '@avatar-drive/core';
import { WebSocket } from 'ws';

/** `avatar_drive_live_sessions` of the node at `url` (undefined when it does not answer). */
export async function liveSessions(url: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(3000) })).text();
    const match = /^avatar_drive_live_sessions(?:\{[^}]*\})? (\S+)$/m.exec(text);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Mints a session token over the console API at `consoleUrl` (throws with the status otherwise). */
export async function mintToken(consoleUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${consoleUrl}/v1/console/session-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 600 }),
    signal: AbortSignal.timeout(5000),
  });
  const body = (await response.json()) as { sessionToken?: string };
  if (response.status !== 200 || !body.sessionToken)
    throw new Error(`minting a token failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.sessionToken;
}

/** How one session attempt ended. */
export type Attempt =
  | { outcome: 'accepted'; socket: WebSocket }
  | { outcome: 'closed'; code: number }
  | { outcome: 'http'; status: number }
  | { outcome: 'error'; message: string };

/**
 * Opens one ingress session with `token` and configures it: `accepted` once ServerConfirmSession
 * arrived (the socket stays open: close it), `closed` with the close code when the service refused
 * it after the upgrade (4503, 4003…), `http` when it refused the upgrade (401 for a used token).
 */
export function attemptSession(
  ingressUrl: string,
  appId: string,
  token: string,
  avatarId = 'mika',
  timeoutMs = 10_000,
): Promise<Attempt> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${ingressUrl}?id=${avatarId}`, {
      headers: { 'X-App-ID': appId, 'X-Session-Key': token },
    });
    let done = false;
    const finish = (attempt: Attempt) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (attempt.outcome !== 'accepted') ws.terminate();
      resolve(attempt);
    };
    const timer = setTimeout(
      () => finish({ outcome: 'error', message: `no answer in ${timeoutMs} ms` }),
      timeoutMs,
    );
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      finish({ outcome: 'http', status: res.statusCode ?? 0 });
    });
    ws.on('error', (error) => finish({ outcome: 'error', message: error.message }));
    ws.on('open', () => ws.send(encodeMessage(configureSessionMessage({ sampleRate: 16_000 }))));
    ws.on('message', (data: Buffer) => {
      // The close that follows a ServerError gives the outcome.
      if (decodeMessage(data, { isBinary: true }).data.case === 'serverConfirmSession')
        finish({ outcome: 'accepted', socket: ws });
    });
    ws.on('close', (code) => finish({ outcome: 'closed', code }));
  });
}
