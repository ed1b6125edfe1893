import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { commitDocument } from '../../src/credits/commit.ts';
import { DatabaseBusy } from '../../src/db/failures.ts';
import { accounts, idempotencyKeys } from '../../src/db/schema.ts';
import { requestFingerprint } from '../../src/documents/fingerprint.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { readKey } from '../../src/idempotency/lease.ts';
import { parseJson } from '../../src/json/parse.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, interceptDb, isCommitBatch, type TestApp } from '../support/app.ts';
import { documentRow, expectError, finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { acquireLease } from '../support/leases.ts';

/**
 * A keyed final whose situation changes between its render and its commit: the last credit taken by another
 * final, the key taken over by a later attempt, or the key's row gone. Section 3 and 7: 402 with the key given
 * back; 409 idempotency_in_progress while another attempt holds the key; never a 500, never a second charge.
 */
let app: TestApp;
let caller: Caller;
/** Runs once, just before the next commit batch reaches the database, as a concurrent request would. */
let beforeNextCommit: (() => Promise<void>) | undefined;
/** Runs once, just before the next read of an idempotency key row reaches the database. */
let beforeNextKeyRead: (() => Promise<void>) | undefined;

beforeEach(async () => {
  beforeNextCommit = undefined;
  beforeNextKeyRead = undefined;
  app = await createTestApp({
    wrapDb: (db) =>
      interceptDb(db, {
        batch: (real) => async (queries) => {
          if (isCommitBatch(queries) && beforeNextCommit) {
            const hook = beforeNextCommit;
            beforeNextCommit = undefined;
            await hook();
          }
          return real(queries);
        },
        select: (real) => ((...args: unknown[]) => delayKeyRead((real as (...a: unknown[]) => object)(...args))) as never,
      }),
  });
  // Other accounts' keys are stored first, so that a lookup that is not the caller's own finds them.
  for (let i = 0; i < 2; i++) {
    const other = await seedCaller(app, { credits: 5 });
    expect((await makeDocument(app, other, finalInvoice(), { key: 'order-1' })).status).toBe(201);
    await acquireLease(app.db, {
      accountId: other.account.id,
      key: 'running',
      fingerprint: fingerprintOf(finalInvoice()),
      now: app.clock.now(),
    });
  }
  caller = await seedCaller(app, { credits: 1 });
});

const keyRow = (who: Caller, key = 'order-1') => readKey(app.db, { accountId: who.account.id, key });

describe('a keyed final that loses the last credit at commit time', () => {
  it('is 402 insufficient_credits, charges nothing, records nothing, and gives the key back for a later retry', async () => {
    let competitor: Response | undefined;
    beforeNextCommit = async () => {
      competitor = await makeDocument(app, caller, finalInvoice({ notes: 'the other final' }));
    };
    const body = await expectError(await makeDocument(app, caller, finalInvoice(), { key: 'order-1' }), 402, 'insufficient_credits');
    expect(competitor?.status).toBe(201);
    expect(body).toMatchObject({ credit_used: false, credits_remaining: 0 });
    const state = await ledger(app, caller);
    expect(state).toMatchObject({ credits: 0, documents: 1 });
    expect(state.rows[0]!.id).toBe(competitor!.headers.get('Svc-Document-Id'));
    expect(await keyRow(caller)).toBeUndefined();

    // With a credit again, the same key makes the document: the refused attempt left nothing behind.
    await app.db.update(accounts).set({ creditsRemaining: 1 }).where(eq(accounts.id, caller.account.id));
    const retry = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Svc-Idempotent-Replay')).toBe('false');
    expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 2 });
    expect(await keyRow(caller)).toMatchObject({ documentId: retry.headers.get('Svc-Document-Id') });
  });

  it('leaves other accounts’ keys as they were', async () => {
    const before = await app.db.select().from(idempotencyKeys);
    beforeNextCommit = async () => {
      await makeDocument(app, caller, finalInvoice({ notes: 'the other final' }));
    };
    await expectError(await makeDocument(app, caller, finalInvoice(), { key: 'order-1' }), 402, 'insufficient_credits');
    const after = await app.db.select().from(idempotencyKeys);
    expect(after).toEqual(before);
  });
});

