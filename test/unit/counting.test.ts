import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { finalBuckets, previewBuckets, requestBuckets, webFinalBuckets } from '../../src/limits/buckets.ts';
import { admissionOf, countingStatements } from '../../src/limits/count.ts';
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
  });
});
