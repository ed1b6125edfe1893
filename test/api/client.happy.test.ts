import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createClient,
  type InvoiceRequest,
  newIdempotencyKey,
  type ReceiptRequest,
  SvcApiError,
  type SvcClient,
} from '../../src/client/index.ts';
import {
  AccountSchema,
  DocumentJsonSchema,
  DocumentListSchema,
  DocumentSchema,
  TemplateSchema,
  ValidateAnswerSchema,
} from '../../src/openapi/schemas.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { BASE, createTestApp, type TestApp } from '../support/app.ts';
import { ledger } from '../support/documents.ts';
import { readPdf, sha256 } from '../support/pdf.ts';
import { INVOICE_FIELDS } from '../support/requests.ts';

/**
 * The project's own typed client (src/client) driving the API: in process with the handler as its fetch, and
 * against Bun, Node and workerd with the fetch that reaches the running server (API_TARGET=bun|node|worker).
 */
let app: TestApp;
let caller: Caller;
let svc: SvcClient;
beforeEach(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: 5 });
  svc = createClient({ baseUrl: BASE, apiKey: caller.key, fetch: (request) => app.fetch(request) });
});

const invoice = (mode: InvoiceRequest['mode'], fields: Partial<InvoiceRequest['fields']> = {}): InvoiceRequest => ({
  template: 'invoice',
  mode,
  fields: { ...INVOICE_FIELDS, currency: 'EUR', ...fields },
});

describe('the public routes through the client', () => {
  it('lists the templates, reads one and the OpenAPI document', async () => {
    const templates = await svc.listTemplates();
    expect(templates.map((template) => template.slug)).toEqual(['invoice', 'quote', 'receipt']);
    for (const template of templates) v.parse(TemplateSchema, template);
    const receipt = await svc.getTemplate('receipt');
    expect(receipt.required_fields).toContain('payment_method');
    const openapi = await svc.getOpenApi();
    expect(Object.keys(openapi.paths as object)).toContain('/api/v1/documents');
  });

  it('an unknown template is SvcApiError template_not_found with the request id of the answer', async () => {
    const error = await svc.getTemplate('letter').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 404, code: 'template_not_found', docsUrl: `${BASE}/docs/api/errors#template_not_found` });
    expect((error as SvcApiError).requestId).toMatch(/^req_/);
  });
});

