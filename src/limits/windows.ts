import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { rateLimitWindows } from '../db/schema.ts';
import { type Admission, resetOf, singleAdmission } from './admission.ts';
import type { Bucket } from './buckets.ts';
import { type BucketInSql, windowInSql } from './in-sql.ts';

/**
 * Buckets counted in rate_limit_windows, a row per bucket and window: the statements that count them for
 * count.ts, all or none, only where `condition` holds, and the admission their answers give. No read-modify-write
 * in JavaScript, so the same holds across processes and isolates sharing the database.
 */

/** The rows the counting statements answer: a bucket and its count. */
type CountRow = { bucket: string; count: number };

/**
 * One bucket: a single upsert that counts only below the limit, where `condition` holds. A row back (its new count)
 * means counted.
 */
function countOne(db: Database, bucket: BucketInSql, condition: SQL) {
  const { start, end } = windowInSql(bucket.windowMs);
  return db
    .insert(rateLimitWindows)
    .select(sql`SELECT ${bucket.name}, ${start}, 1, ${end} WHERE ${condition}`)
    .onConflictDoUpdate({
      target: [rateLimitWindows.bucket, rateLimitWindows.windowStart],
      set: { count: sql`${rateLimitWindows.count} + 1` },
      setWhere: sql`${rateLimitWindows.count} < ${bucket.limit}`,
    })
    .returning({ bucket: rateLimitWindows.bucket, count: rateLimitWindows.count });
}

/**
 * Several buckets, where `condition` holds: every bucket counted (its window's row made where it has none) only if
 * none is full, then their counts read, whether or not they were counted. One upsert does the counting: whether a
 * bucket is full is a subquery that does not depend on the row being written, so SQLite evaluates it once, before
 * the first row is written (and, the SELECT reading the table it writes, SQLite fills the rows into a temporary
 * table before writing any): all or none. `condition` filters the wanted rows themselves: where it does not hold
 * (a preview that does not get that far) SQLite works out no bucket name or limit at all.
 */
function countSeveral(db: Database, buckets: readonly BucketInSql[], condition: SQL) {
  const windows = buckets.map((bucket) => ({ bucket, ...windowInSql(bucket.windowMs) }));
  // Rows as VALUES, not SELECTs joined by UNION ALL: D1 refuses a compound SELECT of more than a few terms
  // ("too many terms in compound SELECT"), and a VALUES list is not one.
  const wanted = sql.join(
    windows.map(({ bucket, start, end }) => sql`(${bucket.name}, ${start}, ${bucket.limit}, ${end})`),
    sql`, `,
  );
  const keys = sql.join(
    windows.map(({ bucket, start }) => sql`(${bucket.name}, ${start})`),
    sql`, `,
  );
  const counting = db
    .insert(rateLimitWindows)
    .select(
      sql`WITH wanted(bucket, window_start, quota, expires_at) AS (SELECT * FROM (VALUES ${wanted}) WHERE ${condition})
      SELECT bucket, window_start, 1, expires_at FROM wanted
      WHERE NOT ${EXISTS} (
        SELECT 1 FROM ${rateLimitWindows} AS w JOIN wanted AS at_quota ON w.bucket = at_quota.bucket AND w.window_start = at_quota.window_start
        WHERE w.count >= at_quota.quota)`,
    )
    .onConflictDoUpdate({
      target: [rateLimitWindows.bucket, rateLimitWindows.windowStart],
      set: { count: sql`${rateLimitWindows.count} + 1` },
    })
    .returning({ bucket: rateLimitWindows.bucket, count: rateLimitWindows.count });
  return [counting, db.all<CountRow>(sql`SELECT bucket, count FROM ${rateLimitWindows} WHERE (bucket, window_start) IN (VALUES ${keys})`)];
}

/**
 * The statements counting `buckets` in their windows where `condition` holds (always, without one: a WHERE all the
 * same, as SQLite asks of an upsert's SELECT, which its parser could otherwise read as a join's ON).
 */
export function countInWindows(db: Database, buckets: readonly BucketInSql[], condition: SQL | undefined) {
  const where = condition ?? sql`1 = 1`;
  return buckets.length === 1 ? [countOne(db, buckets[0]!, where)] : countSeveral(db, buckets, where);
}

/**
 * The admission of buckets counted by countInWindows, from its statements' answers: admitted when every bucket was
 * counted, else refused by the full ones (one bucket: its count is its limit; several: their counts as read after
 * the batch counted nothing).
 */
export function windowsAdmission(buckets: readonly Bucket[], now: number, answers: readonly unknown[]): Admission {
  const [counted, current] = answers as [CountRow[], CountRow[] | undefined];
  if (buckets.length === 1) return singleAdmission(buckets[0]!, now, counted[0]?.count);
  const windows = buckets.map((bucket) => ({ bucket, resetAt: resetOf(bucket, now) }));
  const counts = new Map(counted.map((row) => [row.bucket, row.count]));
  if (counts.size === buckets.length) {
    return { admitted: true, states: windows.map(({ bucket, resetAt }) => ({ bucket, count: counts.get(bucket.name)!, resetAt })) };
  }
  const read = new Map((current ?? []).map((row) => [row.bucket, row.count]));
  const states = windows.map(({ bucket, resetAt }) => ({ bucket, count: read.get(bucket.name) ?? 0, resetAt }));
  return { admitted: false, refusing: states.filter((state) => state.count >= state.bucket.limit) };
}

/**
 * None of `buckets` is full in its current window, as SQL (read before the batch counts them): one look-up by
 * primary key per bucket (an OR of them all would have SQLite scan every window).
 */
export function windowsOpenInSql(buckets: readonly BucketInSql[]): SQL {
  const open = buckets.map((bucket) => {
    const { start } = windowInSql(bucket.windowMs);
    return sql`NOT ${EXISTS} (SELECT 1 FROM ${rateLimitWindows} WHERE ${rateLimitWindows.bucket} = ${bucket.name}
      AND ${rateLimitWindows.windowStart} = ${start} AND ${rateLimitWindows.count} >= ${bucket.limit})`;
  });
  return sql`(${sql.join(open, sql` AND `)})`;
}
