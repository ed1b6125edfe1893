import { type SQL, sql } from 'drizzle-orm';
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
 * The columns of one of the key's buckets (the start of the window it counts in, and its count in it), and how it
 * counts. The requests bucket counts every request of an active key, admitted or not, so that the statement that
 * counts it also signs the caller in: its count stops at the limit + 1, which marks the window as refused (a refused
 * request adds nothing), and its count says whether it was admitted. A final is counted only below the limit the
 * statement works out: a row back means admitted, none that the bucket was full.
 */
interface KeyCounter {
  readonly countField: 'requestsInWindow' | 'finalsInWindow';
  readonly windowField: 'requestsWindowStart' | 'finalsWindowStart';
  readonly onlyBelowLimit: boolean;
}

const COUNTERS: Readonly<Record<KeyStore, KeyCounter>> = {
  key_requests: { countField: 'requestsInWindow', windowField: 'requestsWindowStart', onlyBelowLimit: false },
  key_finals: { countField: 'finalsInWindow', windowField: 'finalsWindowStart', onlyBelowLimit: true },
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
  const below = counter.onlyBelowLimit ? sql`(${columns.windowStart} IS NOT ${start} OR ${columns.count} < ${bucket.limit})` : undefined;
  const upTo = counter.onlyBelowLimit ? sql`${columns.count} + 1` : sql`MIN(${columns.count} + 1, ${bucket.limit} + 1)`;
  const terms = [where.key, below, where.condition].filter((term) => term !== undefined);
  return db
    .update(apiKeys)
    .set({
      ...where.also,
      [counter.countField]: sql`CASE WHEN ${columns.windowStart} = ${start} THEN ${upTo} ELSE 1 END`,
      [counter.windowField]: sql`${start}`,
    })
    .where(sql.join(terms, sql` AND `))
    .returning();
}

/** The admission of a bucket counted by countOnKey, from its statement's answer: counted up to the limit, admitted. */
export function keyAdmission(bucket: Bucket<KeyStore>, now: number, [rows]: readonly unknown[]): Admission {
  const counter = COUNTERS[bucket.store];
  const count = (rows as Partial<Record<KeyCounter['countField'], number>>[])[0]?.[counter.countField];
  const admitted = count !== undefined && (counter.onlyBelowLimit || count <= bucket.limit);
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
