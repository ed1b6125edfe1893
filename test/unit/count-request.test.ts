import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import type { AppDeps, RequestContext } from '../../src/http/context.ts';
import { requestBuckets } from '../../src/limits/buckets.ts';
import { countRequest } from '../../src/limits/count.ts';
import { RateLimitReport } from '../../src/limits/report.ts';
import { TestClock } from '../support/app.ts';

/**
 * countRequest's `report: false`: the request is counted (and refused past the limit) but its buckets stay out
 * of the RateLimit headers, whatever the buckets' own flags say. The guard relies on it for the failed-sign-in
 * counter; this holds it for any caller.
 */
async function contextFor() {
  const { db } = await openDatabase(':memory:');
  const clock = new TestClock(Date.parse('2026-11-02T10:00:30Z'));
  const deps = { db, clock, config: loadConfig({}, { logRequests: false, rateLimitsEnabled: true }) } as unknown as AppDeps;
  const rateLimits = new RateLimitReport();
  const context = { requestId: 'req_test', deps, rateLimits } as unknown as RequestContext;
  return { context, rateLimits, clock };
}

describe('countRequest', () => {
  it('adds the counted buckets to the report by default', async () => {
    const { context, rateLimits, clock } = await contextFor();
    await countRequest(context, requestBuckets('key_1', PLANS.free.limits));
    expect(rateLimits.headers(clock.now())).toEqual({ 'RateLimit-Limit': '120', 'RateLimit-Remaining': '119', 'RateLimit-Reset': '30' });
  });

  it('with report: false counts a reported bucket but leaves it out of the headers', async () => {
    const { context, rateLimits, clock } = await contextFor();
    const buckets = requestBuckets('key_1', { ...PLANS.free.limits, requestsPerMinuteKey: 1 });
    await countRequest(context, buckets, { report: false });
    expect(rateLimits.headers(clock.now())).toEqual({});
    // Counted all the same: the next request in the window is refused.
    await expect(countRequest(context, buckets, { report: false })).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    expect(rateLimits.headers(clock.now())).toEqual({});
  });
});