/**
 * Just before the next commit, another attempt takes the key `order-1` over (its takeover time has passed), then
 * runs `then`; what that attempt got is in the returned object once the commit has been reached.
 */
function takeOverBeforeNextCommit(then: () => Promise<void> = async () => {}) {
  const taken: { result?: Awaited<ReturnType<typeof acquireLease>> } = {};
  beforeNextCommit = async () => {
    app.clock.advance(35_001);
    taken.result = await acquireLease(app.db, {
      accountId: caller.account.id,
      key: 'order-1',
      fingerprint: fingerprintOf(finalInvoice()),
      now: app.clock.now(),
    });
    await then();
  };
  return taken;
}

describe('a keyed final whose key another attempt holds at commit time', () => {
  it('is 409 idempotency_in_progress while the attempt that took the key over still runs, and that attempt commits once', async () => {
    await app.db.update(accounts).set({ creditsRemaining: 2 }).where(eq(accounts.id, caller.account.id));
    const taken = takeOverBeforeNextCommit();
    const late = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    const body = await expectError(late, 409, 'idempotency_in_progress');
    expect(body.credit_used).toBe(false);
    expect(late.headers.get('Retry-After')).toBe('5');
    const takeover = taken.result;
    if (takeover?.kind !== 'acquired') throw new Error('the later attempt did not take the key over');
    expect(await ledger(app, caller)).toMatchObject({ credits: 2, documents: 0 });
    expect(await keyRow(caller)).toMatchObject({ leaseId: takeover.lease.leaseId, documentId: null });

    // The running attempt still holds the key: a retry now is told so, and its own commit goes through once.
    await expectError(await makeDocument(app, caller, finalInvoice(), { key: 'order-1' }), 409, 'idempotency_in_progress');
    const committed = await commitDocument(app.db, {
      row: documentRow(app, caller, 'doc_takeover000000000001'),
      charge: true,
      lease: takeover.lease,
    });
    expect(committed).toEqual({ kind: 'committed', creditsRemaining: 1 });
    expect(await ledger(app, caller)).toMatchObject({ credits: 1, documents: 1 });
  });

  it('is 409, not 402, when the credit is gone too: the key is the other attempt’s to give back', async () => {
    const taken = takeOverBeforeNextCommit(async () => {
      await app.db.update(accounts).set({ creditsRemaining: 0 }).where(eq(accounts.id, caller.account.id));
    });
    await expectError(await makeDocument(app, caller, finalInvoice(), { key: 'order-1' }), 409, 'idempotency_in_progress');
    const takeover = taken.result;
    if (takeover?.kind !== 'acquired') throw new Error('the later attempt did not take the key over');
    expect(await keyRow(caller)).toMatchObject({ leaseId: takeover.lease.leaseId, documentId: null });
    expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 0 });
  });
});

