import { ERRORS } from '../contract/errors.ts';
import { LIMITS } from '../contract/limits.ts';
import { SvcApiError, type SvcNetworkError } from './errors.ts';

export interface RetryOptions {
  /** Attempts in all, the first one included; 1 turns retrying off. Default 3. */
  maxAttempts?: number;
  /**
   * The longest wait the client accepts before a retry, in seconds: an answer asking for longer (a daily preview
   * limit, say) is thrown at once for the caller to decide. Default 60, above the 35 s a commit_status_unknown needs.
   */
  maxWaitSeconds?: number;
  /** The wait after a network failure, or after a 429 or 503 without Retry-After; doubled at each retry. Default 1. */
  baseWaitSeconds?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 3, maxWaitSeconds: 60, baseWaitSeconds: 1 };

/** What the client knows of one failed attempt. */
export interface FailedAttempt {
  failure: SvcApiError | SvcNetworkError;
  /** 1 for the first attempt. */
  attempt: number;
  /**
   * Whether sending the request again cannot make a second document or a second charge: a read, a validation,
   * or a document request that carries an Idempotency-Key.
   */
  repeatable: boolean;
}

/** Codes whose Retry-After the contract tells the client to honour (spec 7: 409, 429, 503). */
const WAIT_AND_RETRY = new Set(Object.entries(ERRORS).flatMap(([code, entry]) => ('retryAfter' in entry ? [code] : [])));

/**
 * How long to wait before sending the request again, in milliseconds, or null to throw the failure. The rules are
 * the contract's (spec 3, 4.2, 7, 8):
 * - a code with Retry-After (idempotency_in_progress, rate_limited, engine_busy, service_busy): after that many
 *   seconds. These answers state `credit_used: false` and that the request was not processed, so even a final
 *   without an Idempotency-Key is sent again: it cannot be charged twice.
 * - 500 commit_status_unknown: the document was made and its charge is unconfirmed; only the same key, sent after
 *   the 35 s a running request may be taken over, gets it charged at most once. Without a key it is never sent again.
 * - a 429 or 503 that is not the API's error object (a firewall or proxy in front of it) and a network failure say
 *   nothing of what was done: sent again only when the request is repeatable.
 * Everything else (a refusal, a validation failure, another 5xx) is thrown at once.
 */
export function retryWait(options: Required<RetryOptions>, { failure, attempt, repeatable }: FailedAttempt): number | null {
  if (attempt >= options.maxAttempts) return null;
  const backoff = options.baseWaitSeconds * 2 ** (attempt - 1);
  let seconds: number | null = null;
  if (!(failure instanceof SvcApiError)) seconds = repeatable ? backoff : null;
  else if (failure.code === 'commit_status_unknown')
    seconds = repeatable ? Math.max(LIMITS.idempotencyTakeoverSeconds, failure.retryAfter ?? 0) : null;
  else if (failure.code !== null && WAIT_AND_RETRY.has(failure.code))
    seconds = repeatable || failure.creditUsed === false ? (failure.retryAfter ?? backoff) : null;
  else if (failure.code === null && (failure.status === 429 || failure.status === 503))
    seconds = repeatable ? (failure.retryAfter ?? backoff) : null;
  return seconds !== null && seconds <= options.maxWaitSeconds ? seconds * 1000 : null;
}
