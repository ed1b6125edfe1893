import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { commitDocument } from '../../src/credits/commit.ts';
import { documents } from '../../src/db/schema.ts';
import { requestFingerprint } from '../../src/documents/fingerprint.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { purgeExpired } from '../../src/documents/retention.ts';
import { BASE32_ALPHABET, newTimeOrderedId } from '../../src/ids.ts';
import { parseJson } from '../../src/json/parse.ts';
import { DocumentListSchema } from '../../src/openapi/schemas.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, interceptDb, isCommitBatch, type TestApp } from '../support/app.ts';
import { documentRow, expectError, finalInvoice, ledger, makeDocument, makePreviews, previewInvoice } from '../support/documents.ts';
import { acquireLease } from '../support/leases.ts';

/** The document route where the test moves the clock, sets limits or injects database faults. */
let app: TestApp;
let caller: Caller;
beforeEach(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: 5 });
});

const get = (path: string, who: Caller = caller) => app.call(path, { headers: who.headers });

describe('credit periods', () => {
  it('a renewed period restores the allowance for the next final', async () => {
    const broke = await seedCaller(app, { credits: 0 });
    app.clock.current = Date.parse('2026-12-01T00:00:01Z');
    const response = await makeDocument(app, broke, finalInvoice());
    expect(response.status).toBe(201);
    expect(response.headers.get('Svc-Credits-Remaining')).toBe('49');
  });
});

describe('413 response_too_large, nothing charged', () => {
  it('for the file form over its limit', async () => {
    const small = await createTestApp({ config: { pdfFileLimit: 5_000 } });
    const who = await seedCaller(small, { credits: 5 });
    await expectError(await makeDocument(small, who, finalInvoice()), 413, 'response_too_large');
    expect(await ledger(small, who)).toMatchObject({ credits: 5, documents: 0 });
    expect((await makeDocument(small, who, finalInvoice(), { accept: 'application/json' })).status).toBe(201);
  });

  it('for the JSON form over its own limit, while the file form still fits', async () => {
    const small = await createTestApp({ config: { pdfJsonLimit: 5_000 } });
    const who = await seedCaller(small, { credits: 5 });
    await expectError(await makeDocument(small, who, finalInvoice(), { accept: 'application/json' }), 413, 'response_too_large');
    expect(await ledger(small, who)).toMatchObject({ credits: 5, documents: 0 });
    expect((await makeDocument(small, who, finalInvoice())).status).toBe(201);
  });
});

describe('Idempotency-Key and the clock', () => {
  it('first request still running (≤ 35 s) → 409 idempotency_in_progress with Retry-After: 5', async () => {
    const running = await heldLease('order-6');
    expect(running.kind).toBe('acquired');
    app.clock.advance(35_000);
    const body = await expectError(await makeDocument(app, caller, finalInvoice(), { key: 'order-6' }), 409, 'idempotency_in_progress');
    expect(body.credit_used).toBe(false);
    const again = await makeDocument(app, caller, finalInvoice(), { key: 'order-6' });
    expect(again.headers.get('Retry-After')).toBe('5');
  });

  it('running over 35 s → taken over; the old attempt can no longer commit, and one document is charged', async () => {
    const stale = await heldLease('order-7');
    if (stale.kind !== 'acquired') throw new Error('no lease');
    app.clock.advance(35_001);
    const taken = await makeDocument(app, caller, finalInvoice(), { key: 'order-7' });
    expect(taken.status).toBe(201);
    expect(taken.headers.get('Svc-Idempotent-Replay')).toBe('false');

    const late = await commitDocument(app.db, {
      row: documentRow(app, caller, 'doc_late00000000000000'),
      charge: true,
      lease: stale.lease,
    });
    expect(late.kind).toBe('lease_lost');
    const state = await ledger(app, caller);
    expect(state).toMatchObject({ credits: 4, documents: 1 });
    expect(state.rows[0]!.id).toBe(taken.headers.get('Svc-Document-Id'));
    const replay = await makeDocument(app, caller, finalInvoice(), { key: 'order-7' });
    expect(replay.headers.get('Svc-Document-Id')).toBe(taken.headers.get('Svc-Document-Id'));
  });

  it('an attempt taken over commits nothing even while the attempt that took it is still running', async () => {
    const stale = await heldLease('order-9');
    if (stale.kind !== 'acquired') throw new Error('no lease');
    app.clock.advance(35_001);
    const current = await heldLease('order-9');
    if (current.kind !== 'acquired') throw new Error('no takeover');

    const late = await commitDocument(app.db, {
      row: documentRow(app, caller, 'doc_late00000000000001'),
      charge: true,
      lease: stale.lease,
    });
    expect(late.kind).toBe('lease_lost');
    expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 0 });
    const committed = await commitDocument(app.db, {
      row: documentRow(app, caller, 'doc_taken0000000000001'),
      charge: true,
      lease: current.lease,
    });
    expect(committed).toEqual({ kind: 'committed', creditsRemaining: 4 });
  });

  it('remembered 24 hours: after that the same key makes a new document', async () => {
    const first = await makeDocument(app, caller, finalInvoice(), { key: 'order-8' });
    app.clock.advance(24 * 3600_000 - 1);
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'order-8' })).headers.get('Svc-Idempotent-Replay')).toBe('true');
    app.clock.advance(1);
    const later = await makeDocument(app, caller, finalInvoice(), { key: 'order-8' });
    expect(later.status).toBe(201);
    expect(later.headers.get('Svc-Idempotent-Replay')).toBe('false');
    expect(later.headers.get('Svc-Document-Id')).not.toBe(first.headers.get('Svc-Document-Id'));
    expect(await ledger(app, caller)).toMatchObject({ credits: 3, documents: 2 });
  });
});

