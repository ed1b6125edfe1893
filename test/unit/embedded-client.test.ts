import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { eq, sql } from 'drizzle-orm';
import Libsql from 'libsql';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { DatabaseClosed, databaseUnavailable, describeError, stackFrames } from '../../src/db/failures.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { accounts } from '../../src/db/schema.ts';
import { freePort } from '../support/processes.ts';

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
    expect(await db.select({ email: accounts.email, confirmed: accounts.emailConfirmed }).from(accounts)).toEqual([
      { email: 'a@example.com', confirmed: true },
    ]);
  });

  it('keeps a statement usable after it failed once', async () => {
    const { db } = await withAccount();
    const insert = (id: string) =>
      db.insert(accounts).values({ id, email: `${id}@example.com`, plan: 'free', creditsRemaining: 1, periodEnd: NOW, createdAt: NOW });
    await expect(insert('acct_1')).rejects.toMatchObject({ cause: { message: expect.stringMatching(/UNIQUE/) } });
    await insert('acct_2');
    expect((await db.select({ id: accounts.id }).from(accounts)).map((row) => row.id).sort()).toEqual(['acct_1', 'acct_2']);
  });

  it('commits a batch whole or not at all, and leaves no transaction open after a failure', async () => {
    const { db, client } = await withAccount();
    const spend = db.update(accounts).set({ creditsRemaining: sql`credits_remaining - 1` }).where(eq(accounts.id, 'acct_1'));
    const clash = db
      .insert(accounts)
      .values({ id: 'acct_1', email: 'c@example.com', plan: 'free', creditsRemaining: 1, periodEnd: NOW, createdAt: NOW });
    await expect(db.batch([spend, clash])).rejects.toThrow(/UNIQUE|PRIMARY/);
    const credits = async () =>
      (await db.select({ credits: accounts.creditsRemaining }).from(accounts).where(eq(accounts.id, 'acct_1')))[0]!.credits;
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
    const credits = async () =>
      (await first.client.execute({ sql: 'SELECT credits_remaining AS c FROM accounts WHERE id = ?', args: ['acct_1'] })).rows[0]!.c;
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

/** A second connection to the same file, as another process would hold it: BEGIN IMMEDIATE and a write. */
function holdWriteLock(path: string) {
  const other = new Libsql(path);
  other.exec('BEGIN IMMEDIATE');
  other.exec("UPDATE accounts SET credits_remaining = credits_remaining WHERE id = 'acct_1'");
  return {
    release: () => {
      other.exec('COMMIT');
      other.close();
    },
  };
}

/** What other connections see: a fresh connection each time, so nothing of this process's state is shared. */
function countElsewhere(path: string, sqlText: string): number {
  const reader = new Libsql(path);
  try {
    return Number((reader.prepare(sqlText).raw(true).all() as unknown[][])[0]![0]);
  } finally {
    reader.close();
  }
}

describe('embedded database client while another connection holds the write lock', () => {
  const insertAccount = (db: Database, id: string) =>
    db
      .insert(accounts)
      .values({ id, email: `${id}@example.com`, plan: 'free', creditsRemaining: 1, periodEnd: NOW, createdAt: NOW })
      .returning({ id: accounts.id });

  async function fileWithAccount(busyWaitMs: number) {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-embedded-')), 'svc.db');
    await withAccount(`file:${path}`);
    const opened = await openDatabase(`file:${path}`, undefined, { busyWaitMs });
    return { path, ...opened };
  }

  it('gives up with a busy error that says nothing was written, and after the lock is released its writes reach other connections', async () => {
    const { path, db, client } = await fileWithAccount(30);
    const lock = holdWriteLock(path);
    const refused = await insertAccount(db, 'acct_during').catch((error: unknown) => error);
    expect(databaseUnavailable(refused)).toEqual({ nothingWritten: true });
    const batchRefused = await db.batch([insertAccount(db, 'acct_batch_during')]).catch((error: unknown) => error);
    expect(databaseUnavailable(batchRefused)).toEqual({ nothingWritten: true });
    lock.release();

    await insertAccount(db, 'acct_after');
    await db.update(accounts).set({ creditsRemaining: 7 }).where(eq(accounts.id, 'acct_1'));
    await db.batch([
      insertAccount(db, 'acct_batch_after'),
      db.update(accounts).set({ creditsRemaining: 8 }).where(eq(accounts.id, 'acct_after')),
    ]);
    expect(countElsewhere(path, "SELECT COUNT(*) FROM accounts WHERE id IN ('acct_after', 'acct_batch_after')")).toBe(2);
    expect(countElsewhere(path, "SELECT credits_remaining FROM accounts WHERE id = 'acct_1'")).toBe(7);
    expect(countElsewhere(path, "SELECT COUNT(*) FROM accounts WHERE id IN ('acct_during', 'acct_batch_during')")).toBe(0);
    const inProgress = await client.execute("SELECT COUNT(*) AS n FROM sqlite_stmt WHERE busy AND sql NOT LIKE '%sqlite_stmt%'");
    expect(inProgress.rows[0]!.n).toBe(0);
    // A second process can take the lock again: this one holds nothing between calls.
    holdWriteLock(path).release();
  });

  it('waits for a lock released within its wait, without holding up the event loop meanwhile', async () => {
    const { path, db } = await fileWithAccount(5_000);
    const lock = holdWriteLock(path);
    const order: string[] = [];
    const write = insertAccount(db, 'acct_waited').then(() => order.push('write'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('timer');
    lock.release();
    await write;
    expect(order).toEqual(['timer', 'write']);
    expect(countElsewhere(path, "SELECT COUNT(*) FROM accounts WHERE id = 'acct_waited'")).toBe(1);
  });

  it('once a call has waited in vain, refuses the next at once instead of waiting again, and works again after the release', async () => {
    const { path, db } = await fileWithAccount(30);
    const lock = holdWriteLock(path);
    await expect(insertAccount(db, 'acct_first')).rejects.toThrow();
    // No timer may run before the refusal: the second call does not pause between attempts.
    const second = insertAccount(db, 'acct_second').then(
      () => 'written',
      (error: unknown) => (databaseUnavailable(error) ? 'refused' : 'failed'),
    );
    const immediate = new Promise((resolve) => setImmediate(() => resolve('immediate first')));
    expect(await Promise.race([second, immediate])).toBe('refused');
    lock.release();
    await insertAccount(db, 'acct_after');
    expect(countElsewhere(path, "SELECT COUNT(*) FROM accounts WHERE id LIKE 'acct_%'")).toBe(2);
  });

  it('answers calls after close with an error rather than touching the closed engine', async () => {
    const { db, client } = await fileWithAccount(30);
    client.close();
    const failure = await db
      .select()
      .from(accounts)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(databaseUnavailable(failure)).toEqual({ nothingWritten: true });
    await expect(client.batch(['SELECT 1'])).rejects.toBeInstanceOf(DatabaseClosed);
  });
});

describe('database failures', () => {
  it('describes a failed query by its error and SQL, never by its parameters', async () => {
    const { db } = await withAccount();
    const secret = 'idem-key-4f1c9a';
    const failure = await db
      .insert(accounts)
      .values({ id: 'acct_1', email: `${secret}@example.com`, plan: 'free', creditsRemaining: 1, periodEnd: NOW, createdAt: NOW })
      .catch((error: unknown) => error);
    expect(String((failure as Error).message)).toContain(secret);
    const described = describeError(failure);
    expect(described).toMatch(/UNIQUE constraint failed: accounts\.id/);
    expect(described).toContain('insert into "accounts"');
    expect(described).not.toContain(secret);
    expect(stackFrames(failure).join('\n')).not.toContain(secret);
    expect(databaseUnavailable(failure)).toBeUndefined();
  });

  it('takes a libsql:// server that cannot be reached, over HTTP or WebSocket, for the database out of reach', async () => {
    const port = await freePort();
    for (const url of [`http://127.0.0.1:${port}`, `ws://127.0.0.1:${port}`]) {
      const remote = createClient({ url });
      const failure = await remote.batch(['SELECT 1'], 'write').catch((error: unknown) => error);
      expect(databaseUnavailable(failure), url).toEqual({ nothingWritten: false });
      remote.close();
      expect(databaseUnavailable(await remote.execute('SELECT 1').catch((error: unknown) => error)), url).toBeDefined();
    }
  });

  it('tells the database out of reach from a faulty statement for each client', () => {
    expect(databaseUnavailable(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toEqual({ nothingWritten: true });
    expect(databaseUnavailable(Object.assign(new Error('x'), { code: 'SQLITE_BUSY_SNAPSHOT' }))).toEqual({ nothingWritten: true });
    expect(databaseUnavailable(Object.assign(new Error('closed'), { code: 'CLIENT_CLOSED' }))).toEqual({ nothingWritten: true });
    expect(databaseUnavailable(Object.assign(new Error('ws'), { code: 'HRANA_WEBSOCKET_ERROR' }))).toEqual({ nothingWritten: false });
    expect(
      databaseUnavailable(new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) })),
    ).toEqual({ nothingWritten: false });
    expect(databaseUnavailable(new Error('D1_ERROR: D1 DB is overloaded. Too many requests queued.'))).toEqual({ nothingWritten: true });
    expect(databaseUnavailable(new Error('D1_ERROR: Network connection lost.'))).toEqual({ nothingWritten: false });
    expect(
      databaseUnavailable(Object.assign(new Error('UNIQUE constraint failed: accounts.id'), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })),
    ).toBeUndefined();
    expect(databaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeUndefined();
  });
});
