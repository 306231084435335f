/** Levelled console logging for the SDK; never logs tokens or audio. */

/** How much the SDK logs; `silent` turns it off. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** The log levels {@link AvatarSDK.initialize} accepts. */
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

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
