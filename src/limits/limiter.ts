import { type SQL, sql } from 'drizzle-orm';
import { sendBatch } from '../db/batch.ts';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { describeError } from '../db/failures.ts';
import { preparedPerDatabase, statementOf, statementsPerDatabase } from '../db/prepared.ts';
import { rateLimitWindows } from '../db/schema.ts';
import { type Bucket, windowStart } from './buckets.ts';
import { type BucketInSql, windowInSql, windowValues } from './in-sql.ts';

export interface BucketState {
  bucket: Bucket;
  count: number;
  /** When the bucket's current window ends, in ms since the epoch. */
  resetAt: number;
}

export type Admission = { admitted: true; states: BucketState[] } | { admitted: false; states: BucketState[]; refusing: BucketState[] };

const countBelowLimit = preparedPerDatabase((db) =>
  db
    .insert(rateLimitWindows)
    .values({ bucket: sql.placeholder('bucket'), windowStart: sql.placeholder('start'), count: 1, expiresAt: sql.placeholder('end') })
    .onConflictDoUpdate({
      target: [rateLimitWindows.bucket, rateLimitWindows.windowStart],
      set: { count: sql`${rateLimitWindows.count} + 1` },
      setWhere: sql`${rateLimitWindows.count} < ${sql.placeholder('limit')}`,
    })
    .returning({ count: rateLimitWindows.count })
    .prepare(),
);

/** One bucket's admission from its upsert's answer: its new count, or nothing when it was full. */
export function singleAdmission(bucket: Bucket, now: number, counted: { count: number } | undefined): Admission {
  const resetAt = windowStart(now, bucket.windowMs) + bucket.windowMs;
  if (counted) return { admitted: true, states: [{ bucket, count: counted.count, resetAt }] };
  const state = { bucket, count: bucket.limit, resetAt };
  return { admitted: false, states: [state], refusing: [state] };
}

/** One bucket (the requests and new-final buckets): a single upsert that counts only below the limit. */
async function admitOne(db: Database, bucket: Bucket, now: number): Promise<Admission> {
  const start = windowStart(now, bucket.windowMs);
  const [counted] = await countBelowLimit(db).all({ bucket: bucket.name, start, end: start + bucket.windowMs, limit: bucket.limit });
  return singleAdmission(bucket, now, counted);
}

/**
 * The upsert of admitOne as one statement of a larger batch, for a bucket the database names and limits itself
 * (BucketInSql), where `condition` holds: a row back (the bucket and its new count) means counted. Through
 * drizzle's insert builder, as the service's every write to the windows.
 */
export function countInBatch(db: Database, bucket: BucketInSql, condition: SQL) {
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

/** The limiter's storage could not be reached: the request is not processed (503 limiter_unavailable). */
export class LimiterUnavailable extends Error {}

/**
 * Counts a request against all of its buckets or none, in SQL: one batch makes sure each window's row exists,
 * adds 1 to every row only if none of them is at its limit, and reads the counts. No read-modify-write in
 * JavaScript, so the same holds across processes and isolates sharing the database.
 */
export async function admit(db: Database, buckets: readonly Bucket[], now: number): Promise<Admission> {
  try {
    if (buckets.length === 1) return await admitOne(db, buckets[0]!, now);
    const answers = await sendBatch(db, admitStatements(db, buckets, now));
    return admissionOf(buckets, now, answers);
  } catch (error) {
    throw new LimiterUnavailable(describeError(error));
  }
}

/**
 * admitInBatch's statements for buckets counted in `windows` (one bucket a window length, in order), each bucket's
 * name and limit a placeholder: built once per database and list of windows, as drizzle building them for each
 * replay cost 37 µs of its time outside the render (issue 19).
 */
const admitStatementsOf = statementsPerDatabase((db, { windows }: { windows: readonly number[] }) =>
  admitInBatch(
    db,
    windows.map((windowMs, index) => ({
      name: sql.placeholder(`bucket_${index}`),
      limit: sql`${sql.placeholder(`limit_${index}`)}`,
      windowMs,
    })),
    sql`1 = 1`,
  ).map(statementOf),
);

/**
 * admit's statements for buckets JavaScript knows, bound for `now`, for a batch of the caller's (a replay's, with
 * its document's read); admissionOf reads their answers.
 */
export function admitStatements(db: Database, buckets: readonly Bucket[], now: number) {
  const values: Record<string, unknown> = windowValues(now);
  buckets.forEach((bucket, index) => {
    values[`bucket_${index}`] = bucket.name;
    values[`limit_${index}`] = bucket.limit;
  });
  return admitStatementsOf(db, { windows: buckets.map((bucket) => bucket.windowMs) }).map((statement) => statement.bind(values));
}

/**
 * None of `buckets` is full in its current window, as SQL (read before the batch counts them): one look-up by
 * primary key per bucket (an OR of them all would have SQLite scan every window).
 */
export function openInSql(buckets: readonly BucketInSql[]): SQL {
  const open = buckets.map((bucket) => {
    const { start } = windowInSql(bucket.windowMs);
    return sql`NOT ${EXISTS} (SELECT 1 FROM ${rateLimitWindows} WHERE ${rateLimitWindows.bucket} = ${bucket.name}
      AND ${rateLimitWindows.windowStart} = ${start} AND ${rateLimitWindows.count} >= ${bucket.limit})`;
  });
  return sql`(${sql.join(open, sql` AND `)})`;
}

/**
 * admit's statements for a batch of several buckets (a single one is countInBatch), where `condition`
 * holds: every bucket counted (its window's row made where it has none) only if none is full, then their counts
 * read, whether or not they were counted; admissionOf reads the answers. One upsert does the counting: whether a
 * bucket is full is a subquery that does not depend on the row being written, so SQLite evaluates it once, before
 * the first row is written (and, the SELECT reading the table it writes, SQLite fills the rows into a temporary
 * table before writing any): all or none. `condition` filters the wanted rows themselves: where it does not hold
 * (a preview that does not get that far) SQLite works out no bucket name or limit at all.
 */
export function admitInBatch(db: Database, buckets: readonly BucketInSql[], condition: SQL) {
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
  return [
    counting,
    db.all<{ bucket: string; count: number }>(
      sql`SELECT bucket, count FROM ${rateLimitWindows} WHERE (bucket, window_start) IN (VALUES ${keys})`,
    ),
  ];
}

/**
 * The admission of buckets counted by admitInBatch, from its statements' answers: admitted when every bucket was
 * counted, else refused by the full ones (their counts read after the batch counted nothing).
 */
export function admissionOf(buckets: readonly Bucket[], now: number, [counted, current]: readonly unknown[]): Admission {
  const windows = buckets.map((bucket) => ({ bucket, resetAt: windowStart(now, bucket.windowMs) + bucket.windowMs }));
  const counts = new Map((counted as { bucket: string; count: number }[]).map((row) => [row.bucket, row.count]));
  if (counts.size === buckets.length) {
    return { admitted: true, states: windows.map(({ bucket, resetAt }) => ({ bucket, count: counts.get(bucket.name)!, resetAt })) };
  }
  const read = new Map((current as { bucket: string; count: number }[]).map((row) => [row.bucket, row.count]));
  const states = windows.map(({ bucket, resetAt }) => ({ bucket, count: read.get(bucket.name) ?? 0, resetAt }));
  return { admitted: false, states, refusing: states.filter((state) => state.count >= state.bucket.limit) };
}
