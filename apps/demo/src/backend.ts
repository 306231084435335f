/**
 * What the page asks its own backend: the run-time config (/demo-config.json), session tokens
 * from the token server (the API key stays there), the avatar list, and a token check used to
 * explain a refused connection (browsers cannot read a refused WebSocket upgrade's status).
 */
import type { RegionEndpoints } from '@avatar-drive/core';

/** /demo-config.json (see server/demo-server.ts). */
export interface DemoConfig {
  appId: string;
  primaryRegion: string;
  backupRegion: string;
  ingress: Record<string, string>;
  tokenUrl: string;
  relayUrl: string;
}

export async function loadConfig(): Promise<DemoConfig> {
  const response = await fetch('demo-config.json', { cache: 'no-store' });
  if (!response.ok) {
    throw new Error(
      `demo-config.json: HTTP ${response.status}. Open the demo through \`pnpm start\`, which serves it.`,
    );
  }
  return (await response.json()) as DemoConfig;
}

/** Region map for client-web: the console is this origin (proxied), the ingress is the region's. */
export function regionMap(config: DemoConfig): Record<string, RegionEndpoints> {
  return Object.fromEntries(
    Object.entries(config.ingress).map(([region, ingressUrl]) => [
      region,
      { consoleUrl: location.origin, ingressUrl },
    ]),
  );
}

/** A fresh single-use session token from the token server. */
export async function fetchSessionToken(config: DemoConfig): Promise<string> {
  let response: Response;
  try {
    response = await fetch(config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  } catch {
    throw new Error(`The token server at ${config.tokenUrl} cannot be reached. Is \`pnpm start\` running?`);
  }
  const body = (await response.json().catch(() => ({}))) as { sessionToken?: string; error?: string };
  if (!response.ok || !body.sessionToken) {
    throw new Error(`The token server answered ${response.status}: ${body.error ?? 'no token'}.`);
  }
  return body.sessionToken;
}

export interface AvatarSummary {
  id: string;
  name?: string;
}

export async function listAvatars(config: DemoConfig): Promise<AvatarSummary[]> {
  const response = await fetch(`/v1/console/avatars?appId=${encodeURIComponent(config.appId)}`);
  if (!response.ok)
    throw new Error(`Listing avatars failed: HTTP ${response.status}. Is the service running?`);
  const body = (await response.json()) as { avatars: AvatarSummary[] };
  return body.avatars;
}

/**
 * Why the ingress refused a token: the console verifies it without consuming it. Expired or
 * invalid tokens are named by the console; a token it accepts but the ingress refused was
 * already used (they are single-use). `undefined` when the console cannot tell.
 */
export async function diagnoseToken(
  config: DemoConfig,
  avatarId: string,
  token: string,
): Promise<{ code: string; message: string } | undefined> {
  let response: Response;
  try {
    response = await fetch(`/v1/console/avatars/${encodeURIComponent(avatarId)}`, {
      headers: { 'x-app-id': config.appId, 'x-session-key': token },
      cache: 'no-store',
    });
  } catch {
    return undefined;
  }
  if (response.ok) {
    return {
      code: 'sessionTokenInvalid',
      message:
        'The ingress refused a valid session token: it was already used. Session tokens are single-use; the page fetches a fresh one for the next connection.',
    };
  }
  const body = (await response.json().catch(() => ({}))) as {
    errors?: Array<{ code?: string; detail?: string }>;
  };
  const error = body.errors?.[0];
  if (response.status === 401 && error?.code) {
    return { code: error.code, message: error.detail ?? 'The session token was refused.' };
  }
  return undefined;
}

/** What the demo server's upload route answers (the console's `POST /v1/console/avatars`). */
export interface UploadedAvatar {
  avatar: { id: string; name?: string };
  coverage?: { format: string; mouth: string };
}

/**
 * Uploads the visitor's .glb / .vrm, or a LAM Gaussian-splat .zip, through the demo server, which
 * adds the API key (the page never holds it) and forwards it to the console.
 * @throws Error with the service's refusal (code and detail) when the file is refused.
 */
export async function uploadAvatar(file: File): Promise<UploadedAvatar> {
  const name = file.name.replace(/\.(glb|vrm|zip)$/i, '').slice(0, 100) || 'My avatar';
  // Browsers name a zip's type differently (Windows: application/x-zip-compressed); the name decides.
  const zip = /\.zip$/i.test(file.name) || /zip/.test(file.type);
  const response = await fetch(`/demo/avatars?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': zip ? 'application/zip' : 'model/gltf-binary' },
    body: file,
  });
  const body = (await response.json().catch(() => ({}))) as UploadedAvatar & {
    errors?: Array<{ code?: string; detail?: string }>;
  };
  if (!response.ok || !body.avatar) {
    const error = body.errors?.[0];
    throw Object.assign(new Error(error?.detail ?? `The upload failed: HTTP ${response.status}.`), {
      code: error?.code ?? 'uploadFailed',
    });
  }
  return body;
}