describe('a keyed final whose key row is gone at commit time', () => {
  it('gets the lost-lease answer, 409, never a 500, and commits and charges nothing', async () => {
    beforeNextCommit = async () => {
      await app.db.delete(idempotencyKeys).where(eq(idempotencyKeys.accountId, caller.account.id));
    };
    const response = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    const body = await expectError(response, 409, 'idempotency_in_progress');
    expect(body.credit_used).toBe(false);
    expect(await ledger(app, caller)).toMatchObject({ credits: 1, documents: 0 });

    const retry = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    expect(retry.status).toBe(201);
    expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 1 });
  });

  it('commitDocument reports lease_lost for it, and no_credit only while the lease is still held', async () => {
    const held = await acquireLease(app.db, {
      accountId: caller.account.id,
      key: 'order-2',
      fingerprint: fingerprintOf(finalInvoice()),
      now: app.clock.now(),
    });
    if (held.kind !== 'acquired') throw new Error('no lease');
    await app.db.update(accounts).set({ creditsRemaining: 0 }).where(eq(accounts.id, caller.account.id));
    expect(
      await commitDocument(app.db, { row: documentRow(app, caller, 'doc_nocredit00000000001'), charge: true, lease: held.lease }),
    ).toEqual({ kind: 'no_credit' });
    await app.db.delete(idempotencyKeys).where(eq(idempotencyKeys.accountId, caller.account.id));
    expect(
      await commitDocument(app.db, { row: documentRow(app, caller, 'doc_nocredit00000000002'), charge: true, lease: held.lease }),
    ).toEqual({ kind: 'lease_lost' });
    expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 0 });
  });
});

describe('a busy database around the commit (503 service_busy: nothing recorded, nothing charged)', () => {
  it('the batch refused before it began: 503 with Retry-After, saying nothing was charged; the key is given back', async () => {
    beforeNextCommit = async () => {
      throw new DatabaseBusy(2_000);
    };
    const response = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    const body = await expectError(response, 503, 'service_busy');
    expect(body.credit_used).toBe(false);
    expect(body.error.message).toContain('nothing was charged');
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await ledger(app, caller)).toMatchObject({ credits: 1, documents: 0 });
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'order-1' })).status).toBe(201);
  });

  it('the key unreadable after a commit that recorded nothing: 503 with Retry-After, not a 500', async () => {
    // The credit goes to another final during the render, then the read that tells 402 from 409 finds the
    // database locked: nothing was recorded, so the answer is the busy one.
    beforeNextCommit = async () => {
      await makeDocument(app, caller, finalInvoice({ notes: 'the other final' }));
      beforeNextKeyRead = async () => {
        throw new DatabaseBusy(2_000);
      };
    };
    const response = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    const body = await expectError(response, 503, 'service_busy');
    expect(body.credit_used).toBe(false);
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 1 });
  });

  it('the key read failing for a reason other than the database: 500 commit_status_unknown, not a busy answer', async () => {
    // Only a database that refused the work says for certain that nothing was done; any other failure is answered
    // as an unconfirmed outcome, which the client resolves by sending the same key again.
    beforeNextCommit = async () => {
      await makeDocument(app, caller, finalInvoice({ notes: 'the other final' }));
      beforeNextKeyRead = async () => {
        throw new TypeError('not a database failure');
      };
    };
    const response = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    const body = await expectError(response, 500, 'commit_status_unknown');
    expect(body.credit_used).toBeNull();
    expect(response.headers.get('Retry-After')).toBeNull();
    expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 1 });
  });
});

/**
 * `select()` as the app sees it: a read of the idempotency key table waits for `beforeNextKeyRead` first.
 * Other reads pass untouched.
 */
function delayKeyRead(builder: object): object {
  return new Proxy(builder, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'from') return typeof value === 'function' ? value.bind(target) : value;
      return (table: unknown) => {
        const query = (value as (t: unknown) => { where(condition: unknown): PromiseLike<unknown> }).call(target, table);
        if (table !== idempotencyKeys || !beforeNextKeyRead) return query;
        const hook = beforeNextKeyRead;
        beforeNextKeyRead = undefined;
        return {
          where: (condition: unknown) => {
            const filtered = query.where(condition);
            return {
              // biome-ignore lint/suspicious/noThenProperty: a thenable, as drizzle's query builder is, so `await` runs the hook first.
              then: (resolve: (v: unknown) => unknown, reject: (e: unknown) => unknown) =>
                hook()
                  .then(() => filtered)
                  .then(resolve, reject),
            };
          },
        };
      };
    },
  });
}

function fingerprintOf(body: unknown): string {
  return requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(body))));
}

/** The commit batch is the one that inserts a document record. */
