import { join } from 'node:path';
import Libsql from 'libsql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { hashKey } from '../../src/auth/key-format.ts';
import { type AppConfig, loadConfig } from '../../src/config.ts';
import { DatabaseBusy } from '../../src/db/failures.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { type DocumentRow, listQuery } from '../../src/documents/record.ts';
import { seedCaller } from '../support/accounts.ts';
import { BASE, createTestApp, interceptDb, isCommitBatch, type TestApp, TestClock, testFonts } from '../support/app.ts';
import { expectError, finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { tempDir } from '../support/processes.ts';

/** The handler on a database file with a short wait for the lock, as a server process has it. */
async function fileApp(config: Partial<AppConfig> = {}): Promise<{ app: TestApp; path: string }> {
  const path = join(tempDir('svc-busy-'), 'svc.db');
  const { db } = await openDatabase(`file:${path}`, undefined, { busyWaitMs: 50 });
  const clock = new TestClock();
  const fetch = createApp({
    db,
    clock,
    config: loadConfig({}, { logRequests: false, rateLimitsEnabled: false, ...config }),
    fonts: testFonts(),
  });
  return { app: { fetch, db, clock, call: (route, init) => fetch(new Request(`${BASE}${route}`, init)) }, path };
}

/** Another connection to the file, as another process would hold it: BEGIN IMMEDIATE and a write, until released. */
function holdWriteLock(path: string) {
  const other = new Libsql(path);
  other.exec('BEGIN IMMEDIATE');
  other.exec('UPDATE accounts SET credits_remaining = credits_remaining');
  return () => {
    other.exec('COMMIT');
    other.close();
  };
}

/** Reads the file through a connection of its own, as another process would. */
function readElsewhere(path: string, sql: string, args: unknown[] = []): unknown[] {
  const reader = new Libsql(path);
  try {
    return reader.prepare(sql).all(args) as unknown[];
  } finally {
    reader.close();
  }
}

/** Everything the handler writes to the console while `run` runs. */
async function consoleDuring(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  const spies = (['log', 'error', 'warn', 'info'] as const).map((name) => vi.spyOn(console, name).mockImplementation(keep));
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines.join('\n');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a database whose write lock another process holds', () => {
  it('answers 503 service_busy with Retry-After, charges nothing, logs no parameter, and recovers by itself once the lock is released', async () => {
    const { app, path } = await fileApp();
    const caller = await seedCaller(app, { credits: 3 });
    const idempotencyKey = 'idem-busy-7d41f0';
    const reference = 'REF-BUSY-93c2';
    const release = holdWriteLock(path);

    let refused: Response | undefined;
    let account: Response | undefined;
    const logged = await consoleDuring(async () => {
      refused = await makeDocument(app, caller, finalInvoice({}, { reference }), { key: idempotencyKey });
      account = await app.call('/api/v1/account', { headers: caller.headers });
    });
    const body = await expectError(refused!, 503, 'service_busy');
    expect(refused!.headers.get('Retry-After')).toMatch(/^[1-9]\d*$/);
    expect(body.credit_used).toBe(false);
    // Reading needs no lock, and the last_used_at write that failed is best effort.
    expect(account!.status).toBe(200);
    expect(logged).toMatch(/SQLITE_BUSY|database is locked/);
    for (const secret of [idempotencyKey, reference, caller.key, hashKey(caller.key)]) expect(logged).not.toContain(secret);
    release();

    const made = await makeDocument(app, caller, finalInvoice({}, { reference }), { key: idempotencyKey });
    expect(made.status).toBe(201);
    const id = made.headers.get('Svc-Document-Id');
    expect(readElsewhere(path, 'SELECT id, credits_consumed FROM documents WHERE reference = ?', [reference])).toEqual([
      { id, credits_consumed: 1 },
    ]);
    expect(readElsewhere(path, 'SELECT credits_remaining FROM accounts WHERE id = ?', [caller.account.id])).toEqual([
      { credits_remaining: 2 },
    ]);
    expect(readElsewhere(path, 'SELECT document_id FROM idempotency_keys WHERE key = ?', [idempotencyKey])).toEqual([{ document_id: id }]);
  });

  it('with rate limits on, is 503 limiter_unavailable, and the limiter logs no bucket or parameter', async () => {
    const { app, path } = await fileApp({ rateLimitsEnabled: true });
    const caller = await seedCaller(app, { credits: 3 });
    const release = holdWriteLock(path);
    let response: Response | undefined;
    const logged = await consoleDuring(async () => {
      response = await app.call('/api/v1/account', { headers: caller.headers });
    });
    release();
    const body = await expectError(response!, 503, 'service_busy');
    expect(body.error.details).toEqual([expect.objectContaining({ code: 'limiter_unavailable' })]);
    expect(response!.headers.get('Retry-After')).toMatch(/^[1-9]\d*$/);
    expect(logged).toMatch(/rate limiter: .*(SQLITE_BUSY|database is locked)/);
    expect(logged).not.toContain(caller.keyId);
    expect(logged).not.toContain('params');
    expect((await app.call('/api/v1/account', { headers: caller.headers })).status).toBe(200);
  });
});

