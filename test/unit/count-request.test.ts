import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { previewBuckets } from '../../src/limits/buckets.ts';
import { countRequest, type LimiterDeps } from '../../src/limits/count.ts';
import { RateLimitReport } from '../../src/limits/report.ts';
import { TestClock } from '../support/app.ts';

/**
 * countRequest without a report: the request is counted (and refused past the limit) but its buckets stay out
 * of the RateLimit headers, whatever the buckets' own flags say. Authentication relies on it for the
 * failed-sign-in counter; this holds it for any caller.
 */
async function limiter() {
  const { db } = await openDatabase(':memory:');
  const clock = new TestClock(Date.parse('2026-11-02T10:00:30Z'));
  const deps: LimiterDeps = { db, clock, config: loadConfig({}, { logRequests: false, rateLimitsEnabled: true }) };
  return { deps, rateLimits: new RateLimitReport(), clock };
}

describe('countRequest', () => {
  it('adds the counted buckets to the report it is given', async () => {
    const { deps, rateLimits, clock } = await limiter();
    // The key's previews an hour: the bucket with the fewest left of the preview's six.
    await countRequest(previewBuckets('acct_1', 'key_1', PLANS.free.limits), deps, { requestId: 'req_test', rateLimits });
    const perHour = PLANS.free.limits.previewPerHourKey;
    expect(rateLimits.headers(clock.now())).toEqual({
      'RateLimit-Limit': String(perHour),
      'RateLimit-Remaining': String(perHour - 1),
      'RateLimit-Reset': '3570',
    });
  });

  it('without a report counts a reported bucket but leaves it out of the headers', async () => {
    const { deps, rateLimits, clock } = await limiter();
    const buckets = previewBuckets('acct_1', 'key_1', { ...PLANS.free.limits, previewPerHourKey: 2 });
    await countRequest(buckets, deps, { requestId: 'req_test' });
    // Counted all the same: the next request in the window, reported, finds none left after it,
    await countRequest(buckets, deps, { requestId: 'req_test', rateLimits });
    expect(rateLimits.headers(clock.now())).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '3570' });
    // and the one after that is refused.
    await expect(countRequest(buckets, deps, { requestId: 'req_test' })).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
  });
});
