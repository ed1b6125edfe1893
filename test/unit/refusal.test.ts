import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import type { BucketState } from '../../src/limits/admission.ts';
import { type Bucket, previewBuckets } from '../../src/limits/buckets.ts';
import { refusalError } from '../../src/limits/report.ts';

/**
 * The answer to a refused admission (section 8), whatever order the refusing buckets come in: the caller's own
 * 429 before the shared ceiling's 503, and Retry-After until every full window has reset. The route lists the
 * caller's buckets first today; these tests keep the answer right if that order changes.
 */
const NOW = Date.parse('2026-11-02T10:20:00Z');
const HOUR_END = Date.parse('2026-11-02T11:00:00Z');
const DAY_END = Date.parse('2026-11-03T00:00:00Z');
const [keyHour, , , accountDay, globalHour, globalDay] = previewBuckets('acct_1', 'key_1', PLANS.free.limits) as [
  Bucket,
  Bucket,
  Bucket,
  Bucket,
  Bucket,
  Bucket,
];

const full = (bucket: Bucket, resetAt: number): BucketState => ({ bucket, count: bucket.limit, resetAt });
const refuse = (...refusing: BucketState[]) => refusalError({ admitted: false, refusing }, NOW);

describe('refusalError', () => {
  it.each([
    ['caller first', [full(keyHour, HOUR_END), full(globalDay, DAY_END)]],
    ['ceiling first', [full(globalDay, DAY_END), full(keyHour, HOUR_END)]],
  ])('the caller’s 429 comes before the ceiling’s 503 (%s), Retry-After until both reset', (_, refusing) => {
    const error = refuse(...refusing);
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limited');
    expect(error.details?.[0]?.code).toBe('preview_key_limit');
    expect(error.headers['Retry-After']).toBe(String((DAY_END - NOW) / 1000));
  });

  it.each([
    ['hour first', [full(globalHour, HOUR_END), full(globalDay, DAY_END)]],
    ['day first', [full(globalDay, DAY_END), full(globalHour, HOUR_END)]],
  ])('the ceiling alone is 503 preview_global_limit (%s), naming the window that holds longest', (_, refusing) => {
    const error = refuse(...refusing);
    expect(error.status).toBe(503);
    expect(error.code).toBe('service_busy');
    expect(error.details?.[0]?.code).toBe('preview_global_limit');
    expect(error.message).toContain('(10000 per day)');
    expect(error.headers['Retry-After']).toBe(String((DAY_END - NOW) / 1000));
  });

  it.each([
    ['hour first', [full(keyHour, HOUR_END), full(accountDay, DAY_END)]],
    ['day first', [full(accountDay, DAY_END), full(keyHour, HOUR_END)]],
  ])('of two 429s, names the one that resets later (%s), so the message and Retry-After agree', (_, refusing) => {
    const error = refuse(...refusing);
    expect(error.details?.[0]?.code).toBe('preview_user_limit');
    expect(error.message).toBe(`Limit reached (300 per day); retry in ${(DAY_END - NOW) / 1000} seconds.`);
  });

  it('rounds a part second up and names a window without a name in seconds', () => {
    const odd: Bucket = { ...keyHour, windowMs: 5_000 };
    const error = refusalError({ admitted: false, refusing: [full(odd, NOW + 4_001)] }, NOW);
    expect(error.message).toBe('Limit reached (30 per 5 s); retry in 5 seconds.');
    expect(error.headers['Retry-After']).toBe('5');
  });
});
