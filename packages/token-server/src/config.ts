/** The bin's configuration: flags win over environment variables. */
import { parseArgs } from 'node:util';
import { DEFAULT_RESERVED_IDENTITIES, DEFAULT_ROOM, referenceParticipant } from './participant.js';
import type { BuildTokenServerOptions } from './server.js';

export const USAGE = `avatar-drive-token-server [options]

  --host ADDR              HOST (default 127.0.0.1)
  --port N                 PORT (default 8790)
  --cors-origin LIST       CORS_ORIGIN: comma-separated origins, or * for any (default: none)
  --rate-limit N           RATE_LIMIT_MAX: requests per client per window (default 30; 0 disables)
  --rate-window SECONDS    RATE_LIMIT_WINDOW_SECONDS (default 60)
  --room NAME              LIVEKIT_ROOM: default room (default avatar-drive)
  --agent NAME             LIVEKIT_AGENT_NAME: agent dispatched into the room (default: none)
  --reserved-identities L  RESERVED_IDENTITIES: identities never issued, comma-separated, x* = prefix
                           (default ${DEFAULT_RESERVED_IDENTITIES.join(',')}: the avatar's and agents')
  --trust-body-identity    TRUST_BODY_IDENTITY=1: issue the identity the caller names (the spec's
                           reference behaviour, unauthenticated demos only); default: every
                           identity is generated and a body naming one is refused (403)
  --trust-proxy VALUE      TRUST_PROXY: honour X-Forwarded-For from the proxies in front (rate limits
                           per client): a hop count (1 behind one ingress), addresses/CIDRs
                           (comma-separated), or true (any; forgeable). Default: none
  --log-level LEVEL        LOG_LEVEL (default info)
  --version                prints the version

  LiveKit (POST /token):           LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET
  Avatar Drive (POST /session-token): AVATAR_DRIVE_API_KEY, AVATAR_DRIVE_APP_ID,
                                   AVATAR_DRIVE_REGION or AVATAR_DRIVE_CONSOLE_URL,
                                   AVATAR_DRIVE_TOKEN_TTL_SECONDS (default 300)
  Secrets are read from the environment only (flags show up in process lists).`;

export interface BinConfig {
  host: string;
  port: number;
  server: BuildTokenServerOptions;
}

function int(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${text}".`);
  return value;
}

export function resolveBinConfig(argv: string[], rawEnv: NodeJS.ProcessEnv): BinConfig | { help: true } {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'cors-origin': { type: 'string' },
      'rate-limit': { type: 'string' },
      'rate-window': { type: 'string' },
      room: { type: 'string' },
      agent: { type: 'string' },
      'reserved-identities': { type: 'string' },
      'trust-body-identity': { type: 'boolean' },
      'trust-proxy': { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return { help: true };
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== undefined && v !== ''));
  const corsText = values['cors-origin'] ?? env.CORS_ORIGIN;
  const max = int('--rate-limit', values['rate-limit'] ?? env.RATE_LIMIT_MAX, 30);
  const windowSeconds = int('--rate-window', values['rate-window'] ?? env.RATE_LIMIT_WINDOW_SECONDS, 60);
  const ttl = env.AVATAR_DRIVE_TOKEN_TTL_SECONDS;
  const room = values.room ?? env.LIVEKIT_ROOM;
  const agentName = values.agent ?? env.LIVEKIT_AGENT_NAME;
  const reservedText = values['reserved-identities'] ?? env.RESERVED_IDENTITIES;
  const reservedIdentities =
    reservedText === undefined
      ? undefined
      : reservedText
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean);
  const trustBodyIdentity = values['trust-body-identity'] === true || env.TRUST_BODY_IDENTITY === '1';
  const trustProxy = parseTrustProxy(values['trust-proxy'] ?? env.TRUST_PROXY);
  return {
    host: values.host ?? env.HOST ?? '127.0.0.1',
    port: int('--port', values.port ?? env.PORT, 8790),
    server: {
      logLevel: values['log-level'] ?? env.LOG_LEVEL ?? 'info',
      ...(trustProxy !== undefined && { trustProxy }),
      livekit: {
        ...(env.LIVEKIT_URL && { url: env.LIVEKIT_URL }),
        ...(env.LIVEKIT_API_KEY && { apiKey: env.LIVEKIT_API_KEY }),
        ...(env.LIVEKIT_API_SECRET && { apiSecret: env.LIVEKIT_API_SECRET }),
        ...(room && { defaultRoom: room }),
        ...(agentName && { agentName }),
      },
      avatarDrive: {
        ...(env.AVATAR_DRIVE_API_KEY && { apiKey: env.AVATAR_DRIVE_API_KEY }),
        ...(env.AVATAR_DRIVE_APP_ID && { appId: env.AVATAR_DRIVE_APP_ID }),
        ...(env.AVATAR_DRIVE_REGION && { region: env.AVATAR_DRIVE_REGION }),
        ...(env.AVATAR_DRIVE_CONSOLE_URL && { consoleUrl: env.AVATAR_DRIVE_CONSOLE_URL }),
        ...(ttl && { ttlSeconds: int('AVATAR_DRIVE_TOKEN_TTL_SECONDS', ttl, 300) }),
      },
      cors:
        corsText === undefined
          ? false
          : {
              origin:
                corsText === '*'
                  ? true
                  : corsText
                      .split(',')
                      .map((o) => o.trim())
                      .filter(Boolean),
            },
      rateLimit: max === 0 ? false : { max, timeWindowMs: windowSeconds * 1000 },
      ...(reservedIdentities && { reservedIdentities }),
      ...(trustBodyIdentity && { participant: referenceParticipant(room || DEFAULT_ROOM) }),
    },
  };
}

/**
 * TRUST_PROXY / --trust-proxy: unset or `false` → undefined (trust none); `true`; a hop count;
 * otherwise a comma-separated list of addresses / CIDR ranges.
 * @throws Error when a list entry is not an IPv4/IPv6 address or CIDR range.
 */
function parseTrustProxy(text: string | undefined): boolean | number | string | undefined {
  if (text === undefined || text === '' || text === 'false') return undefined;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry))
      throw new Error(
        `TRUST_PROXY must be a hop count, true, or addresses/CIDR ranges separated by commas; "${entry}" is none of these.`,
      );
  }
  return entries.join(',');
}
