import { type SQL, sql } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { finalBuckets, previewBuckets, requestBuckets, webFinalBuckets } from '../../src/limits/buckets.ts';
import { admissionOf, countingStatements, openInSql } from '../../src/limits/count.ts';
import { bucketsInSql, type CallerInSql } from '../../src/limits/in-sql.ts';

const limits = PLANS.free.limits;
const caller: CallerInSql = { keyId: sql`'key_1'`, accountId: sql`'acct_1'`, plan: sql`'free'` };
const NOW = Date.parse('2026-11-02T10:00:30Z');

describe('a bucket declares where it is counted', () => {
  it('the key’s requests and new finals on the key’s row, every other bucket in the windows', () => {
    expect(requestBuckets('k', limits).map((bucket) => bucket.store)).toEqual(['key_requests']);
    expect(finalBuckets('k', limits).map((bucket) => bucket.store)).toEqual(['key_finals']);
    expect(new Set(previewBuckets('a', 'k', limits).map((bucket) => bucket.store))).toEqual(new Set(['windows']));
    expect(webFinalBuckets('a', limits).map((bucket) => bucket.store)).toEqual(['windows']);
  });

  it('one list is counted in one store, a bucket on the key’s row with the key and alone', async () => {
    const { db } = await openDatabase(':memory:');
    const inSql = (make: Parameters<typeof bucketsInSql>[0]) => bucketsInSql(make, caller);
    const final = inSql((keyId, _accountId, plan) => finalBuckets(keyId, plan));
    const requests = inSql((keyId, _accountId, plan) => requestBuckets(keyId, plan));
    const previews = inSql((keyId, accountId, plan) => previewBuckets(accountId, keyId, plan));
    expect(() => countingStatements(db, [...final, ...previews])).toThrow('one store');
    expect(() => countingStatements(db, [...final, ...requests])).toThrow('one store');
    expect(() => countingStatements(db, [...final, ...final])).toThrow('one bucket at a time');
    expect(() => countingStatements(db, final)).toThrow('with the key');
    expect(() => countingStatements(db, [])).toThrow('one store');
    expect(countingStatements(db, final, { key: sql`1 = 1` })).toHaveLength(1);
    expect(countingStatements(db, previews)).toHaveLength(2);
  });

  it('a bucket is open where it is stored: the key’s row for a new final, the windows for a preview', async () => {
    const text = (fragment: SQL) => new SQLiteSyncDialect().sqlToQuery(fragment).sql;
    const [final] = bucketsInSql((keyId, _accountId, plan) => finalBuckets(keyId, plan), caller);
    const previews = bucketsInSql((keyId, accountId, plan) => previewBuckets(accountId, keyId, plan), caller);
    expect(text(openInSql([final!], { key: sql`caller_row` }))).toMatch(
      /FROM "api_keys" WHERE caller_row AND "api_keys"\."finals_window_start"/,
    );
    expect(() => openInSql([final!])).toThrow('with the key');
    const open = text(openInSql(previews));
    expect(open).not.toContain('api_keys');
    expect(open.match(/FROM "rate_limit_windows"/g)).toHaveLength(previews.length);
  });

  it('a bucket on the key’s row is admitted up to its limit, refused past it or when no row was counted', () => {
    const [requests] = requestBuckets('k', { ...limits, requestsPerMinuteKey: 2 });
    const rows = (count: number) => [[{ requestsInWindow: count, finalsInWindow: 0 }]];
    expect(admissionOf([requests!], NOW, rows(2))).toMatchObject({ admitted: true, states: [{ count: 2, resetAt: NOW + 30_000 }] });
    expect(admissionOf([requests!], NOW, rows(3))).toMatchObject({ admitted: false, refusing: [{ count: 2 }] });
    const [final] = finalBuckets('k', limits);
    expect(admissionOf([final!], NOW, [[]])).toMatchObject({ admitted: false });
    expect(admissionOf([final!], NOW, [[{ requestsInWindow: 5, finalsInWindow: 1 }]])).toMatchObject({
      admitted: true,
      states: [{ count: 1 }],
    });
    // A final is counted only below the limit the statement worked out from the plan it read: a row back is an
    // admission even past the limit of the plan the request read before (upgraded between the two).
    const past = final!.limit + 1;
    expect(admissionOf([final!], NOW, [[{ requestsInWindow: 5, finalsInWindow: past }]])).toMatchObject({
      admitted: true,
      states: [{ count: past }],
    });
  });
});