describe('a commit the database refused before it began', () => {
  it('is 503 service_busy rather than commit_status_unknown: nothing charged, the key given back, the retry charged once', async () => {
    let refusals = 1;
    const faulty = await createTestApp({
      wrapDb: (db) =>
        interceptDb(db, {
          batch: (real) => (queries) =>
            isCommitBatch(queries) && refusals-- > 0 ? Promise.reject(new DatabaseBusy(2_000)) : real(queries),
        }),
    });
    const who = await seedCaller(faulty, { credits: 2 });
    const body = await expectError(await makeDocument(faulty, who, finalInvoice(), { key: 'busy-commit' }), 503, 'service_busy');
    expect(body.credit_used).toBe(false);
    expect(await ledger(faulty, who)).toMatchObject({ credits: 2, documents: 0 });
    const retry = await makeDocument(faulty, who, finalInvoice(), { key: 'busy-commit' });
    expect(retry.status).toBe(201);
    expect(await ledger(faulty, who)).toMatchObject({ credits: 1, documents: 1 });
  });
});

describe('a key whose attempt was refused while the lock was still held', () => {
  it('is given back once the lock is released, so the retry Retry-After asks for makes the document, charged once', async () => {
    const path = join(tempDir('svc-busy-'), 'svc.db');
    const { db } = await openDatabase(`file:${path}`, undefined, { busyWaitMs: 50 });
    let release: (() => void) | undefined;
    const lockedAtCommit = interceptDb(db, {
      batch: (real) => (queries) => {
        if (isCommitBatch(queries)) release ??= holdWriteLock(path);
        return real(queries);
      },
    });
    const clock = new TestClock();
    const fetch = createApp({
      db: lockedAtCommit,
      clock,
      config: loadConfig({}, { logRequests: false, rateLimitsEnabled: false }),
      fonts: testFonts(),
    });
    const app: TestApp = { fetch, db, clock, call: (route, init) => fetch(new Request(`${BASE}${route}`, init)) };
    const who = await seedCaller(app, { credits: 2 });

    const logged = await consoleDuring(async () => {
      const refused = await makeDocument(app, who, finalInvoice(), { key: 'held-at-commit' });
      await expectError(refused, 503, 'service_busy');
      expect(readElsewhere(path, 'SELECT key FROM idempotency_keys')).toHaveLength(1);
      release!();
      await vi.waitFor(() => expect(readElsewhere(path, 'SELECT key FROM idempotency_keys')).toEqual([]), { timeout: 5_000, interval: 50 });
    });
    expect(logged).not.toContain('held-at-commit');

    const retry = await makeDocument(app, who, finalInvoice(), { key: 'held-at-commit' });
    expect(retry.status, await retry.clone().text()).toBe(201);
    expect(await ledger(app, who)).toMatchObject({ credits: 1, documents: 1 });
  });
});

describe('the index of the history by reference', () => {
  it('holds only documents with a reference, and still serves the history filtered by one', async () => {
    const { client, db } = await openDatabase(':memory:');
    try {
      const indexes = await client.execute("SELECT name, partial FROM pragma_index_list('documents')");
      expect(indexes.rows.find((row) => row.name === 'documents_account_reference')?.partial).toBe(1);

      const now = Date.now();
      const searches = async (after?: DocumentRow) => {
        const { sql, params } = listQuery(db, {
          accountId: 'acct_1',
          now,
          limit: 10,
          reference: 'r-1',
          ...(after ? { after } : {}),
        }).toSQL();
        const plan = await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: params as (string | number)[] });
        return plan.rows.map((row) => String(row.detail)).filter((step) => /^SEARCH documents\b/.test(step));
      };
      const byReference = expect.stringContaining('INDEX documents_account_reference (account_id=? AND reference=? AND created_at>?)');
      expect(await searches()).toEqual([byReference, byReference]);
      // The next page: the rows after the previous page's last.
      const last = { id: 'doc_01m3vcs7e06t1v5r0c8m', createdAt: now - 60_000 } as DocumentRow;
      const afterLast = expect.stringContaining(
        'INDEX documents_account_reference (account_id=? AND reference=? AND created_at>? AND created_at<?)',
      );
      expect(await searches(last)).toEqual([afterLast, afterLast]);
    } finally {
      client.close();
    }
  });
});
