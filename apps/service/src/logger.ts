/** The service logger: pino with secrets redacted wherever they could appear. */
import { type Logger, pino } from 'pino';

export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'sessionToken',
  '*.sessionToken',
  'headers["x-api-key"]',
  'headers["x-session-key"]',
  'headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-session-key"]',
  'req.headers.authorization',
];

export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: undefined,
    },
    options.destination ?? process.stdout,
  );
}
