import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { apiKeys } from '../db/schema.ts';
import type { Bucket } from './buckets.ts';
import { type BucketInSql, windowInSql } from './in-sql.ts';
import { type Admission, singleAdmission } from './limiter.ts';

/**
 * The key's own buckets of section 8, the requests and the finals per key a minute, are counted on the key's row
 * (api_keys) rather than in rate_limit_windows: the statement that finds the key counts its request, and a final
 * writes a row its batch has written already, with no window row of its own (issue 19: a keyed final's time outside
 * the render, measured). Other buckets (a preview's, a replay's, the network's failed sign-ins) stay in
 * rate_limit_windows. `key` is SQL selecting the caller's active row by its hash (bound per request).
 */

/** The columns of one of the key's buckets: the start of the window it counts in, and its count in it. */
interface KeyCounter {
  readonly windowStart: AnySQLiteColumn;
  readonly count: AnySQLiteColumn;
}

const REQUESTS: KeyCounter = { windowStart: apiKeys.requestsWindowStart, count: apiKeys.requestsInWindow };
const FINALS: KeyCounter = { windowStart: apiKeys.finalsWindowStart, count: apiKeys.finalsInWindow };

/** A bucket's count once this request is counted: `upTo` (from the stored count) in the stored window, 1 in a new one. */
const countedIn = (counter: KeyCounter, start: Placeholder, upTo: SQL) =>
  sql`CASE WHEN ${counter.windowStart} = ${start} THEN ${upTo} ELSE 1 END`;

/**
 * The request counted in the key's requests bucket, by the statement that finds the caller: it updates every
 * active key's row, admitted or not, and answers the row (the key as `keyByHash` reads it), so that one statement
 * both signs the caller in and counts it. A refused request adds nothing: the count stops at the limit + 1, which
 * marks the window as refused (requestAdmission; `requestAdmittedInSql` for the route's statements after it).
 * `set` is the row's other writes (last_used_at).
 */
export function countRequestOnKey(db: Database, key: SQL, bucket: BucketInSql, set: { lastUsedAt: SQL }) {
  const { start } = windowInSql(bucket.windowMs);
  return db
    .update(apiKeys)
    .set({
      ...set,
      requestsInWindow: countedIn(REQUESTS, start, sql`MIN(${REQUESTS.count} + 1, ${bucket.limit} + 1)`),
      requestsWindowStart: sql`${start}`,
    })
    .where(key)
    .returning();
}

/** The admission of a request by the count countRequestOnKey answered: past the limit, it was refused. */
export function requestAdmission(bucket: Bucket, now: number, count: number): Admission {
  return singleAdmission(bucket, now, count <= bucket.limit ? { count } : undefined);
}

/** The caller's request was admitted by its requests bucket: SQL for the statements after countRequestOnKey's. */
export function requestAdmittedInSql(key: SQL, bucket: BucketInSql): SQL {
  return sql`${EXISTS} (SELECT 1 FROM ${apiKeys} WHERE ${key} AND ${REQUESTS.count} <= ${bucket.limit})`;
}

/** The key's finals bucket is not full in the window at the request's time (SQL read before countFinalOnKey's). */
export function finalsOpenInSql(key: SQL, bucket: BucketInSql): SQL {
  const { start } = windowInSql(bucket.windowMs);
  return sql`NOT ${EXISTS} (SELECT 1 FROM ${apiKeys} WHERE ${key} AND ${FINALS.windowStart} = ${start} AND ${FINALS.count} >= ${bucket.limit})`;
}

/**
 * A final counted in the key's finals bucket where `condition` holds, only below the limit, as the upsert of a
 * single bucket in rate_limit_windows: a row back (the new count) means counted, none that the bucket was full.
 */
export function countFinalOnKey(db: Database, key: SQL, bucket: BucketInSql, condition: SQL) {
  const { start } = windowInSql(bucket.windowMs);
  return db
    .update(apiKeys)
    .set({ finalsInWindow: countedIn(FINALS, start, sql`${FINALS.count} + 1`), finalsWindowStart: sql`${start}` })
    .where(sql`${key} AND (${FINALS.windowStart} IS NOT ${start} OR ${FINALS.count} < ${bucket.limit}) AND ${condition}`)
    .returning({ count: FINALS.count });
}
