import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import type { ApiError } from '../contract/api-error.ts';
import type { Database } from '../db/database.ts';
import { describeError } from '../db/failures.ts';
import { log } from '../log.ts';
import type { Bucket } from './buckets.ts';
import { type Admission, admit, LimiterUnavailable } from './limiter.ts';
import { limiterUnavailable, type RateLimitReport, refusalError } from './report.ts';

/** What counting needs: the database holding the windows, the clock, and the operator's switch for the limits. */
export interface LimiterDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: Pick<AppConfig, 'rateLimitsEnabled'>;
}

/** The request being counted: its id for the log line, and the report its RateLimit headers are made from. */
interface CountedRequest {
  readonly requestId: string;
  /** Absent: the request is counted (and refused past the limit) but its buckets stay out of the headers. */
  readonly rateLimits?: RateLimitReport;
}

/**
 * Counts this request in its buckets, all or none: throws the contract's refusal (429 or 503 with
 * Retry-After) when one is full, 503 limiter_unavailable when the limiter cannot be reached. The buckets counted,
 * or on a refusal the refusing ones, go into the request's RateLimit report when it has one.
 */
export async function countRequest(buckets: readonly Bucket[], deps: LimiterDeps, request: CountedRequest): Promise<void> {
  if (!deps.config.rateLimitsEnabled) return;
  const now = deps.clock.now();
  let admission: Admission;
  try {
    admission = await admit(deps.db, buckets, now);
  } catch (error) {
    throw limiterDown(request.requestId, error);
  }
  reportAdmission(admission, now, request);
}

/** Puts an admission into the request's RateLimit report; throws the contract's refusal when it was refused. */
export function reportAdmission(admission: Admission, now: number, request: Pick<CountedRequest, 'rateLimits'>): void {
  // A refusal reports the bucket that refused (0 left): the others of its admission were not counted.
  request.rateLimits?.add(admission.admitted ? admission.states : admission.refusing);
  if (!admission.admitted) throw refusalError(admission, now);
}

/** The answer when the limiter's storage cannot be reached (503 limiter_unavailable), logged with the cause. */
export function limiterDown(requestId: string, error: unknown): ApiError {
  const cause = error instanceof LimiterUnavailable ? error.message : describeError(error);
  log('error', 'rate_limiter_unavailable', { request_id: requestId, error: `rate limiter: ${cause}` });
  return limiterUnavailable();
}
