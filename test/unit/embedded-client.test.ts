import { eq, sql } from 'drizzle-orm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/libsql.ts';
import { accounts } from '../../src/db/schema.ts';

const NOW = Date.parse('2026-11-02T10:00:00Z');

async function withAccount(url = ':memory:') {
  const opened = await openDatabase(url);
  await opened.client.execute({
    sql: 'INSERT INTO accounts (id, email, email_confirmed, plan, credits_remaining, period_end, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    args: ['acct_1', 'a@example.com', true, 'free', 5, NOW, NOW],
  });
  return opened;
}

describe('embedded database client', () => {
  it('gives rows by column name to raw SQL and by index to the query builder', async () => {
    const { db, client } = await withAccount();
    const result = await client.execute({ sql: 'SELECT id, credits_remaining AS credits FROM accounts WHERE id = ?', args: ['acct_1'] });
    const [row] = result.rows;
    expect(result.columns).toEqual(['id', 'credits']);
    expect(Object.keys(row!)).toEqual(['id', 'credits']);
    expect([row!.length, row![0], row![1], row!.id, row!.credits]).toEqual([2, 'acct_1', 5, 'acct_1', 5]);
    expect(await db.all(sql`SELECT email, email_confirmed FROM accounts`)).toEqual([{ email: 'a@example.com', email_confirmed: 1 }]);
    expect(await db.select({ email: accounts.email, confirmed: accounts.emailConfirmed }).from(accounts)).toEqual([{ email: 'a@example.com', confirmed: true }]);
  });

  it('keeps a statement usable after it failed once', async () => {
    const { db } = await withAccount();
    const insert = (id: string) => db.insert(accounts).values({ id, email: `${id}@example.com`, plan: 'free', creditsRemaining: 1, periodEnd: NOW, createdAt: NOW });
    await expect(insert('acct_1')).rejects.toMatchObject({ cause: { message: expect.stringMatching(/UNIQUE/) } });
    await insert('acct_2');
    expect((await db.select({ id: accounts.id }).from(accounts)).map((row) => row.id).sort()).toEqual(['acct_1', 'acct_2']);
  });

  it('commits a batch whole or not at all, and leaves no transaction open after a failure', async () => {
    const { db, client } = await withAccount();
    const spend = db.update(accounts).set({ creditsRemaining: sql`credits_remaining - 1` }).where(eq(accounts.id, 'acct_1'));
    const clash = db.insert(accounts).values({ id: 'acct_1', email: 'c@example.com', plan: 'free', creditsRemaining: 1, periodEnd: NOW, createdAt: NOW });
    await expect(db.batch([spend, clash])).rejects.toThrow(/UNIQUE|PRIMARY/);
    const credits = async () => (await db.select({ credits: accounts.creditsRemaining }).from(accounts).where(eq(accounts.id, 'acct_1')))[0]!.credits;
    expect(await credits()).toBe(5);
    await db.batch([spend, spend]);
    expect(await credits()).toBe(3);
    await expect(client.execute('COMMIT')).rejects.toThrow(/no transaction/);
  });

  it('enforces foreign keys once migrated', async () => {
    const { client } = await openDatabase(':memory:');
    await expect(
      client.execute({
        sql: `INSERT INTO api_keys (id, account_id, name, kind, prefix, hash, scopes, created_at) VALUES ('key_1', 'acct_missing', 'k', 'full', 'p', 'h', 's', 0)`,
      }),
    ).rejects.toThrow(/FOREIGN KEY/);
  });

  it('opens a file: URL, creating its folder, and shares the file with a second connection', async () => {
    const url = `file:${join(mkdtempSync(join(tmpdir(), 'svc-embedded-')), 'nested', 'svc.db')}`;
    const first = await withAccount(url);
    const second = await openDatabase(url);
    expect((await second.client.execute('SELECT COUNT(*) AS n FROM accounts')).rows[0]!.n).toBe(1);
    expect((await first.client.execute('PRAGMA journal_mode')).rows[0]!.journal_mode).toBe('wal');
  });

  it('keeps no snapshot open between calls: a kept statement sees commits from another connection', async () => {
    const url = `file:${join(mkdtempSync(join(tmpdir(), 'svc-embedded-')), 'svc.db')}`;
    const first = await withAccount(url);
    const second = await openDatabase(url);
    const credits = async () => (await first.client.execute({ sql: 'SELECT credits_remaining AS c FROM accounts WHERE id = ?', args: ['acct_1'] })).rows[0]!.c;
    expect(await credits()).toBe(5);
    await second.client.execute("UPDATE accounts SET credits_remaining = 4 WHERE id = 'acct_1'");
    expect(await credits()).toBe(4);
    const [checkpoint] = (await second.client.execute('PRAGMA wal_checkpoint(TRUNCATE)')).rows;
    expect(checkpoint![0]).toBe(0);
  });

  it('still answers statements evicted from its cache of prepared statements', async () => {
    const { client } = await withAccount();
    for (let i = 0; i < 300; i++) expect((await client.execute(`SELECT ${i} AS n`)).rows[0]!.n).toBe(i);
    expect((await client.execute('SELECT 0 AS n')).rows[0]!.n).toBe(0);
  });
});
