import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { findAccount } from '../../src/accounts/store.ts';
import { documents } from '../../src/db/schema.ts';
import type { Caller } from './accounts.ts';
import type { TestApp } from './app.ts';
import { INVOICE_FIELDS } from './requests.ts';

export const finalInvoice = (fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  template: 'invoice',
  mode: 'final',
  fields: { ...INVOICE_FIELDS, ...fields },
  ...extra,
});

/** POST /api/v1/documents as the caller, with an optional Idempotency-Key and Accept. */
export function makeDocument(
  app: TestApp,
  caller: Caller,
  body: unknown,
  options: { key?: string; accept?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return app.call('/api/v1/documents', {
    method: 'POST',
    headers: {
      ...caller.headers,
      'Content-Type': 'application/json',
      ...(options.key === undefined ? {} : { 'Idempotency-Key': options.key }),
      ...(options.accept === undefined ? {} : { Accept: options.accept }),
      ...options.headers,
    },
    body: JSON.stringify(body),
  });
}

/** What the database says about an account: its balance and its document records. */
export async function ledger(app: TestApp, caller: Caller) {
  const account = await findAccount(app.db, caller.account.id);
  const rows = await app.db.select().from(documents).where(eq(documents.accountId, caller.account.id));
  return { credits: account!.creditsRemaining, documents: rows.length, rows };
}

export const previewInvoice = (reference?: string) => ({ ...finalInvoice({}, reference ? { reference } : {}), mode: 'preview' });

/** `count` previews in a row as the caller; their document ids, oldest first. */
export async function makePreviews(app: TestApp, caller: Caller, count: number, reference?: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await makeDocument(app, caller, previewInvoice(reference))).headers.get('Svc-Document-Id')!);
  return ids;
}

/** Asserts an error answer of the contract and returns its body. */
export async function expectError(response: Response, status: number, code: string) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text);
  expect(body.error.code).toBe(code);
  return body;
}

/** Asserts a refusal of the contract with its detail, nothing charged, and returns its body. */
export async function expectRefusal(response: Response, status: number, code: string, detail: string) {
  const body = await expectError(response, status, code);
  expect(body.error.details[0].code).toBe(detail);
  expect(body.credit_used).toBe(false);
  return body;
}

/** A document record as the commit takes it, for tests that call commitDocument directly. */
export function documentRow(app: TestApp, who: Caller, id: string) {
  return {
    id,
    accountId: who.account.id,
    keyId: who.keyId,
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
