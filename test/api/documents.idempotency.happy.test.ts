import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/db/schema.ts';
import { requestFingerprint } from '../../src/documents/fingerprint.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectError, finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { acquireLease } from '../support/leases.ts';
import { sha256 } from '../support/pdf.ts';
import { QUOTE_FIELDS } from '../support/requests.ts';

/**
 * The replay decisions of section 3 with several accounts and keys stored at once: each decision reads the
 * caller's own key row, whatever else the table holds. Runs in process and against every real runtime.
 */
let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});

const keyRows = async (who: Caller) => app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, who.account.id));
const documentId = (response: Response) => response.headers.get('Svc-Document-Id');
const replayed = (response: Response) => response.headers.get('Svc-Idempotent-Replay');

async function expectNew(response: Response) {
  expect(response.status, await response.clone().text()).toBe(201);
  expect(replayed(response)).toBe('false');
  return documentId(response)!;
}

async function expectReplayOf(response: Response, id: string) {
  expect(response.status, await response.clone().text()).toBe(201);
  expect(replayed(response)).toBe('true');
  expect(response.headers.get('Svc-Credit-Used')).toBe('false');
  expect(documentId(response)).toBe(id);
}

describe('several accounts and keys stored: every decision reads its own account’s key', () => {
  it('the same key and the same request in three accounts: three documents, each replayed to its own account only', async () => {
    const callers = [await seedCaller(app, { credits: 3 }), await seedCaller(app, { credits: 3 }), await seedCaller(app, { credits: 3 })];
    const ids: string[] = [];
    for (const who of callers) ids.push(await expectNew(await makeDocument(app, who, finalInvoice(), { key: 'order-1' })));
    expect(new Set(ids).size).toBe(3);

    // Replays in the reverse order of creation, so that the row stored first is never the caller's own by chance.
    for (const index of [2, 1, 0]) {
      const who = callers[index]!;
      await expectReplayOf(await makeDocument(app, who, finalInvoice(), { key: 'order-1' }), ids[index]!);
      expect(await ledger(app, who)).toMatchObject({ credits: 2, documents: 1 });
      expect((await ledger(app, who)).rows[0]!.id).toBe(ids[index]);
    }
    for (const [index, who] of callers.entries()) {
      const rows = await keyRows(who);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ key: 'order-1', documentId: ids[index] });
    }
  });

  it('a key another account used for this very request is still reused here when this account used it for another', async () => {
    const first = await seedCaller(app, { credits: 3 });
    const second = await seedCaller(app, { credits: 3 });
    const firstId = await expectNew(await makeDocument(app, first, finalInvoice(), { key: 'order-2' }));
    const secondId = await expectNew(await makeDocument(app, second, finalInvoice({ notes: 'other' }), { key: 'order-2' }));

    const body = await expectError(await makeDocument(app, second, finalInvoice(), { key: 'order-2' }), 422, 'idempotency_key_reused');
    expect(body.credit_used).toBe(false);
    await expectReplayOf(await makeDocument(app, second, finalInvoice({ notes: 'other' }), { key: 'order-2' }), secondId);
    await expectError(await makeDocument(app, first, finalInvoice({ notes: 'other' }), { key: 'order-2' }), 422, 'idempotency_key_reused');
    await expectReplayOf(await makeDocument(app, first, finalInvoice(), { key: 'order-2' }), firstId);
    expect(await ledger(app, first)).toMatchObject({ credits: 2, documents: 1 });
    expect(await ledger(app, second)).toMatchObject({ credits: 2, documents: 1 });
  });

  it('one account’s running attempt does not hold up another account’s replay, nor another key of its own', async () => {
    const running = await seedCaller(app, { credits: 3 });
    const other = await seedCaller(app, { credits: 3 });
    // A lease held by a request of `running` that has not committed yet, stored before anything else.
    const fingerprint = requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(finalInvoice()))));
    const held = await acquireLease(app.db, { accountId: running.account.id, key: 'order-3', fingerprint, now: app.clock.now() });
    expect(held.kind).toBe('acquired');

    const otherId = await expectNew(await makeDocument(app, other, finalInvoice(), { key: 'order-3' }));
    await expectReplayOf(await makeDocument(app, other, finalInvoice(), { key: 'order-3' }), otherId);
    const ownId = await expectNew(await makeDocument(app, running, finalInvoice(), { key: 'order-4' }));
    await expectReplayOf(await makeDocument(app, running, finalInvoice(), { key: 'order-4' }), ownId);

    const busy = await makeDocument(app, running, finalInvoice(), { key: 'order-3' });
    await expectError(busy, 409, 'idempotency_in_progress');
    expect(busy.headers.get('Retry-After')).toBe('5');
    expect(await ledger(app, running)).toMatchObject({ credits: 2, documents: 1 });
    expect(await ledger(app, other)).toMatchObject({ credits: 2, documents: 1 });
  });

  it('a new key of one account is new even while other accounts hold the same key running or done', async () => {
    const done = await seedCaller(app, { credits: 3 });
    const running = await seedCaller(app, { credits: 3 });
    const fresh = await seedCaller(app, { credits: 3 });
    await expectNew(await makeDocument(app, done, finalInvoice(), { key: 'order-5' }));
    const fingerprint = requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(finalInvoice()))));
    await acquireLease(app.db, { accountId: running.account.id, key: 'order-5', fingerprint, now: app.clock.now() });
    await expectNew(await makeDocument(app, fresh, finalInvoice(), { key: 'order-5' }));
    expect(await ledger(app, fresh)).toMatchObject({ credits: 2, documents: 1 });
  });
});

