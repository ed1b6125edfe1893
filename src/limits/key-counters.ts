import { type SQL, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { apiKeys } from '../db/schema.ts';
import { type Admission, singleAdmission } from './admission.ts';
import type { Bucket, BucketStore } from './buckets.ts';
import { type BucketInSql, windowInSql } from './in-sql.ts';

/**
 * The key's own buckets of section 8, the requests and the finals per key a minute, are counted on the key's row
 * (api_keys) rather than in rate_limit_windows: the statement that finds the key counts its request, and a final
 * writes a row its batch has written already, with no window row of its own (issue 19: a keyed final's time outside
 * the render, measured). `key` is SQL selecting the caller's active row by its hash (bound per request).
 */

export type KeyStore = Exclude<BucketStore, 'windows'>;

/**
 * The columns of one of the key's buckets (the start of the window it counts in, and its count in it), and the
 * count once this request is counted in the window it has. The requests bucket counts every request of an active
 * key, admitted or not, so that the statement that counts it also signs the caller in: its count stops at the
 * limit + 1, which marks the window as refused (a refused request adds nothing). A final is counted only below
 * the limit: no row back means the bucket was full.
 */
interface KeyCounter {
  readonly countField: 'requestsInWindow' | 'finalsInWindow';
  readonly windowField: 'requestsWindowStart' | 'finalsWindowStart';
  readonly countedUpTo: (count: AnySQLiteColumn, limit: SQL) => SQL;
  readonly countsBelow: (count: AnySQLiteColumn, limit: SQL) => SQL | undefined;
  /**
   * Whether a row back means admitted (the statement counted only below the limit it worked out in SQL), or its count
   * says (every request counted, the refused ones past the limit).
   */
  readonly admittedByRow: boolean;
}

const COUNTERS: Readonly<Record<KeyStore, KeyCounter>> = {
  key_requests: {
    countField: 'requestsInWindow',
    windowField: 'requestsWindowStart',
    countedUpTo: (count, limit) => sql`MIN(${count} + 1, ${limit} + 1)`,
    countsBelow: () => undefined,
    admittedByRow: false,
  },
  key_finals: {
    countField: 'finalsInWindow',
    windowField: 'finalsWindowStart',
    countedUpTo: (count) => sql`${count} + 1`,
    countsBelow: (count, limit) => sql`${count} < ${limit}`,
    admittedByRow: true,
  },
};

const columnsOf = (counter: KeyCounter) => ({ count: apiKeys[counter.countField], windowStart: apiKeys[counter.windowField] });

/** The key row's other writes in the statement that counts on it: last_used_at, by the one that signs the caller in. */
export interface KeyRowWrites {
  readonly lastUsedAt: SQL;
}

/**
 * The statement counting `bucket` on the caller's key row where `condition` holds (always, without one), answering
 * the key's whole row (as `keyByHash` reads it: the requests bucket's statement signs the caller in). The count is
 * the window's so far plus this request in the stored window, 1 in a new one.
 */
export function countOnKey(
  db: Database,
  store: KeyStore,
  bucket: BucketInSql,
  where: { key: SQL; condition: SQL | undefined; also: KeyRowWrites | undefined },
) {
  const counter = COUNTERS[store];
  const columns = columnsOf(counter);
  const { start } = windowInSql(bucket.windowMs);
  const below = counter.countsBelow(columns.count, bucket.limit);
  const terms = [where.key, below && sql`(${columns.windowStart} IS NOT ${start} OR ${below})`, where.condition].filter(
    (term) => term !== undefined,
  );
  return db
    .update(apiKeys)
    .set({
      ...where.also,
      [counter.countField]: sql`CASE WHEN ${columns.windowStart} = ${start} THEN ${counter.countedUpTo(columns.count, bucket.limit)} ELSE 1 END`,
      [counter.windowField]: sql`${start}`,
    })
    .where(sql.join(terms, sql` AND `))
    .returning();
}

/** The admission of a bucket counted by countOnKey, from its statement's answer: counted up to the limit, admitted. */
export function keyAdmission(bucket: Bucket<KeyStore>, now: number, [rows]: readonly unknown[]): Admission {
  const counter = COUNTERS[bucket.store];
  const count = (rows as Partial<Record<KeyCounter['countField'], number>>[])[0]?.[counter.countField];
  const admitted = count !== undefined && (counter.admittedByRow || count <= bucket.limit);
  return singleAdmission(bucket, now, admitted ? count : undefined);
}

/** The key's bucket is not full in the window at the request's time (SQL read before countOnKey's). */
export function keyOpenInSql(store: KeyStore, bucket: BucketInSql, key: SQL): SQL {
  const columns = columnsOf(COUNTERS[store]);
  const { start } = windowInSql(bucket.windowMs);
  return sql`NOT ${EXISTS} (SELECT 1 FROM ${apiKeys} WHERE ${key} AND ${columns.windowStart} = ${start} AND ${columns.count} >= ${bucket.limit})`;
}

/** The caller's request was admitted by its requests bucket: SQL for the statements after the one counting it. */
export function requestAdmittedInSql(key: SQL, bucket: BucketInSql): SQL {
  return sql`${EXISTS} (SELECT 1 FROM ${apiKeys} WHERE ${key} AND ${apiKeys.requestsInWindow} <= ${bucket.limit})`;
}
