import { type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import type { ApiError } from '../contract/api-error.ts';
import { sendBatch } from '../db/batch.ts';
import type { Database } from '../db/database.ts';
import { describeError } from '../db/failures.ts';
import { statementOf, statementsPerDatabase } from '../db/prepared.ts';
import { log } from '../log.ts';
import type { Admission } from './admission.ts';
import type { Bucket, BucketStore, WindowBucket } from './buckets.ts';
import { type BucketInSql, windowValues } from './in-sql.ts';
import { countOnKey, type KeyRowWrites, keyAdmission, keyOpenInSql } from './key-counters.ts';
import { limiterUnavailable, type RateLimitReport, refusalError } from './report.ts';
import { countInWindows, windowsAdmission, windowsOpenInSql } from './windows.ts';

/**
 * Counting a request in its buckets, one way for every bucket: each declares where it is stored (Bucket.store), and
 * countingStatements makes the statements that count the buckets there, all or none, for a batch of the caller's
 * (the sign-in's, a create's) or a round trip of their own (countRequest); admissionOf reads their answers.
 */

/** Where a request's buckets are counted: the SQL that says it got that far, and the caller's key row. */
export interface CountingPlace {
  /** Counted only where this holds; always without one. */
  readonly condition?: SQL;
  /** SQL selecting the caller's key row, for the buckets stored on it. */
  readonly key?: SQL;
  /** The key row's other writes in the statement that counts on it. */
  readonly alsoOnKey?: KeyRowWrites;
}

/** The one store a list of buckets is counted in; the key's row holds one bucket per statement. */
function storeOf(buckets: readonly { readonly store: BucketStore }[]): BucketStore {
  const store = buckets[0]?.store;
  if (store === undefined || buckets.some((bucket) => bucket.store !== store)) throw new Error('buckets are counted in one store');
  if (store !== 'windows' && buckets.length > 1) throw new Error(`one bucket at a time is counted on the key's row`);
  return store;
}

function keyOf(place: CountingPlace): SQL {
  if (!place.key) throw new Error(`a bucket stored on the key's row is counted with the key`);
  return place.key;
}

/** The statements counting `buckets` where they are stored; admissionOf reads their answers. */
export function countingStatements(db: Database, buckets: readonly BucketInSql[], place: CountingPlace = {}) {
  const store = storeOf(buckets);
  if (store === 'windows') return countInWindows(db, buckets, place.condition);
  return [countOnKey(db, store, buckets[0]!, { key: keyOf(place), condition: place.condition, also: place.alsoOnKey })];
}

/** The admission of `buckets` from the answers of countingStatements' statements, in their order. */
export function admissionOf(buckets: readonly Bucket[], now: number, answers: readonly unknown[]): Admission {
  const store = storeOf(buckets);
  return store === 'windows' ? windowsAdmission(buckets, now, answers) : keyAdmission(buckets[0] as Bucket<typeof store>, now, answers);
}

/** None of `buckets` is full in its window at the request's time, as SQL read before the batch counts them. */
export function openInSql(buckets: readonly BucketInSql[], place: CountingPlace = {}): SQL {
  const store = storeOf(buckets);
  return store === 'windows' ? windowsOpenInSql(buckets) : keyOpenInSql(store, buckets[0]!, keyOf(place));
}

/**
 * countingStatements for buckets JavaScript knows, their names and limits placeholders: built once per database and
 * list of windows, as drizzle building them for each replay cost 37 µs of its time outside the render (issue 19).
 */
const countingStatementsOf = statementsPerDatabase((db, { windows }: { windows: readonly number[] }) =>
  countingStatements(
    db,
    windows.map((windowMs, index) => ({
      name: sql.placeholder(`bucket_${index}`),
      limit: sql`${sql.placeholder(`limit_${index}`)}`,
      windowMs,
      store: 'windows',
    })),
  ).map(statementOf),
);

/** countingStatements for buckets JavaScript knows, bound for `now`: for a batch of the caller's (a replay's) or countRequest's. */
export function countingBound(db: Database, buckets: readonly WindowBucket[], now: number) {
  const values: Record<string, unknown> = windowValues(now);
  buckets.forEach((bucket, index) => {
    values[`bucket_${index}`] = bucket.name;
    values[`limit_${index}`] = bucket.limit;
  });
  return countingStatementsOf(db, { windows: buckets.map((bucket) => bucket.windowMs) }).map((statement) => statement.bind(values));
}

/** What counting needs: the database holding the windows, the clock, and the operator's switch for the limits. */
export interface LimiterDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: Pick<AppConfig, 'rateLimitsEnabled'>;
}

/** The request being counted: its id for the log line, and the report its RateLimit headers are made from. */
interface CountedRequest {
  readonly requestId: string;
  /** Absent: the request is counted (and refused past the limit) but its buckets stay out of the headers. */
  readonly rateLimits?: RateLimitReport;
}

/**
 * Counts this request in its buckets in a round trip of its own, all or none: throws the contract's refusal (429 or
 * 503 with Retry-After) when one is full, 503 limiter_unavailable when the limiter cannot be reached. The buckets
 * counted, or on a refusal the refusing ones, go into the request's RateLimit report when it has one.
 */
export async function countRequest(buckets: readonly WindowBucket[], deps: LimiterDeps, request: CountedRequest): Promise<void> {
  if (!deps.config.rateLimitsEnabled) return;
  const now = deps.clock.now();
  let admission: Admission;
  try {
    admission = admissionOf(buckets, now, await sendBatch(deps.db, countingBound(deps.db, buckets, now)));
  } catch (error) {
    throw limiterDown(request.requestId, error);
  }
  reportAdmission(admission, now, request);
}

/** Puts an admission into the request's RateLimit report; throws the contract's refusal when it was refused. */
export function reportAdmission(admission: Admission, now: number, request: Pick<CountedRequest, 'rateLimits'>): void {
  // A refusal reports the bucket that refused (0 left): the others of its admission were not counted.
  request.rateLimits?.add(admission.admitted ? admission.states : admission.refusing);
  if (!admission.admitted) throw refusalError(admission, now);
}

/** The answer when the limiter's storage cannot be reached (503 limiter_unavailable), logged with the cause. */
export function limiterDown(requestId: string, error: unknown): ApiError {
  log('error', 'rate_limiter_unavailable', { request_id: requestId, error: `rate limiter: ${describeError(error)}` });
  return limiterUnavailable();
}
