import { type SQL, sql } from 'drizzle-orm';
import { PLANS, type PlanLimits, planOf } from '../accounts/plans.ts';
import { builtOnce } from '../db/prepared.ts';
import type { Bucket } from './buckets.ts';

/**
 * A caller known to the database only: the key's id, its account's id and the account's plan as SQL read in the
 * same statement (the key is looked up by its hash in the same batch, so JavaScript does not know them yet).
 */
export interface CallerInSql {
  readonly keyId: SQL;
  readonly accountId: SQL;
  readonly plan: SQL;
}

/** A bucket whose name and limit the database works out from the caller in SQL. */
export interface BucketInSql {
  readonly name: SQL;
  readonly limit: SQL;
  readonly windowMs: number;
}

/** Stand-ins for the ids in a bucket's name: ids (src/ids.ts) hold no braces. */
const KEY_MARK = '{keyId}';
const ACCOUNT_MARK = '{accountId}';
const MARKS = /(\{keyId\}|\{accountId\})/;

/**
 * The buckets `make` gives a caller, as SQL: names and limits come from the same functions that name and limit
 * them in JavaScript (buckets.ts), the ids spliced in where the caller's stand in, each limit a CASE over the plans
 * (an unknown stored plan counts as free, as planOf has it). Each built once: a request's statements use them several
 * times.
 */
export function bucketsInSql(
  make: (keyId: string, accountId: string, plan: PlanLimits) => readonly Bucket[],
  caller: CallerInSql,
): BucketInSql[] {
  const byPlan = Object.entries(PLANS).map(([name, plan]) => [name, make(KEY_MARK, ACCOUNT_MARK, plan.limits)] as const);
  const fallback = make(KEY_MARK, ACCOUNT_MARK, planOf('').limits);
  return fallback.map((bucket, index) => {
    const whens = byPlan.map(([name, buckets]) => `WHEN '${name}' THEN ${buckets[index]!.limit}`).join(' ');
    const parts = bucket.name
      .split(MARKS)
      .filter((part) => part !== '')
      .map((part) => (part === KEY_MARK ? caller.keyId : part === ACCOUNT_MARK ? caller.accountId : sql`${part}`));
    return {
      name: builtOnce(sql`(${sql.join(parts, sql` || `)})`),
      limit: builtOnce(sql`(CASE ${caller.plan} ${sql.raw(whens)} ELSE ${sql.raw(String(bucket.limit))} END)`),
      windowMs: bucket.windowMs,
    };
  });
}

/** A bucket whose name and limit JavaScript knows (a failed sign-in's network), for the same statements. */
export function fixedBucketInSql(bucket: Bucket): BucketInSql {
  return { name: sql`${bucket.name}`, limit: sql`${bucket.limit}`, windowMs: bucket.windowMs };
}
