import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { commitDocument } from '../../src/credits/commit.ts';
import { documents, idempotencyKeys } from '../../src/db/schema.ts';
import type { Database } from '../../src/db/database.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/http/json-parse.ts';
import { requestFingerprint } from '../../src/idempotency/fingerprint.ts';
import { acquireLease } from '../../src/idempotency/lease.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { seedCaller, type Caller } from '../support/accounts.ts';
import { finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { sha256 } from '../support/pdf.ts';

let app: TestApp;
let caller: Caller;
beforeEach(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: 5 });
});

async function errorOf(response: Response, status: number, code: string) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text);
  expect(body.error.code).toBe(code);
  return body;
}

describe('402 insufficient_credits', () => {
  it('refuses a final with no credit left, before rendering, and says how many and until when', async () => {
    const broke = await seedCaller(app, { credits: 0 });
    const body = await errorOf(await makeDocument(app, broke, finalInvoice()), 402, 'insufficient_credits');
    expect(body).toMatchObject({ credit_used: false, credits_remaining: 0, period_end: '2026-12-01T00:00:00Z' });
    expect(await ledger(app, broke)).toMatchObject({ credits: 0, documents: 0 });
  });

  it('N parallel finals on K < N credits: exactly K documents and N − K refusals, never below zero', async () => {
    const three = await seedCaller(app, { credits: 3 });
    const responses = await Promise.all(Array.from({ length: 8 }, () => makeDocument(app, three, finalInvoice())));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 402, 402, 402, 402, 402]);
    const state = await ledger(app, three);
    expect(state.credits).toBe(0);
    expect(state.documents).toBe(3);
  });

  it('a renewed period restores the allowance for the next final', async () => {
    const broke = await seedCaller(app, { credits: 0 });
    app.clock.current = Date.parse('2026-12-01T00:00:01Z');
    const response = await makeDocument(app, broke, finalInvoice());
    expect(response.status).toBe(201);
    expect(response.headers.get('Svc-Credits-Remaining')).toBe('49');
  });
});

describe('403 forbidden_scope by mode', () => {
  it('a Preview only key cannot make a final, and can make a preview', async () => {
    const preview = await seedCaller(app, { kind: 'preview' });
    const body = await errorOf(await makeDocument(app, preview, finalInvoice()), 403, 'forbidden_scope');
    expect(body.error.details[0].code).toBe('missing_scope');
    expect((await makeDocument(app, preview, { ...finalInvoice(), mode: 'preview' })).status).toBe(201);
    expect((await ledger(app, preview)).documents).toBe(1);
  });
});

describe('413 response_too_large, nothing charged', () => {
  it('for the file form over its limit', async () => {
    const small = await createTestApp({ config: { pdfFileLimit: 5_000 } });
    const who = await seedCaller(small, { credits: 5 });
    await errorOf(await makeDocument(small, who, finalInvoice()), 413, 'response_too_large');
    expect(await ledger(small, who)).toMatchObject({ credits: 5, documents: 0 });
    expect((await makeDocument(small, who, finalInvoice(), { accept: 'application/json' })).status).toBe(201);
  });

  it('for the JSON form over its own limit, while the file form still fits', async () => {
    const small = await createTestApp({ config: { pdfJsonLimit: 5_000 } });
    const who = await seedCaller(small, { credits: 5 });
    await errorOf(await makeDocument(small, who, finalInvoice(), { accept: 'application/json' }), 413, 'response_too_large');
    expect(await ledger(small, who)).toMatchObject({ credits: 5, documents: 0 });
    expect((await makeDocument(small, who, finalInvoice())).status).toBe(201);
  });
});

describe('422 render_rejected', () => {
  it('refuses characters no bundled font has, charges nothing, and frees the key for a corrected retry', async () => {
    const body = await errorOf(await makeDocument(app, caller, finalInvoice({ client_name: '株式会社' }), { key: 'k-render' }), 422, 'render_rejected');
    expect(body.error.message).toContain('U+682A');
    expect(body.credit_used).toBe(false);
    expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 0 });
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'k-render' })).status).toBe(201);
  });
});

