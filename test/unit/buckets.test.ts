import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { authFailureBucket, finalBuckets, previewBuckets, replayBuckets, requestBuckets, WINDOW_NAMES } from '../../src/limits/buckets.ts';

describe('the buckets of section 8', () => {
  it('count failed sign-ins per network, 20 in 10 minutes, never reported', () => {
    expect(authFailureBucket('203.0.113.0/24')).toMatchObject({ limit: 20, windowMs: 10 * 60_000, reported: false });
  });

  it('name every window they count in', () => {
    const limits = PLANS.free.limits;
    const buckets = [
      ...requestBuckets('k', limits),
      ...finalBuckets('k', limits),
      ...previewBuckets('a', 'k', limits),
      ...replayBuckets('final', 'a', 'k', limits),
      ...replayBuckets('preview', 'a', 'k', limits),
      authFailureBucket('n'),
    ];
    expect(new Set(buckets.map((bucket) => WINDOW_NAMES[bucket.windowMs]))).toEqual(new Set(['minute', 'hour', 'day', '10 minutes']));
  });
});
