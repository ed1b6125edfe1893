import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { DocumentJsonSchema } from '../../src/openapi/schemas.ts';
import { findTemplate } from '../../src/templates/registry.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { readPdf, sha256 } from '../support/pdf.ts';
import { RECEIPT_FIELDS } from '../support/requests.ts';

let app: TestApp;
let caller: Caller;
beforeEach(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: 5 });
});

describe('POST /api/v1/documents: a final in the binary form', () => {
  it('answers 201 with the PDF and every header of 4.2, and charges one credit', async () => {
    const response = await makeDocument(
      app,
      caller,
      finalInvoice({ discount: '10%', tax_rate: '20', amount_paid: '5' }, { reference: 'order-77' }),
    );
    expect(response.status).toBe(201);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const h = (name: string) => response.headers.get(name);
    expect(h('Content-Type')).toBe('application/pdf');
    expect(h('Content-Disposition')).toBe('attachment; filename="invoice-INV-1.pdf"');
    const id = h('Svc-Document-Id')!;
    expect(id).toMatch(/^doc_[0-9a-z]{20}$/);
    expect(h('Location')).toBe(`/api/v1/documents/${id}`);
    expect(h('Svc-Document-Sha256')).toBe(sha256(bytes));
    expect(h('Svc-Template')).toBe('invoice');
    expect(h('Svc-Template-Version')).toBe('2.6.0');
    expect(h('Svc-Mode')).toBe('final');
    expect(h('Svc-Credit-Used')).toBe('true');
    expect(h('Svc-Credits-Remaining')).toBe('4');
    expect(h('Svc-Idempotent-Replay')).toBe('false');
    expect(h('Svc-Reference')).toBe('order-77');
    expect([
      h('Svc-Totals-Currency'),
      h('Svc-Totals-Subtotal'),
      h('Svc-Totals-Discount'),
      h('Svc-Totals-Tax'),
      h('Svc-Totals-Total'),
      h('Svc-Totals-Amount-Paid'),
      h('Svc-Totals-Balance-Due'),
    ]).toEqual(['EUR', '100.00', '10.00', '18.00', '108.00', '5.00', '103.00']);
    expect(h('Access-Control-Allow-Origin')).toBeNull();
    expect((await readPdf(bytes)).title).toBe('Invoice INV-1');

    const state = await ledger(app, caller);
    expect(state.credits).toBe(4);
    expect(state.rows).toHaveLength(1);
    expect(state.rows[0]).toMatchObject({
      id,
      mode: 'final',
      creditsConsumed: 1,
      sha256: sha256(bytes),
      bytes: bytes.length,
      reference: 'order-77',
      source: 'api',
      keyId: caller.keyId,
    });
    expect(JSON.stringify(state.rows)).not.toContain('Seller Ltd');
  });

  it('states only the totals headers the template has: a receipt has currency and amount paid', async () => {
    const response = await makeDocument(app, caller, { template: 'receipt', mode: 'final', fields: RECEIPT_FIELDS });
    expect(response.status).toBe(201);
    const totals = [...response.headers.keys()].filter((name) => name.startsWith('svc-totals-')).sort();
    expect(totals).toEqual(['svc-totals-amount-paid', 'svc-totals-currency']);
    expect(response.headers.get('Svc-Reference')).toBeNull();
  });

  it('makes each template example, on A4 and Letter', async () => {
    for (const slug of ['invoice', 'quote', 'receipt']) {
      for (const paper of ['a4', 'letter']) {
        const response = await makeDocument(app, caller, { ...findTemplate(slug)!.example, paper });
        expect(response.status, `${slug} ${paper}`).toBe(201);
      }
    }
  });
});

describe('previews', () => {
  it('work at 0 credits, charge nothing, and are named -preview.pdf', async () => {
    const broke = await seedCaller(app, { credits: 0 });
    const response = await makeDocument(app, broke, { ...finalInvoice(), mode: 'preview' });
    expect(response.status).toBe(201);
    expect(response.headers.get('Svc-Credit-Used')).toBe('false');
    expect(response.headers.get('Svc-Credits-Remaining')).toBe('0');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="invoice-INV-1-preview.pdf"');
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
    expect(pdf.title).toBe('Preview – not a valid document');
    const state = await ledger(app, broke);
    expect(state.credits).toBe(0);
    expect(state.rows[0]).toMatchObject({ mode: 'preview', creditsConsumed: 0 });
  });
});

