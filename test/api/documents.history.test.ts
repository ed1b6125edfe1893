import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../src/openapi/schemas.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { finalInvoice, makeDocument, makePreviews, previewInvoice } from '../support/documents.ts';

let app: TestApp;
let caller: Caller;
beforeEach(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: 50 });
});

const get = (path: string, who: Caller = caller) => app.call(path, { headers: who.headers });

describe('GET /api/v1/documents', () => {
  it('defaults to 20 and reports has_more', async () => {
    await makePreviews(app, caller, 21);
    const page = await (await get('/api/v1/documents')).json();
    expect(page.data).toHaveLength(20);
    expect(page.has_more).toBe(true);
    const all = await (await get('/api/v1/documents?limit=100')).json();
    expect(all.data).toHaveLength(21);
    expect(all.has_more).toBe(false);
  });

  it('orders by created_at as shown then id, both descending, and pages in that same order', async () => {
    await makePreviews(app, caller, 12);
    type Row = { id: string; created_at: string };
    const all: Row[] = (await (await get('/api/v1/documents?limit=100')).json()).data;
    const ordered = [...all].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    expect(all.map((d) => d.id)).toEqual(ordered.map((d) => d.id));
    const paged: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await (await get(`/api/v1/documents?limit=5${cursor}`)).json();
      paged.push(...page.data.map((d: Row) => d.id));
      if (!page.has_more) break;
      cursor = `&starting_after=${page.data.at(-1).id}`;
    }
    expect(paged).toEqual(ordered.map((d) => d.id));
  });

  it('filters by reference, exactly and case-sensitively', async () => {
    await makePreviews(app, caller, 2, 'Order-1');
    await makePreviews(app, caller, 1, 'order-1');
    await makePreviews(app, caller, 1);
    const page = await (await get('/api/v1/documents?reference=Order-1')).json();
    expect(page.data).toHaveLength(2);
    expect(page.data.every((d: { reference: string }) => d.reference === 'Order-1')).toBe(true);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=ten',
    'limit=1.5',
    'limit=',
    `reference=${'r'.repeat(129)}`,
    'reference=',
    'starting_after=doc_unknown',
    `starting_after=${'d'.repeat(65)}`,
    'colour=blue',
    'limit=1&limit=2',
  ])('answers 400 invalid_query for %s', async (query) => {
    const response = await get(`/api/v1/documents?${query}`);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details[0].code).toBe('invalid_query');
  });

  it("refuses another account's document as starting_after and never lists it", async () => {
    const stranger = await seedCaller(app, { credits: 5 });
    const theirs = (await makeDocument(app, stranger, previewInvoice())).headers.get('Svc-Document-Id')!;
    await makePreviews(app, caller, 1);
    expect((await get(`/api/v1/documents?starting_after=${theirs}`)).status).toBe(400);
    const page = await (await get('/api/v1/documents')).json();
    expect(page.data.map((d: { id: string }) => d.id)).not.toContain(theirs);
  });
});

describe('GET /api/v1/documents/{id} and /file', () => {
  it('returns the Document object of the caller’s own record', async () => {
    const created = await makeDocument(app, caller, finalInvoice({}, { reference: 'ref-9' }));
    const id = created.headers.get('Svc-Document-Id')!;
    const response = await get(`/api/v1/documents/${id}`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(v.safeParse(DocumentSchema, document).issues).toBeUndefined();
    expect(document).toMatchObject({
      id,
      mode: 'final',
      reference: 'ref-9',
      credits_consumed: 1,
      sha256: created.headers.get('Svc-Document-Sha256'),
      file_url: null,
    });
  });

  it('answers 404 document_not_found for unknown and foreign ids, in the same words', async () => {
    const stranger = await seedCaller(app, { credits: 5 });
    const theirs = (await makeDocument(app, stranger, previewInvoice())).headers.get('Svc-Document-Id')!;
    const unknown = await (await get('/api/v1/documents/doc_00000000000000000000')).json();
    const foreign = await (await get(`/api/v1/documents/${theirs}`)).json();
    expect(unknown.error.code).toBe('document_not_found');
    expect(foreign.error.code).toBe('document_not_found');
    expect(foreign.error.message).toBe(unknown.error.message);
  });

  it('always answers 404 file_not_available on the file route, after authentication', async () => {
    const id = (await makeDocument(app, caller, previewInvoice())).headers.get('Svc-Document-Id')!;
    const response = await get(`/api/v1/documents/${id}/file`);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('file_not_available');
    expect((await app.call(`/api/v1/documents/${id}/file`)).status).toBe(401);
  });
});
