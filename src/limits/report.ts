import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import type { Admission, BucketState } from './admission.ts';
import { WINDOW_NAMES } from './buckets.ts';

/** Seconds a client is told to wait on 503 limiter_unavailable: the contract asks for Retry-After, not its value. */
const LIMITER_RETRY_AFTER_SECONDS = 5;

const secondsUntil = (at: number, now: number) => Math.max(0, Math.ceil((at - now) / 1000));
const remaining = (state: BucketState) => Math.max(0, state.bucket.limit - state.count);

/**
 * The buckets a request was counted in, for the RateLimit headers: of the reported ones, the one with the
 * smallest remaining, a tie going to the one that resets later (section 8).
 */
export class RateLimitReport {
  private readonly states: BucketState[] = [];

  add(states: readonly BucketState[]): void {
    this.states.push(...states.filter((state) => state.bucket.reported));
  }

  headers(now: number): Record<string, string> {
    const [chosen] = [...this.states].sort((a, b) => remaining(a) - remaining(b) || b.resetAt - a.resetAt);
    if (!chosen) return {};
    return {
      [HEADERS.rateLimitLimit]: String(chosen.bucket.limit),
      [HEADERS.rateLimitRemaining]: String(remaining(chosen)),
      [HEADERS.rateLimitReset]: String(secondsUntil(chosen.resetAt, now)),
    };
  }
}

/**
 * The answer to a refused admission: a 429 before the shared ceiling's 503 (the caller's own limit is the one
 * to act on), `Retry-After` until every full window has reset.
 */
export function refusalError(admission: Extract<Admission, { admitted: false }>, now: number): ApiError {
  const refusing = [...admission.refusing].sort(
    (a, b) => Number(a.bucket.refusal.code === 'service_busy') - Number(b.bucket.refusal.code === 'service_busy') || b.resetAt - a.resetAt,
  );
  const first = refusing[0]!;
  const retryAfter = Math.max(...admission.refusing.map((state) => secondsUntil(state.resetAt, now)));
  return new ApiError(first.bucket.refusal.code, {
    detail: first.bucket.refusal.detail as never,
    message: `Limit reached (${first.bucket.limit} per ${WINDOW_NAMES[first.bucket.windowMs] ?? `${first.bucket.windowMs / 1000} s`}); retry in ${retryAfter} seconds.`,
    headers: { [HEADERS.retryAfter]: String(retryAfter) },
  });
}

export function limiterUnavailable(): ApiError {
  return new ApiError('service_busy', {
    detail: 'limiter_unavailable',
    message: 'The rate limiter cannot be reached; the request was not processed. Retry shortly.',
    headers: { [HEADERS.retryAfter]: String(LIMITER_RETRY_AFTER_SECONDS) },
  });
}