describe('documents through the client', () => {
  it('validates a typed body and gets its totals, nothing charged', async () => {
    const answer = await svc.validateDocument(invoice('final', { tax_rate: '20' }));
    v.parse(ValidateAnswerSchema, answer);
    expect(answer.totals).toEqual({ currency: 'EUR', subtotal: '100.00', tax: '20.00', total: '120.00', balance_due: '120.00' });
    expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 0 });
  });

  it('a preview: the PDF as bytes and its headers read, free', async () => {
    const preview = await svc.createDocument(invoice('preview'));
    expect(preview).toMatchObject({
      mode: 'preview',
      creditUsed: false,
      creditsRemaining: 5,
      replay: false,
      filename: 'invoice-INV-1-preview.pdf',
    });
    expect(preview.sha256).toBe(sha256(preview.pdf));
    expect((await readPdf(preview.pdf)).title).toBe('Preview – not a valid document');
    expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 1 });
  });

  it('a final with an Idempotency-Key, then its replay: same id and bytes, one credit, one record', async () => {
    const key = newIdempotencyKey();
    const body = invoice('final', { discount: '10%' });
    const first = await svc.createDocument(body, { idempotencyKey: key });
    expect(first).toMatchObject({
      template: 'invoice',
      mode: 'final',
      creditUsed: true,
      creditsRemaining: 4,
      replay: false,
      reference: null,
      totals: { currency: 'EUR', subtotal: '100.00', discount: '10.00', total: '90.00', balance_due: '90.00' },
      location: `/api/v1/documents/${first.documentId}`,
      filename: 'invoice-INV-1.pdf',
    });
    expect(first.templateVersion).toMatch(/^2\.\d+\.\d+$/);
    expect(first.sha256).toBe(sha256(first.pdf));
    expect(first.requestId).toMatch(/^req_/);

    const replay = await svc.createDocument(body, { idempotencyKey: key });
    expect(replay).toMatchObject({
      replay: true,
      creditUsed: false,
      creditsRemaining: 4,
      documentId: first.documentId,
      sha256: first.sha256,
    });
    expect(replay.pdf).toEqual(first.pdf);

    const state = await ledger(app, caller);
    expect(state).toMatchObject({ credits: 4, documents: 1 });
    expect(state.rows[0]).toMatchObject({
      id: first.documentId,
      mode: 'final',
      creditsConsumed: 1,
      sha256: first.sha256,
      bytes: first.pdf.length,
    });

    // The JSON form of the same request is a replay too (an Accept difference does not count, spec 3).
    const json = await svc.createDocument(body, { idempotencyKey: key, as: 'json' });
    v.parse(DocumentJsonSchema, json);
    expect(json).toMatchObject({ idempotent_replay: true, credit_used: false, credits_remaining: 4, filename: 'invoice-INV-1.pdf' });
    expect(json.document).toMatchObject({ id: first.documentId, sha256: first.sha256, credits_consumed: 1 });
    expect(sha256(Uint8Array.from(atob(json.file_base64), (char) => char.charCodeAt(0)))).toBe(first.sha256);
  });

  it('a receipt whose number is not ASCII: the full file name from filename*, and the reference echoed', async () => {
    const receipt: ReceiptRequest = {
      template: 'receipt',
      mode: 'preview',
      reference: 'order-9',
      fields: {
        seller_name: 'Seller Ltd',
        client_name: 'Client Inc',
        receipt_number: 'Ü 1',
        payment_date: '2026-10-01',
        description: 'Payment',
        currency: 'EUR',
        amount: '10.00',
        payment_method: 'Card',
      },
    };
    const made = await svc.createDocument(receipt);
    expect(made).toMatchObject({
      filename: 'receipt-Ü 1-preview.pdf',
      reference: 'order-9',
      totals: { currency: 'EUR', amount_paid: '10.00' },
    });
  });

  it('a refused request: SvcApiError validation_failed with every detail, its field and the request id', async () => {
    const body = invoice('final', { date: '2026-02-30', currency: 'EUR', items: [] });
    const error = (await svc
      .createDocument(body, { idempotencyKey: newIdempotencyKey() })
      .catch((caught: unknown) => caught)) as SvcApiError;
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', creditUsed: false, retryAfter: null });
    expect(error.details.map((detail) => [detail.code, detail.field])).toEqual(
      expect.arrayContaining([
        ['invalid_date', 'fields.date'],
        ['no_items', 'fields.items'],
      ]),
    );
    expect(error.requestId).toMatch(/^req_/);
    expect(error.docsUrl).toBe(`${BASE}/docs/api/errors#validation_failed`);
    expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 0 });
  });

  it('a key the service does not know: SvcApiError unauthorized', async () => {
    const stranger = createClient({ baseUrl: BASE, apiKey: `${caller.key.slice(0, -4)}zzzz`, fetch: (request) => app.fetch(request) });
    await expect(stranger.getAccount()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('records and the account through the client', () => {
  it('getDocument, listDocuments with its query, getDocumentFile and getAccount', async () => {
    const older = await svc.createDocument({ ...invoice('preview'), reference: 'batch-1' });
    const newer = await svc.createDocument({ ...invoice('final'), reference: 'batch-1' });
    await svc.createDocument(invoice('preview'));

    const record = await svc.getDocument(newer.documentId);
    v.parse(DocumentSchema, record);
    expect(record).toMatchObject({ id: newer.documentId, mode: 'final', reference: 'batch-1', sha256: newer.sha256, credits_consumed: 1 });

    // Two pages of one record each: the records with that reference, newest first (created_at, then id, spec 2.8).
    const page = await svc.listDocuments({ reference: 'batch-1', limit: 1 });
    v.parse(DocumentListSchema, page);
    expect(page.has_more).toBe(true);
    const next = await svc.listDocuments({ reference: 'batch-1', limit: 1, starting_after: page.data[0]!.id });
    expect(next.has_more).toBe(false);
    const listed = [...page.data, ...next.data];
    const newestFirst = [...listed].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    expect(listed).toEqual(newestFirst);
    expect(listed.map((document) => document.id).sort()).toEqual([older.documentId, newer.documentId].sort());

    await expect(svc.getDocumentFile(newer.documentId)).rejects.toMatchObject({ status: 404, code: 'file_not_available' });
    await expect(svc.getDocument('doc_00000000000000000000')).rejects.toMatchObject({ status: 404, code: 'document_not_found' });

    const account = await svc.getAccount();
    v.parse(AccountSchema, account);
    expect(account.credits.remaining).toBe(4);
    expect(account.key.id).toBe(caller.keyId);
  });
});
