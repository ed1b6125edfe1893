import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable, describeError, stackFrames } from '../db/failures.ts';
import { log } from '../log.ts';

/**
 * 503 `service_busy` for a database that is busy or cannot be reached, with Retry-After. No detail: the
 * contract's details name the preview ceiling and the limiter, and the limiter answers for itself.
 */
export function databaseUnavailableError(body?: Record<string, unknown>): ApiError<'service_busy'> {
  return new ApiError('service_busy', {
    message: `The database is busy or cannot be reached; the request was not processed. Retry after ${HEADERS.retryAfter} seconds.`,
    headers: { [HEADERS.retryAfter]: String(DATABASE_RETRY_AFTER_SECONDS) },
    ...(body ? { body } : {}),
  });
}

/**
 * One log line for a failure that is no answer of the contract: the error and where it happened, never a query's
 * parameters. A database busy or out of reach is a warning (it passes by itself); anything else is an error.
 */
export function logFailure(requestId: string, error: unknown): void {
  const level = databaseUnavailable(error) === undefined ? 'error' : 'warn';
  log(level, 'failure', { request_id: requestId, error: describeError(error), at: stackFrames(error).slice(0, 8) });
}
