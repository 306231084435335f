/** Store calls from a route: an unreachable shared store is a 503 the client retries. */
import { httpError } from '../errors.js';
import { StoreUnavailableError } from '../store/shared-store.js';

/**
 * Runs `call`; a {@link StoreUnavailableError} becomes 503 `upstreamError` with `Retry-After: 1`,
 * saying the service cannot `what` right now. Other errors pass through.
 */
export async function withStore<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    throw httpError(
      503,
      'upstreamError',
      `The service cannot ${what} right now (shared store unavailable). Retry with backoff.`,
      { 'retry-after': '1' },
    );
  }
}
