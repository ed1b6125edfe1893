import type { RequestContext } from '../http/context.ts';
import type { Bucket } from './buckets.ts';
import { admit, LimiterUnavailable } from './limiter.ts';
import { limiterUnavailable, refusalError } from './report.ts';

/**
 * Counts this request in its buckets, all or none: throws the contract's refusal (429 or 503 with
 * Retry-After) when one is full, 503 limiter_unavailable when the limiter cannot be reached. The buckets counted,
 * or on a refusal the refusing ones, go into the request's RateLimit report.
 */
export async function countRequest(context: RequestContext, buckets: readonly Bucket[], options: { report?: boolean } = {}): Promise<void> {
  if (!context.deps.config.rateLimitsEnabled) return;
  const now = context.deps.clock.now();
  let admission: Awaited<ReturnType<typeof admit>>;
  try {
    admission = await admit(context.deps.db, buckets, now);
  } catch (error) {
    if (error instanceof LimiterUnavailable) {
      console.error(JSON.stringify({ level: 'error', request_id: context.requestId, error: `rate limiter: ${error.message}` }));
      throw limiterUnavailable();
    }
    throw error;
  }
  if (options.report !== false) {
    // A refusal reports the bucket that refused (0 left): the others of its admission were not counted.
    context.rateLimits.add(admission.admitted ? admission.states : admission.refusing);
  }
  if (!admission.admitted) throw refusalError(admission, now);
}