describe('the normalised request decides a replay (section 3)', () => {
  let caller: Caller;
  beforeEach(async () => {
    caller = await seedCaller(app, { credits: 5 });
  });

  it('the same body with its members in another order is a replay', async () => {
    const body = finalInvoice({ notes: 'Thanks', tax_rate: '21' }, { reference: 'ref-1', paper: 'letter' });
    const id = await expectNew(await makeDocument(app, caller, body, { key: 'order-10' }));
    const reordered = {
      paper: 'letter',
      reference: 'ref-1',
      fields: Object.fromEntries(
        Object.entries(body.fields)
          .reverse()
          .map(([name, value]) => [
            name,
            name === 'items' ? (value as object[]).map((item) => Object.fromEntries(Object.entries(item).reverse())) : value,
          ]),
      ),
      mode: 'final',
      template: 'invoice',
    };
    await expectReplayOf(await makeDocument(app, caller, reordered, { key: 'order-10' }), id);
    expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
  });

  it('a number written as 1,250.00 or 1250 is one value: a replay, with the same bytes', async () => {
    const line = (quantity: unknown, unitPrice: unknown) =>
      finalInvoice({ items: [{ description: 'Work', quantity, unit_price: unitPrice }] });
    const first = await makeDocument(app, caller, line('1,250.00', '1,250.00'), { key: 'order-11' });
    const id = await expectNew(first);
    const bytes = sha256(new Uint8Array(await first.arrayBuffer()));
    const again = await makeDocument(app, caller, line(1250, '1250'), { key: 'order-11' });
    await expectReplayOf(again, id);
    expect(sha256(new Uint8Array(await again.arrayBuffer()))).toBe(bytes);
    expect(again.headers.get('Svc-Totals-Total')).toBe('1562500.00');

    const quote = (amount: unknown) => ({ template: 'quote', mode: 'final', fields: { ...QUOTE_FIELDS, amount } });
    const quoteId = await expectNew(await makeDocument(app, caller, quote('1,250.00'), { key: 'order-12' }));
    await expectReplayOf(await makeDocument(app, caller, quote(1250), { key: 'order-12' }), quoteId);
    expect(await ledger(app, caller)).toMatchObject({ credits: 3, documents: 2 });
  });

  it('a different Accept is a replay, in the form asked for', async () => {
    const id = await expectNew(await makeDocument(app, caller, finalInvoice(), { key: 'order-13', accept: 'application/json' }));
    await expectReplayOf(await makeDocument(app, caller, finalInvoice(), { key: 'order-13', accept: 'application/pdf' }), id);
    const json = await makeDocument(app, caller, finalInvoice(), { key: 'order-13', accept: 'application/json' });
    expect(await json.json()).toMatchObject({ idempotent_replay: true, credit_used: false, document: { id } });
    expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
  });

  it.each([
    ['a changed field value', finalInvoice({ client_name: 'Someone Else' })],
    ['a changed quantity', finalInvoice({ items: [{ description: 'Work', quantity: '3', unit_price: '50.00' }] })],
    ['a changed unit price in its last digit', finalInvoice({ items: [{ description: 'Work', quantity: '2', unit_price: '50.0001' }] })],
    ['a reference added', finalInvoice({}, { reference: 'ref-2' })],
    ['another paper', finalInvoice({}, { paper: 'letter' })],
  ])('%s is 422 idempotency_key_reused, and nothing is charged or recorded', async (_, changed) => {
    await expectNew(await makeDocument(app, caller, finalInvoice(), { key: 'order-14' }));
    const body = await expectError(await makeDocument(app, caller, changed, { key: 'order-14' }), 422, 'idempotency_key_reused');
    expect(body.credit_used).toBe(false);
    expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
    const [row] = await keyRows(caller);
    expect(row!.fingerprint).toBe(requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(finalInvoice())))));
  });

  it('a changed reference is 422 idempotency_key_reused', async () => {
    await expectNew(await makeDocument(app, caller, finalInvoice({}, { reference: 'ref-a' }), { key: 'order-15' }));
    await expectError(
      await makeDocument(app, caller, finalInvoice({}, { reference: 'ref-b' }), { key: 'order-15' }),
      422,
      'idempotency_key_reused',
    );
    await expectError(await makeDocument(app, caller, finalInvoice(), { key: 'order-15' }), 422, 'idempotency_key_reused');
  });
});

