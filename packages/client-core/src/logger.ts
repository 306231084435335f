/** Levelled console logging for the SDK; never logs tokens or audio. */

/**
 * How much the SDK logs. The spec's names are `debug`, `info`, `warning`, `error` and `none`;
 * `warn` and `silent` are accepted as aliases of `warning` and `none`.
 */
export type LogLevel = 'debug' | 'info' | 'warning' | 'warn' | 'error' | 'none' | 'silent';

const RANK: Record<LogLevel, number> = {
  debug: 10,
  info: 20,
  warning: 30,
  warn: 30,
  error: 40,
  none: 100,
  silent: 100,
};

/** The log levels {@link AvatarSDK.initialize} accepts (the spec's names and their aliases). */
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

/** True for a level name the SDK accepts. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** A tiny logger that prefixes `[avatar-drive]` and filters by level. */
export class Logger {
  level: LogLevel;

  constructor(level: LogLevel = 'warn') {
    this.level = level;
  }

  /** Debug detail (state transitions, retries). */
  debug(...args: unknown[]): void {
    if (RANK[this.level] <= RANK.debug) console.debug('[avatar-drive]', ...args);
  }

  /** Notable events. */
  info(...args: unknown[]): void {
    if (RANK[this.level] <= RANK.info) console.info('[avatar-drive]', ...args);
  }

  /** Something the developer should fix (e.g. missing morph targets). */
  warn(...args: unknown[]): void {
    if (RANK[this.level] <= RANK.warn) console.warn('[avatar-drive]', ...args);
  }

  /** Failures. */
  error(...args: unknown[]): void {
    if (RANK[this.level] <= RANK.error) console.error('[avatar-drive]', ...args);
  }
}

/** The logger shared by the SDK's objects; its level follows `AvatarSDK.initialize`. */
export const logger = new Logger();
