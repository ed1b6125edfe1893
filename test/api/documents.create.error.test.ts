import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { isoSeconds } from '../../src/clock.ts';
import { documents, idempotencyKeys } from '../../src/db/schema.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectError, finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { sha256 } from '../support/pdf.ts';

let app: TestApp;
let caller: Caller;
beforeEach(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: 5 });
});

describe('402 insufficient_credits', () => {
  it('refuses a final with no credit left, before rendering, and says how many and until when', async () => {
    const broke = await seedCaller(app, { credits: 0 });
    const body = await expectError(await makeDocument(app, broke, finalInvoice()), 402, 'insufficient_credits');
    expect(body).toMatchObject({ credit_used: false, credits_remaining: 0, period_end: isoSeconds(broke.account.periodEnd) });
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
});

describe('403 forbidden_scope by mode', () => {
  it('a Preview only key cannot make a final, and can make a preview', async () => {
    const preview = await seedCaller(app, { kind: 'preview' });
    const body = await expectError(await makeDocument(app, preview, finalInvoice()), 403, 'forbidden_scope');
    expect(body.error.details[0].code).toBe('missing_scope');
    expect((await makeDocument(app, preview, { ...finalInvoice(), mode: 'preview' })).status).toBe(201);
    expect((await ledger(app, preview)).documents).toBe(1);
  });
});

describe('422 render_rejected', () => {
  it('refuses characters no bundled font has, naming field and characters, charges nothing, and frees the key for a corrected retry', async () => {
    const body = await expectError(
      await makeDocument(app, caller, finalInvoice({ client_name: 'ᏣᎳᎩ Trading ᱥ' }), { key: 'k-render' }),
      422,
      'render_rejected',
    );
    expect(body.error.message).toContain('"ᱥ" (U+1C65)');
    expect(body.error.details).toEqual([
      {
        code: 'undrawable_characters',
        field: 'fields.client_name',
        message: 'The bundled fonts cannot draw "Ꮳ" (U+13E3), "Ꮃ" (U+13B3), "Ꭹ" (U+13A9), "ᱥ" (U+1C65).',
      },
    ]);
    expect(body.credit_used).toBe(false);
    expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 0 });
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'k-render' })).status).toBe(201);
  });
});

describe('Idempotency-Key (section 3 table)', () => {
  it.each(['', ' ', 'k'.repeat(256), 'a b', 'caf\u00e9', '""'])('refuses the header %j with 400 invalid_idempotency_key', async (key) => {
    const body = await expectError(await makeDocument(app, caller, finalInvoice(), { key }), 400, 'invalid_request');
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
    await expectError(
      await makeDocument(app, caller, finalInvoice({}, { reference: 'b' }), { key: 'order-3' }),
      422,
      'idempotency_key_reused',
    );
    await expectError(
      await makeDocument(app, caller, finalInvoice({ notes: 'x' }, { reference: 'a' }), { key: 'order-3' }),
      422,
      'idempotency_key_reused',
    );
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
    await expectError(await makeDocument(app, caller, finalInvoice({ date: 'soon' }), { key: 'order-4' }), 422, 'validation_failed');
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'order-4' })).status).toBe(201);
  });

  it('a 402 is not remembered either', async () => {
    const broke = await seedCaller(app, { credits: 0 });
    await expectError(await makeDocument(app, broke, finalInvoice(), { key: 'order-5' }), 402, 'insufficient_credits');
    const [row] = await app.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, broke.account.id), eq(idempotencyKeys.key, 'order-5')));
    expect(row).toBeUndefined();
  });

  it('template changed since → 409 idempotency_replay_unavailable / template_version_changed', async () => {
    const first = await makeDocument(app, caller, finalInvoice(), { key: 'order-9' });
    await app.db
      .update(documents)
      .set({ templateVersion: '1.9.0' })
      .where(eq(documents.id, first.headers.get('Svc-Document-Id')!));
    const body = await expectError(
      await makeDocument(app, caller, finalInvoice(), { key: 'order-9' }),
      409,
      'idempotency_replay_unavailable',
    );
    expect(body.error.details[0].code).toBe('template_version_changed');
  });

  it('bytes no longer reproducible → 409 output_changed; never different bytes under an old id', async () => {
    const first = await makeDocument(app, caller, finalInvoice(), { key: 'order-10' });
    await app.db
      .update(documents)
      .set({ sha256: '0'.repeat(64) })
      .where(eq(documents.id, first.headers.get('Svc-Document-Id')!));
    const body = await expectError(
      await makeDocument(app, caller, finalInvoice(), { key: 'order-10' }),
      409,
      'idempotency_replay_unavailable',
    );
    expect(body.error.details[0].code).toBe('output_changed');
  });

  it('a final without a key makes a new document and uses a credit every time', async () => {
    const a = await makeDocument(app, caller, finalInvoice());
    const b = await makeDocument(app, caller, finalInvoice());
    expect(a.headers.get('Svc-Document-Id')).not.toBe(b.headers.get('Svc-Document-Id'));
    expect(await ledger(app, caller)).toMatchObject({ credits: 3, documents: 2 });
  });
});