describe('500 commit_status_unknown', () => {
  it('when the commit fails after the PDF exists; a retry after 35 s makes the document, charged once', async () => {
    let failures = 1;
    const faulty = await createTestApp({
      wrapDb: (db) =>
        interceptDb(db, {
          batch: (real) => (queries) => {
            if (isCommitBatch(queries) && failures > 0) {
              failures--;
              return Promise.reject(new Error('database went away'));
            }
            return real(queries);
          },
        }),
    });
    const who = await seedCaller(faulty, { credits: 2 });
    const body = await expectError(await makeDocument(faulty, who, finalInvoice(), { key: 'fault-1' }), 500, 'commit_status_unknown');
    expect(body.credit_used).toBeNull();
    expect(JSON.stringify(body)).not.toContain('database went away');
    expect(await ledger(faulty, who)).toMatchObject({ credits: 2, documents: 0 });
    await expectError(await makeDocument(faulty, who, finalInvoice(), { key: 'fault-1' }), 409, 'idempotency_in_progress');
    faulty.clock.advance(35_001);
    const retry = await makeDocument(faulty, who, finalInvoice(), { key: 'fault-1' });
    expect(retry.status).toBe(201);
    expect(await ledger(faulty, who)).toMatchObject({ credits: 1, documents: 1 });
  });

  it('when the commit went through but was not confirmed in time; the retry replays it, no second charge', async () => {
    let slow = true;
    const faulty = await createTestApp({
      config: { commitTimeoutMs: 20 },
      wrapDb: (db) =>
        interceptDb(db, {
          batch: (real) => async (queries) => {
            const result = await real(queries);
            if (isCommitBatch(queries) && slow) {
              slow = false;
              await new Promise((resolve) => setTimeout(resolve, 100));
            }
            return result;
          },
        }),
    });
    const who = await seedCaller(faulty, { credits: 2 });
    const body = await expectError(await makeDocument(faulty, who, finalInvoice(), { key: 'fault-2' }), 500, 'commit_status_unknown');
    expect(body.credit_used).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await ledger(faulty, who)).toMatchObject({ credits: 1, documents: 1 });
    faulty.clock.advance(35_001);
    const retry = await makeDocument(faulty, who, finalInvoice(), { key: 'fault-2' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(await ledger(faulty, who)).toMatchObject({ credits: 1, documents: 1 });
  });
});

describe('history over time', () => {
  it('lists newest first by created_at then id, both descending, across pages with equal created_at', async () => {
    const early = await makePreviews(app, caller, 2);
    app.clock.advance(1_000);
    const same = await makePreviews(app, caller, 5);
    app.clock.advance(1_000);
    const late = await makePreviews(app, caller, 1);
    const expected = [...late, ...[...same].sort().reverse(), ...[...early].sort().reverse()];

    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const response = await get(`/api/v1/documents?limit=3${cursor}`);
      expect(response.status).toBe(200);
      const page = await response.json();
      expect(v.safeParse(DocumentListSchema, page).issues).toBeUndefined();
      seen.push(...page.data.map((d: { id: string }) => d.id));
      pages++;
      if (!page.has_more) break;
      cursor = `&starting_after=${page.data.at(-1).id}`;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
  });
});

describe('history within one second', () => {
  it('orders documents of one second by id descending, not by the milliseconds the record keeps, on every page', async () => {
    const earlier = await makePreviews(app, caller, 2);
    const ofOneSecond: string[] = [];
    for (let i = 0; i < 10; i++) {
      app.clock.current = Date.parse('2026-11-02T10:00:01Z') + i * 100;
      ofOneSecond.push(...(await makePreviews(app, caller, 1)));
    }
    app.clock.current = Date.parse('2026-11-02T10:00:02.999Z');
    const later = await makePreviews(app, caller, 1);
    const expected = [...later, ...[...ofOneSecond].sort().reverse(), ...[...earlier].sort().reverse()];

    const whole = await (await get('/api/v1/documents?limit=100')).json();
    expect(whole.data.map((d: { id: string }) => d.id)).toEqual(expected);
    expect(new Set(whole.data.slice(1, 11).map((d: { created_at: string }) => d.created_at))).toEqual(new Set(['2026-11-02T10:00:01Z']));

    for (const limit of [1, 3, 4]) {
      const seen: string[] = [];
      let cursor = '';
      for (;;) {
        const page = await (await get(`/api/v1/documents?limit=${limit}${cursor}`)).json();
        seen.push(...page.data.map((d: { id: string }) => d.id));
        if (!page.has_more) break;
        cursor = `&starting_after=${page.data.at(-1).id}`;
      }
      expect(seen, `limit=${limit}`).toEqual(expected);
    }
  });
});

describe('retention (section 8, 9.8)', () => {
  it('hides records older than 90 days at once, and the purge deletes them', async () => {
    const [id] = await makePreviews(app, caller, 1);
    app.clock.advance(90 * 24 * 3600_000 - 1);
    expect((await get(`/api/v1/documents/${id}`)).status).toBe(200);
    app.clock.advance(1);
    expect((await get(`/api/v1/documents/${id}`)).status).toBe(404);
    expect((await (await get('/api/v1/documents')).json()).data).toEqual([]);
    expect((await get(`/api/v1/documents?starting_after=${id}`)).status).toBe(400);
    expect((await ledger(app, caller)).documents).toBe(1);
    const purged = await purgeExpired(app.db, app.clock.now());
    expect(purged).toMatchObject({ documents: 1, idempotency_keys: 0 });
    expect((await ledger(app, caller)).documents).toBe(0);
  });

  it('purges idempotency keys after 24 hours', async () => {
    await makeDocument(app, caller, previewInvoice(), { key: 'keep-1' });
    expect((await purgeExpired(app.db, app.clock.now() + 24 * 3600_000 - 1)).idempotency_keys).toBe(0);
    expect((await purgeExpired(app.db, app.clock.now() + 24 * 3600_000)).idempotency_keys).toBe(1);
  });
});

/** The commit batch is the one that inserts a document record. */

/** A lease as a running attempt of the same request holds it. */
async function heldLease(key: string) {
  const fingerprint = requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(finalInvoice()))));
  return acquireLease(app.db, { accountId: caller.account.id, key, fingerprint, now: app.clock.now() });
}

describe('document ids', () => {
  it('sort by when the document was made, one millisecond apart, and keep the form of every id', async () => {
    const ids: string[] = [];
    for (let made = 0; made < 8; made++) {
      app.clock.advance(1);
      const response = await makeDocument(app, caller, previewInvoice());
      expect(response.status).toBe(201);
      ids.push(response.headers.get('Svc-Document-Id')!);
    }
    for (const id of ids) expect(id).toMatch(new RegExp(`^doc_[${BASE32_ALPHABET}]{20}$`));
    expect([...ids].sort()).toEqual(ids);
    // The first ten characters are the time the record says it was made.
    const [last] = await app.db
      .select()
      .from(documents)
      .where(eq(documents.id, ids.at(-1)!));
    expect(last!.createdAt).toBe(app.clock.now());
    expect(ids.at(-1)!.slice(0, 14)).toBe(newTimeOrderedId('doc', last!.createdAt).slice(0, 14));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