describe('the Idempotency-Key header (section 4.2)', () => {
  let caller: Caller;
  beforeEach(async () => {
    caller = await seedCaller(app, { credits: 5 });
  });

  it('"abc" and abc are one key, stored without the quotes', async () => {
    const id = await expectNew(await makeDocument(app, caller, finalInvoice(), { key: '"abc"' }));
    await expectReplayOf(await makeDocument(app, caller, finalInvoice(), { key: 'abc' }), id);
    await expectReplayOf(await makeDocument(app, caller, finalInvoice(), { key: '"abc"' }), id);
    expect((await keyRows(caller)).map((row) => row.key)).toEqual(['abc']);
    expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
  });

  it('a lone quote is a key of one character, and so is a quote at one end only part of the key', async () => {
    const lone = await expectNew(await makeDocument(app, caller, finalInvoice(), { key: '"' }));
    await expectReplayOf(await makeDocument(app, caller, finalInvoice(), { key: '"' }), lone);
    const open = await expectNew(await makeDocument(app, caller, finalInvoice(), { key: '"ab' }));
    expect(open).not.toBe(lone);
    expect((await keyRows(caller)).map((row) => row.key).sort()).toEqual(['"', '"ab']);
  });

  it('takes 1 and 255 characters and stores them as sent', async () => {
    const long = 'k'.repeat(255);
    await expectNew(await makeDocument(app, caller, finalInvoice(), { key: 'x' }));
    const id = await expectNew(await makeDocument(app, caller, finalInvoice(), { key: long }));
    await expectReplayOf(await makeDocument(app, caller, finalInvoice(), { key: `"${long}"` }), id);
    expect((await keyRows(caller)).map((row) => row.key).sort()).toEqual([long, 'x']);
  });

  it.each([['""'], ['k'.repeat(256)], [`"${'k'.repeat(256)}"`]])(
    'refuses %j with 400 invalid_idempotency_key, storing and charging nothing',
    async (key) => {
      const body = await expectError(await makeDocument(app, caller, finalInvoice(), { key }), 400, 'invalid_request');
      expect(body.error.details[0].code).toBe('invalid_idempotency_key');
      expect(body.credit_used).toBe(false);
      expect(await keyRows(caller)).toEqual([]);
      expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 0 });
    },
  );
});
