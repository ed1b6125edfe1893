import { beforeEach, describe, expect, it } from 'vitest';
import { PAPER_SIZES } from '../../src/render/layout/document.ts';
import { StructureElement } from '../../src/render/layout/structure.ts';
import { writePdf } from '../../src/render/pdf/pdf-writer.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp, testFonts } from '../support/app.ts';
import { pdfObjects, qpdfCheck, readPdf } from '../support/pdf.ts';
import { renderBody } from '../support/render.ts';
import { INVOICE_FIELDS, post } from '../support/requests.ts';

/** A link the url rules accept that, written unescaped, would close the /URI string and add a JavaScript action. */
const INJECTION = 'https://pay.example.com/)/S/JavaScript/JS(app.alert(1)';

/** Every dictionary in the file, walked from qpdf's parse of each object. */
function dictionaries(objects: Record<string, unknown>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (Object.keys(record).some((key) => key.startsWith('/'))) found.push(record);
      Object.values(record).forEach(walk);
    }
  };
  walk(objects);
  return found;
}

function expectOnlyUriActions(bytes: Uint8Array, target: string) {
  const all = dictionaries(pdfObjects(bytes));
  expect(all.filter((dict) => '/JS' in dict || '/JavaScript' in dict)).toEqual([]);
  // A structure element has an /S too (its type), and a parent /P, which an action never has.
  const actions = all.filter((dict) => '/S' in dict && !('/P' in dict));
  expect(actions.length).toBeGreaterThan(0);
  for (const action of actions) expect(action).toEqual({ '/Type': '/Action', '/S': '/URI', '/URI': `u:${target}` });
}

describe('strings in PDF objects are data, never syntax (issue 12 item 2)', () => {
  let app: TestApp;
  let caller: Caller;
  beforeEach(async () => {
    app = await createTestApp();
    caller = await seedCaller(app, { credits: 5 });
  });

  it('POST /api/v1/documents: a payment_link with ( and ) links to exactly its printed text, with no JavaScript action', async () => {
    const response = await post(app, '/api/v1/documents', caller.headers, {
      template: 'invoice',
      mode: 'final',
      fields: { ...INVOICE_FIELDS, payment_link: INJECTION },
    });
    expect(response.status).toBe(201);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(qpdfCheck(bytes)).toEqual({ status: 0, output: expect.stringContaining('No syntax or stream encoding errors') });
    expectOnlyUriActions(bytes, INJECTION);

    const pdf = await readPdf(bytes);
    const links = pdf.pages.flatMap((page) => page.links);
    expect(links.map((link) => link.target)).toEqual([INJECTION]);
    expect(links[0]!.url).toBe(INJECTION);
    const printed = pdf.pages[0]!.items.filter((item) => INJECTION.startsWith(item.text) && item.text.length > 10);
    expect(printed.map((item) => item.text).join('')).toBe(INJECTION);
  });

  it('a document number with ( ) \\ and non-ASCII is the exact title', async () => {
    const number = 'A(1)) \\ (Ünïcødé) Ω';
    const bytes = await renderBody({ template: 'invoice', mode: 'final', fields: { ...INVOICE_FIELDS, invoice_number: number } });
    expect(qpdfCheck(bytes).status).toBe(0);
    expect((await readPdf(bytes)).title).toBe(`Invoice ${number}`);
  });

  it('the writer keeps ( ) \\ CR LF and non-ASCII in a title and a link target as data', async () => {
    const hostile = 'x) /S /JavaScript /JS (app.alert(1)) \\ \r\n >> endobj ü€';
    const url = `https://pay.example.com/${hostile}`;
    /** A link target is ASCII: anything else is percent-encoded as UTF-8 (RFC 3987 3.1). */
    const target = url.replace('ü€', '%C3%BC%E2%82%AC');
    const structure = new StructureElement('Document');
    const link = structure.add('P').add('Link');
    const bytes = writePdf({
      size: PAPER_SIZES.a4,
      pages: [[{ kind: 'link', x: 50, y: 50, width: 100, height: 12, url, element: link }]],
      title: hostile,
      language: 'en',
      structure,
      fonts: testFonts(),
    });
    expect(qpdfCheck(bytes).status).toBe(0);
    expectOnlyUriActions(bytes, target);
    const pdf = await readPdf(bytes);
    expect(pdf.title).toBe(hostile);
    expect(pdf.pages[0]!.links.map((link) => link.target)).toEqual([target]);
  });
});
