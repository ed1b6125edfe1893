import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { commitDocument } from '../../src/credits/commit.ts';
import { idempotencyKeys } from '../../src/db/schema.ts';
import { requestFingerprint } from '../../src/documents/fingerprint.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { readKey } from '../../src/idempotency/lease.ts';
import { parseJson } from '../../src/json/parse.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { documentRow, expectError, finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { acquireLease } from '../support/leases.ts';

/**
 * The decisions that depend on the clock (in progress, taken over after 35 seconds, forgotten after 24 hours)
 * with the same key stored for several accounts: each account's decision follows its own key's age.
 */
let app: TestApp;
let early: Caller;
let late: Caller;
beforeEach(async () => {
  app = await createTestApp();
  early = await seedCaller(app, { credits: 5 });
  late = await seedCaller(app, { credits: 5 });
});

const fingerprint = requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(finalInvoice()))));
const lease = (who: Caller, key = 'order-1') => acquireLease(app.db, { accountId: who.account.id, key, fingerprint, now: app.clock.now() });
const row = (who: Caller, key = 'order-1') => readKey(app.db, { accountId: who.account.id, key });

describe('the same key running in two accounts', () => {
  it('the one running over 35 s is taken over; the other, younger, is still in progress', async () => {
    const stale = await lease(early);
    app.clock.advance(20_000);
    const young = await lease(late);
    if (stale.kind !== 'acquired' || young.kind !== 'acquired') throw new Error('no lease');
    app.clock.advance(15_001);

    const taken = await makeDocument(app, early, finalInvoice(), { key: 'order-1' });
    expect(taken.status).toBe(201);
    expect(taken.headers.get('Svc-Idempotent-Replay')).toBe('false');
    await expectError(await makeDocument(app, late, finalInvoice(), { key: 'order-1' }), 409, 'idempotency_in_progress');

    expect(await row(early)).toMatchObject({ documentId: taken.headers.get('Svc-Document-Id') });
    expect(await row(late)).toMatchObject({ leaseId: young.lease.leaseId, documentId: null });
    expect(await ledger(app, early)).toMatchObject({ credits: 4, documents: 1 });
    expect(await ledger(app, late)).toMatchObject({ credits: 5, documents: 0 });

    // The attempt that was taken over commits nothing; the other account's running attempt still can.
    expect(
      (await commitDocument(app.db, { row: documentRow(app, early, 'doc_stale00000000000001'), charge: true, lease: stale.lease })).kind,
    ).toBe('lease_lost');
    expect(
      (await commitDocument(app.db, { row: documentRow(app, late, 'doc_young00000000000001'), charge: true, lease: young.lease })).kind,
    ).toBe('committed');
    expect(await ledger(app, early)).toMatchObject({ credits: 4, documents: 1 });
    expect(await ledger(app, late)).toMatchObject({ credits: 4, documents: 1 });
  });

  it('a running attempt in one account does not make another account’s finished key look in progress', async () => {
    await lease(early);
    const done = await makeDocument(app, late, finalInvoice(), { key: 'order-1' });
    expect(done.status).toBe(201);
    app.clock.advance(10_000);
    const replay = await makeDocument(app, late, finalInvoice(), { key: 'order-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(replay.headers.get('Svc-Document-Id')).toBe(done.headers.get('Svc-Document-Id'));
    await expectError(await makeDocument(app, early, finalInvoice(), { key: 'order-1' }), 409, 'idempotency_in_progress');
  });
});

describe('the same key remembered in two accounts', () => {
  it('is forgotten after 24 hours in the account that used it then, and still replayed in the one that used it since', async () => {
    const old = await makeDocument(app, early, finalInvoice(), { key: 'order-1' });
    app.clock.advance(12 * 3600_000);
    const recent = await makeDocument(app, late, finalInvoice(), { key: 'order-1' });
    app.clock.advance(12 * 3600_000);

    const renewed = await makeDocument(app, early, finalInvoice(), { key: 'order-1' });
    expect(renewed.status).toBe(201);
    expect(renewed.headers.get('Svc-Idempotent-Replay')).toBe('false');
    expect(renewed.headers.get('Svc-Document-Id')).not.toBe(old.headers.get('Svc-Document-Id'));
    const replay = await makeDocument(app, late, finalInvoice(), { key: 'order-1' });
    expect(replay.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(replay.headers.get('Svc-Document-Id')).toBe(recent.headers.get('Svc-Document-Id'));

    expect(await ledger(app, early)).toMatchObject({ credits: 3, documents: 2 });
    expect(await ledger(app, late)).toMatchObject({ credits: 4, documents: 1 });
    const rows = await app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'order-1'));
    expect(rows).toHaveLength(2);
  });
});
