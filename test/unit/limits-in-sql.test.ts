import { sql } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { finalBuckets, requestBuckets } from '../../src/limits/buckets.ts';
import { bucketsInSql, type CallerInSql } from '../../src/limits/in-sql.ts';

const caller: CallerInSql = { keyId: sql`caller_key`, accountId: sql`caller_account`, plan: sql`caller_plan` };
const text = (fragment: Parameters<SQLiteSyncDialect['sqlToQuery']>[0]) => new SQLiteSyncDialect().sqlToQuery(fragment).sql;

describe('bucket limits in SQL', () => {
  it('are the number itself where every plan has the same, with no look-up of the caller’s plan', () => {
    const limits = Object.values(PLANS).map((plan) => requestBuckets('key', plan.limits)[0]!.limit);
    expect(new Set(limits).size).toBe(1);
    const [requests] = bucketsInSql((keyId, _accountId, plan) => requestBuckets(keyId, plan), caller);
    expect(text(requests!.limit)).toBe(String(limits[0]));
  });

  it('are a CASE over the caller’s plan where plans differ, an unknown plan taken as free', () => {
    const [final] = bucketsInSql((keyId, _accountId, plan) => finalBuckets(keyId, plan), caller);
    const whens = Object.entries(PLANS)
      .map(([name, plan]) => `WHEN '${name}' THEN ${finalBuckets('key', plan.limits)[0]!.limit}`)
      .join(' ');
    expect(text(final!.limit)).toBe(`(CASE caller_plan ${whens} ELSE ${finalBuckets('key', PLANS.free.limits)[0]!.limit} END)`);
    expect(text(sql`${final!.name}`)).toBe('(? || caller_key)');
  });
});
