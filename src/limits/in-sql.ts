import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PLANS, type PlanLimits, planOf } from '../accounts/plans.ts';
import { type Bucket, type BucketStore, WINDOW_NAMES, windowStart } from './buckets.ts';

/**
 * A caller known to the database only: the key's id, its account's id and the account's plan as SQL read in the
 * same statement (the key is looked up by its hash in the same batch, so JavaScript does not know them yet).
 */
export interface CallerInSql {
  readonly keyId: SQL;
  readonly accountId: SQL;
  readonly plan: SQL;
}

/** A bucket whose name and limit the database works out (from the caller in SQL, or placeholders bound per request). */
export interface BucketInSql {
  readonly name: SQL | Placeholder;
  readonly limit: SQL;
  readonly windowMs: number;
  readonly store: BucketStore;
}

/** Stand-ins for the ids in a bucket's name: ids (src/ids.ts) hold no braces. */
const KEY_MARK = '{keyId}';
const ACCOUNT_MARK = '{accountId}';
const MARKS = /(\{keyId\}|\{accountId\})/;

/**
 * The buckets `make` gives a caller, as SQL: names and limits come from the same functions that name and limit
 * them in JavaScript (buckets.ts), the ids spliced in where the caller's stand in, each limit a CASE over the plans
 * (an unknown stored plan counts as free, as planOf has it), or the number itself where every plan has the same:
 * no look-up of the caller's plan then (the requests bucket's, in most statements of a keyed request).
 */
export function bucketsInSql(
  make: (keyId: string, accountId: string, plan: PlanLimits) => readonly Bucket[],
  caller: CallerInSql,
): BucketInSql[] {
  const byPlan = Object.entries(PLANS).map(([name, plan]) => [name, make(KEY_MARK, ACCOUNT_MARK, plan.limits)] as const);
  const fallback = make(KEY_MARK, ACCOUNT_MARK, planOf('').limits);
  return fallback.map((bucket, index) => {
    const limits = byPlan.map(([, buckets]) => buckets[index]!.limit);
    const whens = byPlan.map(([name], plan) => `WHEN '${name}' THEN ${limits[plan]}`).join(' ');
    const parts = bucket.name
      .split(MARKS)
      .filter((part) => part !== '')
      .map((part) => (part === KEY_MARK ? caller.keyId : part === ACCOUNT_MARK ? caller.accountId : sql`${part}`));
    return {
      name: sql`(${sql.join(parts, sql` || `)})`,
      limit: limits.every((limit) => limit === bucket.limit)
        ? sql.raw(String(bucket.limit))
        : sql`(CASE ${caller.plan} ${sql.raw(whens)} ELSE ${sql.raw(String(bucket.limit))} END)`,
      windowMs: bucket.windowMs,
      store: bucket.store,
    };
  });
}

/**
 * The start and the end of a window of `windowMs` at the request's time, as placeholders: statements built once
 * (src/db/prepared.ts) are bound per request with windowValues.
 */
export function windowInSql(windowMs: number): { start: Placeholder; end: Placeholder } {
  return { start: sql.placeholder(`window_start_${windowMs}`), end: sql.placeholder(`window_end_${windowMs}`) };
}

const WINDOWS_MS = Object.keys(WINDOW_NAMES).map(Number);

/** The values of windowInSql's placeholders at `now`, for every window a bucket counts in. */
export function windowValues(now: number): Record<string, number> {
  const values: Record<string, number> = {};
  for (const windowMs of WINDOWS_MS) {
    const start = windowStart(now, windowMs);
    values[`window_start_${windowMs}`] = start;
    values[`window_end_${windowMs}`] = start + windowMs;
  }
  return values;
}
