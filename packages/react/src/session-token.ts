/**
 * Session tokens for `<AvatarProvider>`: from the app's own function, or by POSTing to a token
 * endpoint that answers like the reference token server (`{ sessionToken }` as JSON) or with the
 * bare token as text.
 */
import { AvatarError } from '@avatar-drive/core';

/** Returns a fresh session token from your server (the API key stays there). */
export type FetchSessionToken = () => Promise<string>;

/**
 * A {@link FetchSessionToken} that POSTs `{}` to `url` (the token server's `/session-token`)
 * and reads `sessionToken` from the JSON answer, or the body itself when it is text.
 */
export function sessionTokenFrom(url: string, init: RequestInit = {}): FetchSessionToken {
  return async () => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        body: '{}',
        ...init,
        headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      });
    } catch (cause) {
      throw new AvatarError(
        'connectionFailed',
        `The session token could not be fetched from ${url} (${String(cause)}): check that your token server runs and allows this page's origin (CORS).`,
        { phase: 'connect', cause },
      );
    }
    const body = await response.text();
    if (!response.ok) {
      throw new AvatarError(
        response.status === 429 ? 'concurrencyLimit' : 'connectionFailed',
        `Your token server answered ${response.status} for ${url}${response.status === 429 ? ' (rate limited: try again later)' : ''}; its log says why.`,
        {
          phase: 'connect',
          httpStatus: response.status,
          retryable: response.status >= 500 || response.status === 429,
        },
      );
    }
    const token = readToken(body, response.headers.get('content-type') ?? '');
    if (!token) {
      throw new AvatarError(
        'invalidRequest',
        `The answer of ${url} holds no session token: answer { "sessionToken": "…" } as JSON, or the token as plain text.`,
        { phase: 'connect', httpStatus: response.status },
      );
    }
    return token;
  };
}

function readToken(body: string, type: string): string | undefined {
  const text = body.trim();
  if (type.includes('json') || text.startsWith('{')) {
    try {
      const value = (JSON.parse(text) as { sessionToken?: unknown }).sessionToken;
      return typeof value === 'string' && value !== '' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  return text === '' || /\s/.test(text) ? undefined : text;
}