describe('Idempotency-Key (section 3 table)', () => {
  it.each(['', ' ', 'k'.repeat(256), 'a b', 'caf\u00e9', '""'])('refuses the header %j with 400 invalid_idempotency_key', async (key) => {
    const body = await errorOf(await makeDocument(app, caller, finalInvoice(), { key }), 400, 'invalid_request');
    expect(body.error.details[0].code).toBe('invalid_idempotency_key');
  });

  it('new key → new document; same key and request → replay of the same id, charged once', async () => {
    const first = await makeDocument(app, caller, finalInvoice(), { key: 'order-1' });
    expect(first.status).toBe(201);
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    const second = await makeDocument(app, caller, finalInvoice(), { key: '"order-1"' });
    expect(second.status).toBe(201);
    expect(second.headers.get('Svc-Document-Id')).toBe(first.headers.get('Svc-Document-Id'));
    expect(second.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(second.headers.get('Svc-Credit-Used')).toBe('false');
    expect(second.headers.get('Svc-Credits-Remaining')).toBe('4');
    expect(second.headers.get('Svc-Totals-Total')).toBe(first.headers.get('Svc-Totals-Total'));
    expect(sha256(new Uint8Array(await second.arrayBuffer()))).toBe(sha256(firstBytes));
    expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
  });

  it('an Accept difference does not count: the replay may come in the JSON form', async () => {
    const first = await makeDocument(app, caller, finalInvoice(), { key: 'order-2' });
    const replay = await makeDocument(app, caller, finalInvoice(), { key: 'order-2', accept: 'application/json' });
    expect(replay.status).toBe(201);
    const body = await replay.json();
    expect(body).toMatchObject({ idempotent_replay: true, credit_used: false, document: { id: first.headers.get('Svc-Document-Id') } });
    expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
  });

  it('same key, different request (a changed reference counts) → 422 idempotency_key_reused', async () => {
    expect((await makeDocument(app, caller, finalInvoice({}, { reference: 'a' }), { key: 'order-3' })).status).toBe(201);
    await errorOf(await makeDocument(app, caller, finalInvoice({}, { reference: 'b' }), { key: 'order-3' }), 422, 'idempotency_key_reused');
    await errorOf(await makeDocument(app, caller, finalInvoice({ notes: 'x' }, { reference: 'a' }), { key: 'order-3' }), 422, 'idempotency_key_reused');
    expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
  });

  it('keys are per account: another account may use the same key', async () => {
    const other = await seedCaller(app, { credits: 1 });
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'shared' })).status).toBe(201);
    const theirs = await makeDocument(app, other, finalInvoice({ notes: 'different' }), { key: 'shared' });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('Svc-Idempotent-Replay')).toBe('false');
  });

  it('a validation failure is not remembered: a corrected retry with the same key makes the document', async () => {
    await errorOf(await makeDocument(app, caller, finalInvoice({ date: 'soon' }), { key: 'order-4' }), 422, 'validation_failed');
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'order-4' })).status).toBe(201);
  });

  it('a 402 is not remembered either', async () => {
    const broke = await seedCaller(app, { credits: 0 });
    await errorOf(await makeDocument(app, broke, finalInvoice(), { key: 'order-5' }), 402, 'insufficient_credits');
    const [row] = await app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'order-5'));
    expect(row).toBeUndefined();
  });

  it('first request still running (≤ 35 s) → 409 idempotency_in_progress with Retry-After: 5', async () => {
    const running = await heldLease('order-6');
    expect(running.kind).toBe('acquired');
    app.clock.advance(35_000);
    const body = await errorOf(await makeDocument(app, caller, finalInvoice(), { key: 'order-6' }), 409, 'idempotency_in_progress');
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

    const late = await commitDocument(app.db, { row: rowFor('doc_late00000000000000'), charge: true, lease: stale.lease });
    expect(late.kind).toBe('lease_lost');
    const state = await ledger(app, caller);
    expect(state).toMatchObject({ credits: 4, documents: 1 });
    expect(state.rows[0]!.id).toBe(taken.headers.get('Svc-Document-Id'));
    const replay = await makeDocument(app, caller, finalInvoice(), { key: 'order-7' });
    expect(replay.headers.get('Svc-Document-Id')).toBe(taken.headers.get('Svc-Document-Id'));
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

  it('template changed since → 409 idempotency_replay_unavailable / template_version_changed', async () => {
    const first = await makeDocument(app, caller, finalInvoice(), { key: 'order-9' });
    await app.db.update(documents).set({ templateVersion: '1.9.0' }).where(eq(documents.id, first.headers.get('Svc-Document-Id')!));
    const body = await errorOf(await makeDocument(app, caller, finalInvoice(), { key: 'order-9' }), 409, 'idempotency_replay_unavailable');
    expect(body.error.details[0].code).toBe('template_version_changed');
  });

  it('bytes no longer reproducible → 409 output_changed; never different bytes under an old id', async () => {
    const first = await makeDocument(app, caller, finalInvoice(), { key: 'order-10' });
    await app.db.update(documents).set({ sha256: '0'.repeat(64) }).where(eq(documents.id, first.headers.get('Svc-Document-Id')!));
    const body = await errorOf(await makeDocument(app, caller, finalInvoice(), { key: 'order-10' }), 409, 'idempotency_replay_unavailable');
    expect(body.error.details[0].code).toBe('output_changed');
  });

  it('a final without a key makes a new document and uses a credit every time', async () => {
    const a = await makeDocument(app, caller, finalInvoice());
    const b = await makeDocument(app, caller, finalInvoice());
    expect(a.headers.get('Svc-Document-Id')).not.toBe(b.headers.get('Svc-Document-Id'));
    expect(await ledger(app, caller)).toMatchObject({ credits: 3, documents: 2 });
  });
});

