import { type Bucket, windowStart } from './buckets.ts';

export interface BucketState {
  bucket: Bucket;
  count: number;
  /** When the bucket's current window ends, in ms since the epoch. */
  resetAt: number;
}

/** Counted in every bucket (their states, for the RateLimit headers), or refused by the full ones, counted in none. */
export type Admission = { admitted: true; states: BucketState[] } | { admitted: false; refusing: BucketState[] };

/** When a bucket's window at `now` ends. */
export const resetOf = (bucket: Bucket, now: number) => windowStart(now, bucket.windowMs) + bucket.windowMs;

/** One bucket's admission: its count once counted, or undefined when it was full (its count then its limit). */
export function singleAdmission(bucket: Bucket, now: number, count: number | undefined): Admission {
  const resetAt = resetOf(bucket, now);
  if (count !== undefined) return { admitted: true, states: [{ bucket, count, resetAt }] };
  return { admitted: false, refusing: [{ bucket, count: bucket.limit, resetAt }] };
}