describe('the JSON form and Accept negotiation', () => {
  it.each([
    ['application/json', true],
    ['APPLICATION/JSON; charset=utf-8', true],
    ['text/html, application/json;q=0.5', true],
    ['application/json, application/pdf;q=0', true],
    ['application/json, application/pdf', false],
    ['application/json, application/*', false],
    ['application/json, */*;q=0.1', false],
    ['*/*', false],
    ['application/*', false],
    ['text/html', false],
    ['application/json;q=0', false],
    [undefined, false],
  ])('Accept %s → JSON form: %s', async (accept, json) => {
    const response = await makeDocument(app, caller, { ...finalInvoice(), mode: 'preview' }, accept === undefined ? {} : { accept });
    expect(response.status).toBe(201);
    expect(response.headers.get('Content-Type')).toBe(json ? 'application/json; charset=utf-8' : 'application/pdf');
  });

  it('answers the JSON form of 2.8 with the PDF in base64, and no Content-Disposition', async () => {
    const response = await makeDocument(app, caller, finalInvoice({}, { reference: 'r-1' }), { accept: 'application/json' });
    expect(response.status).toBe(201);
    expect(response.headers.get('Content-Disposition')).toBeNull();
    const body = await response.json();
    expect(v.safeParse(DocumentJsonSchema, body).issues).toBeUndefined();
    expect(Math.abs(Date.parse(body.document.created_at) - app.clock.now())).toBeLessThan(5_000);
    const bytes = Uint8Array.from(atob(body.file_base64), (c) => c.charCodeAt(0));
    expect(body.document.sha256).toBe(sha256(bytes));
    expect(body).toMatchObject({
      filename: 'invoice-INV-1.pdf',
      credit_used: true,
      credits_remaining: 4,
      idempotent_replay: false,
      totals: { currency: 'EUR', subtotal: '100.00', total: '100.00', balance_due: '100.00' },
      document: {
        id: response.headers.get('Svc-Document-Id'),
        object: 'document',
        template: 'invoice',
        template_version: '2.6.0',
        mode: 'final',
        paper: 'a4',
        locale: 'en',
        reference: 'r-1',
        source: 'api',
        credits_consumed: 1,
        bytes: bytes.length,
        content_type: 'application/pdf',
        file_url: null,
      },
    });
  });
});

describe('Content-Disposition', () => {
  const disposition = async (number: string) => {
    const response = await makeDocument(app, caller, { ...finalInvoice({ invoice_number: number }), mode: 'preview' });
    expect(response.status).toBe(201);
    return response.headers.get('Content-Disposition');
  };

  it('is a plain quoted filename for an ASCII name', async () => {
    expect(await disposition('2026-001')).toBe('attachment; filename="invoice-2026-001-preview.pdf"');
  });

  it('adds filename* with UTF-8 percent-encoding for a non-ASCII name', async () => {
    expect(await disposition('Rechnung-Ä1 €')).toBe(
      `attachment; filename="invoice-Rechnung-_1 _-preview.pdf"; filename*=UTF-8''invoice-Rechnung-%C3%841%20%E2%82%AC-preview.pdf`,
    );
  });

  it('keeps a hostile name from breaking the header: quotes, backslashes and separators', async () => {
    const header = await disposition('a"b\\c;d,e(f)[g] h');
    expect(header).toBe(
      `attachment; filename="invoice-a_b_c;d,e(f)[g] h-preview.pdf"; filename*=UTF-8''invoice-a%22b%5Cc%3Bd%2Ce%28f%29%5Bg%5D%20h-preview.pdf`,
    );
    const quoted = header!.match(/filename="([^"]*)"/)![1]!;
    expect(quoted).not.toMatch(/["\\]/);
  });
});