describe('500 commit_status_unknown', () => {
  it('when the commit fails after the PDF exists; a retry after 35 s makes the document, charged once', async () => {
    let failures = 1;
    const faulty = await createTestApp({
      wrapDb: (db) =>
        new Proxy(db, {
          get(target, property, receiver) {
            const value = Reflect.get(target, property, receiver);
            if (property === 'batch') {
              return (queries: unknown[]) => {
                if (isCommit(queries) && failures > 0) {
                  failures--;
                  return Promise.reject(new Error('database went away'));
                }
                return (value as (q: unknown[]) => Promise<unknown>).call(target, queries);
              };
            }
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }) as Database,
    });
    const who = await seedCaller(faulty, { credits: 2 });
    const body = await errorOf(await makeDocument(faulty, who, finalInvoice(), { key: 'fault-1' }), 500, 'commit_status_unknown');
    expect(body.credit_used).toBeNull();
    expect(JSON.stringify(body)).not.toContain('database went away');
    expect(await ledger(faulty, who)).toMatchObject({ credits: 2, documents: 0 });
    await errorOf(await makeDocument(faulty, who, finalInvoice(), { key: 'fault-1' }), 409, 'idempotency_in_progress');
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
        new Proxy(db, {
          get(target, property, receiver) {
            const value = Reflect.get(target, property, receiver);
            if (property === 'batch') {
              return async (queries: unknown[]) => {
                const result = await (value as (q: unknown[]) => Promise<unknown>).call(target, queries);
                if (isCommit(queries) && slow) {
                  slow = false;
                  await new Promise((resolve) => setTimeout(resolve, 100));
                }
                return result;
              };
            }
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }) as Database,
    });
    const who = await seedCaller(faulty, { credits: 2 });
    const body = await errorOf(await makeDocument(faulty, who, finalInvoice(), { key: 'fault-2' }), 500, 'commit_status_unknown');
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

/** The commit batch is the one that inserts a document record. */
function isCommit(queries: unknown[]): boolean {
  const first = queries[0] as { getQuery?: () => { sql: string } };
  return first.getQuery?.().sql.includes('INSERT INTO "documents"') ?? false;
}

/** A lease as a running attempt of the same request holds it. */
async function heldLease(key: string) {
  const fingerprint = await requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(finalInvoice()))));
  return acquireLease(app.db, { accountId: caller.account.id, key, fingerprint, now: app.clock.now() });
}

function rowFor(id: string) {
  return {
    id,
    accountId: caller.account.id,
    keyId: caller.keyId,
    template: 'invoice',
    templateVersion: '2.0.0',
    mode: 'final',
    paper: 'a4',
    locale: 'en',
    reference: null,
    source: 'api',
    creditsConsumed: 1,
    sha256: '0'.repeat(64),
    bytes: 1,
    createdAt: app.clock.now(),
  };
}

