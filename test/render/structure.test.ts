import { describe, expect, it } from 'vitest';
import { findTemplate } from '../../src/templates/registry.ts';
import {
  type PdfJsStructureNode,
  pdfJsStructureTree,
  pdfObjects,
  pdftotext,
  qdf,
  qpdfCheck,
  type StructureNode,
  structureText,
  structureTree,
} from '../support/pdf.ts';
import { renderBody } from '../support/render.ts';
import { fixture } from '../support/requests.ts';

/**
 * Issue 20: the PDFs are tagged. The structure tree is read back with poppler (`pdfinfo -struct-text`) and pdf.js,
 * implementations independent of the writer, and the catalog, pages and annotations with qpdf.
 *
 * veraPDF, the reference PDF/UA-1 checker, cannot be installed here (Java, on neither npm nor Debian). Of its rules
 * these tests cover: 7.1 content tagged or artifact and never one inside the other, catalog /MarkInfo /Marked,
 * /StructTreeRoot, /ViewerPreferences /DisplayDocTitle; 7.2 /Lang of the document and of other-script elements,
 * standard structure types only, Table > TR > TH/TD with the same cells in every row; 7.4 headings H1 then H2;
 * 7.5 TH /Scope; 7.18.1 annotations in the structure tree (OBJR) with /Contents; 7.18.3 /Tabs /S on every page;
 * 7.18.5 links in Link elements. Not covered, and expected to fail there: 5 (the PDF/UA identifier in XMP
 * metadata) and 7.1-8/9 (a /Metadata stream with dc:title), as no XMP is written; the font rules of 7.21 (embedding,
 * ToUnicode) are held by the extraction and typography tests, not re-checked here.
 */

const spaceless = (text: string) => text.replace(/\s+/g, '');
const elements = (node: StructureNode, role: string): StructureNode[] => [
  ...(node.role === role ? [node] : []),
  ...node.children.flatMap((child) => elements(child, role)),
];
/** A table's rows as the text of each cell, with TH or TD before it. */
const rowsOf = (table: StructureNode) =>
  table.children.map((row) => {
    expect(row.role).toBe('TR');
    return row.children.map((cell) => `${cell.role} ${structureText(cell)}`);
  });
const countOf = (text: string, part: string) => text.split(part).length - 1;

type Objects = Record<string, { value?: Record<string, unknown> }>;
const resolved = (objects: Objects, ref: unknown) => objects[`obj:${ref as string}`]!.value!;
function catalogOf(bytes: Uint8Array) {
  const objects = pdfObjects(bytes) as Objects;
  const trailer = objects.trailer!.value!;
  return { objects, catalog: resolved(objects, trailer['/Root']) };
}

describe('document catalog (PDF/UA-1 7.1, 7.2)', () => {
  it('says the language, that the file is tagged, and to show the title', async () => {
    const bytes = await renderBody(fixture('reference-invoice.json'));
    expect(qpdfCheck(bytes).status).toBe(0);
    const { objects, catalog } = catalogOf(bytes);
    expect(catalog['/Lang']).toBe('u:en');
    expect(catalog['/MarkInfo']).toEqual({ '/Marked': true });
    expect(catalog['/StructTreeRoot']).toBeDefined();
    const preferences = catalog['/ViewerPreferences'];
    expect(typeof preferences === 'string' ? resolved(objects, preferences) : preferences).toEqual({ '/DisplayDocTitle': true });
  });

  it('every page orders its tabs by the structure and belongs to the parent tree; every link has Contents and a StructParent', async () => {
    const bytes = await renderBody(fixture('reference-invoice-50.json'));
    const { objects } = catalogOf(bytes);
    const values = Object.values(objects).flatMap((object) => (object.value && typeof object.value === 'object' ? [object.value] : []));
    const pages = values.filter((value) => value['/Type'] === '/Page');
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.map((page) => page['/Tabs'])).toEqual(pages.map(() => '/S'));
    expect(pages.map((page) => page['/StructParents'])).toEqual(pages.map((_, index) => index));
    const links = values.filter((value) => value['/Subtype'] === '/Link');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link['/Contents']).toBe(`u:${fixture('reference-invoice-50.json').fields.payment_link}`);
      expect(link['/StructParent']).toBeGreaterThanOrEqual(pages.length);
    }
  });
});

/**
 * Every page's drawing operators with the marked-content sequences around each (PDF/UA-1 7.1: content is either
 * tagged or an artifact, never neither, and neither inside the other). A sequence is `tagged` with an MCID,
 * `artifact`, or `span` (the ActualText of a script run, inside one of the others).
 */
function markedOperators(bytes: Uint8Array): { operator: string; within: string[] }[] {
  const found: { operator: string; within: string[] }[] = [];
  const streams = qdf(bytes)
    .split(/\bstream\r?\n/)
    .slice(1);
  for (const stream of streams) {
    const content = stream.slice(0, stream.indexOf('endstream'));
    if (!/\bBT\b/.test(content)) continue;
    const within: string[] = [];
    for (const match of content.matchAll(/\/(\w+)\s*(<<.*?>>)?\s*BDC|\/(\w+)\s+BMC|\bEMC\b|\bT[Jj]\b|\b[Sf]\b/g)) {
      const [operator, tag, properties, plainTag] = match;
      if (operator.endsWith('BDC') || operator.endsWith('BMC')) {
        const name = tag ?? plainTag;
        within.push(name === 'Artifact' ? 'artifact' : properties?.includes('/MCID') ? 'tagged' : 'span');
      } else if (operator === 'EMC') within.pop();
      else found.push({ operator, within: [...within] });
    }
    expect(within).toEqual([]);
  }
  return found;
}

describe('every drawing is content or an artifact (PDF/UA-1 7.1)', () => {
  it.each([
    ['the 50-line invoice', { ...fixture('reference-invoice-50.json') }],
    ['a preview', { ...fixture('reference-invoice.json'), mode: 'preview' }],
    ['the Arabic invoice', fixture('script-invoices/arabic.json')],
  ])('%s: text and paths are inside exactly one tagged or artifact sequence', async (_, body) => {
    const operators = markedOperators(await renderBody(body));
    expect(operators.length).toBeGreaterThan(50);
    for (const { operator, within } of operators) {
      const kinds = within.filter((kind) => kind !== 'span');
      expect(kinds, operator).toHaveLength(1);
    }
    expect(operators.some(({ within }) => within[0] === 'artifact')).toBe(true);
    expect(operators.some(({ within }) => within[0] === 'tagged')).toBe(true);
  });
});

describe('structure tree of each template, in reading order', () => {
  it('invoice: heading, seller, facts, party, every line item as a row of cells, totals, sections and the link', async () => {
    const body = fixture('reference-invoice.json');
    const tree = structureTree(await renderBody(body));
    expect(tree.role).toBe('Document');
    const roles = tree.children.map((child) => child.role);
    expect(roles.slice(0, 6)).toEqual(['H1', 'P', 'P', 'P', 'Table', 'H2']);
    expect(structureText(tree.children[0]!)).toBe('INVOICE');
    expect(structureText(tree.children[1]!)).toBe(body.fields.seller_name);
    expect(rowsOf(tree.children[4]!)).toEqual([
      ['TH Invoice no.', `TD ${body.fields.invoice_number}`],
      ['TH Date', `TD ${body.fields.date}`],
      ['TH Due date', `TD ${body.fields.due_date}`],
      ['TH PO no.', `TD ${body.fields.po_number}`],
    ]);
    expect(tree.children.slice(5, 8).map(structureText)).toEqual(['Bill to', body.fields.client_name, expect.any(String)]);

    const [facts, items, totals] = elements(tree, 'Table');
    expect(facts!.children[0]!.children[0]!.attributes).toEqual(['/Scope /Row']);
    const [header, ...rows] = rowsOf(items!);
    expect(header).toEqual(['TH Description', 'TH Qty', 'TH Unit price (EUR)', 'TH Amount (EUR)']);
    expect(items!.children[0]!.children.map((cell) => cell.attributes)).toEqual(header!.map(() => ['/Scope /Column']));
    expect(rows).toEqual([
      ['TD Platform subscription, Business plan (12 months)', 'TD 1', 'TD 2,400.00', 'TD 2,400.00'],
      ['TD Консультации по интеграции / Integration consulting (h)', 'TD 12', 'TD 95.00', 'TD 1,140.00'],
      ['TD Εκπαίδευση χρηστών / On-site user training (days)', 'TD 2', 'TD 650.00', 'TD 1,300.00'],
    ]);
    expect(rowsOf(totals!)).toEqual([
      ['TH Subtotal', 'TD 4,840.00'],
      ['TH Discount (10%)', 'TD −484.00'],
      ['TH VAT 21%', 'TD 914.76'],
      ['TH Total', 'TD EUR 5,270.76'],
      ['TH Amount paid', 'TD 1,000.00'],
      ['TH Balance due', 'TD EUR 4,270.76'],
    ]);

    const headings = elements(tree, 'H2').map(structureText);
    expect(headings).toEqual(['Bill to', 'Payment terms', 'Payment instructions', 'Pay online', 'Notes']);
    const [link] = elements(tree, 'Link');
    expect(spaceless(structureText(link!))).toBe(body.fields.payment_link);
    expect(link!.content.filter((item) => item.startsWith('Object ')).length).toBeGreaterThan(0);
    expect(tree.children.at(-1)!.role).toBe('P');
    expect(spaceless(structureText(tree.children.at(-1)!))).toBe(spaceless(body.fields.notes));
  });

  it('a value over several lines reads with a space where its words part, none inside a word broken across lines', async () => {
    const reference = fixture('reference-invoice.json');
    const link = `https://pay.example.com/i/${'0123456789'.repeat(12)}`;
    const body = { ...reference, fields: { ...reference.fields, payment_link: link } };
    const tree = structureTree(await renderBody(body));
    // Lines of its own in the value, then lines wrapped at spaces.
    expect(structureText(tree.children[2]!)).toBe('Friedrichstraße 123 10117 Berlin Germany');
    expect(structureText(tree.children.at(-1)!)).toBe(body.fields.notes);
    // A link too long for a line is broken inside it: its pieces (one per line, the underline between) join up.
    const [linkElement] = elements(tree, 'Link');
    const pieces = linkElement!.content.filter((item) => !item.startsWith('Object '));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(link);
  });

  it('invoice over pages: every line item is one row, the header repeated on later pages is read once', async () => {
    const body = fixture('reference-invoice-50.json');
    const bytes = await renderBody(body);
    const tree = structureTree(bytes);
    const [, items] = elements(tree, 'Table');
    const [header, ...rows] = rowsOf(items!);
    expect(header).toEqual(['TH Description', 'TH Qty', 'TH Unit price (EUR)', 'TH Amount (EUR)']);
    expect(rows.map((cells) => spaceless(cells[0]!))).toEqual(
      body.fields.items.map((item: { description: string }) => spaceless(`TD ${item.description}`)),
    );
    for (const cells of rows) expect(cells.slice(1).every((cell) => /^TD [−\d.,]+$/.test(cell))).toBe(true);
    const text = structureText(tree);
    expect(countOf(pdftotext(bytes), 'Unit price (EUR)')).toBeGreaterThan(1);
    expect(countOf(text, 'Unit price (EUR)')).toBe(1);
  });

  it('page furniture is no content: page numbers, footer and running head are not in the tree', async () => {
    const body = fixture('reference-invoice-50.json');
    const bytes = await renderBody(body);
    const printed = pdftotext(bytes);
    const text = structureText(structureTree(bytes));
    const title = `Invoice ${body.fields.invoice_number}`;
    for (const furniture of ['Page 1 of', 'Page 2 of', `${title} (continued)`, `${title} · ${body.fields.seller_name}`]) {
      expect(printed, furniture).toContain(furniture);
      expect(text, furniture).not.toContain(furniture);
    }
  });

  it('a preview says so once, as the first paragraph, before the heading', async () => {
    const body = { ...fixture('reference-invoice-50.json'), mode: 'preview' };
    const bytes = await renderBody(body);
    const tree = structureTree(bytes);
    expect(tree.children.slice(0, 2).map((child) => `${child.role} ${structureText(child)}`)).toEqual([
      'P PREVIEW · NOT A VALID DOCUMENT',
      'H1 INVOICE',
    ]);
    expect(countOf(structureText(tree), 'PREVIEW')).toBe(1);
    expect(countOf(pdftotext(bytes), 'PREVIEW · NOT A VALID DOCUMENT')).toBeGreaterThan(2);
  });

  it('quote: heading, scope, the items as rows and the totals', async () => {
    const body = { ...findTemplate('quote')!.example, mode: 'final' } as ReturnType<typeof fixture>;
    const tree = structureTree(await renderBody(body));
    expect(tree.children[0]!.role).toBe('H1');
    expect(structureText(tree.children[0]!)).toBe(body.fields.document_title.toUpperCase());
    const headings = elements(tree, 'H2').map(structureText);
    expect(headings.slice(0, 2)).toEqual(['Prepared for', 'Scope of work']);
    const [, items, totals] = elements(tree, 'Table');
    const [, ...rows] = rowsOf(items!);
    expect(rows.map((cells) => cells[0])).toEqual(body.fields.items.map((item: { description: string }) => `TD ${item.description}`));
    expect(rowsOf(totals!).map((cells) => cells[0])).toEqual(['TH Subtotal', 'TH Total']);
  });

  it('receipt: heading, the amount received, and payment facts as a table', async () => {
    const body = { ...findTemplate('receipt')!.example, mode: 'final' } as ReturnType<typeof fixture>;
    const tree = structureTree(await renderBody(body));
    expect(structureText(tree.children[0]!)).toBe('PAYMENT RECEIPT');
    expect(tree.children[0]!.role).toBe('H1');
    const text = tree.children.map((child) => `${child.role} ${structureText(child)}`);
    const amountAt = text.indexOf('H2 Amount received');
    expect(text[amountAt + 1]).toMatch(/^P [A-Z]{3} [\d,]+\.\d\d$/);
    expect(text[amountAt + 2]).toBe('P PAID');
    const payment = elements(tree, 'Table').at(-1)!;
    expect(rowsOf(payment)[0]).toEqual(['TH Payment method', `TD ${body.fields.payment_method}`]);
  });
});

describe('the same tree as pdf.js reads it (what Firefox gives a screen reader)', () => {
  const roles = (node: PdfJsStructureNode): string[] => [...(node.role ? [node.role] : []), ...(node.children ?? []).flatMap(roles)];
  const find = (node: PdfJsStructureNode, role: string): PdfJsStructureNode[] => [
    ...(node.role === role ? [node] : []),
    ...(node.children ?? []).flatMap((child) => find(child, role)),
  ];

  it('has the elements poppler reads, the link holds its text and its annotation, and a Russian cell its language', async () => {
    const bytes = await renderBody(fixture('reference-invoice.json'));
    const poppler = structureTree(bytes);
    const popplerRoles = (node: StructureNode): string[] => [node.role, ...node.children.flatMap(popplerRoles)];
    const tree = await pdfJsStructureTree(bytes, 1);
    expect(roles(tree)).toEqual(['Root', ...popplerRoles(poppler)]);
    const [link] = find(tree, 'Link');
    expect(link!.children!.map((child) => child.type)).toEqual(['content', 'annotation']);
    expect(find(tree, 'TD').filter((cell) => cell.lang === 'ru')).toHaveLength(1);
  });
});

describe('text in other scripts', () => {
  /** The structure elements with their /Lang and /ActualText, as qpdf reads them. */
  async function elementsWith(body: unknown) {
    const { objects } = catalogOf(await renderBody(body));
    return Object.values(objects)
      .flatMap((object) => (object.value && typeof object.value === 'object' && '/S' in object.value ? [object.value] : []))
      .filter((element) => element['/Lang'] !== undefined || element['/ActualText'] !== undefined)
      .map((element) => ({ type: element['/S'], lang: element['/Lang'], actualText: element['/ActualText'] }));
  }

  it('an element whose text is mostly of another script says its language; Latin text keeps the document’s', async () => {
    const body = fixture('reference-invoice.json');
    const tagged = await elementsWith(body);
    expect(tagged).toEqual(
      expect.arrayContaining([
        { type: '/P', lang: 'u:el', actualText: undefined },
        { type: '/TD', lang: 'u:ru', actualText: undefined },
      ]),
    );
    // `Εκπαίδευση χρηστών / On-site user training (days)` has more Latin letters than Greek ones.
    expect(tagged.filter((element) => element.type === '/TD')).toHaveLength(1);
    expect(tagged.every((element) => element.lang !== 'u:en')).toBe(true);
  });

  it('the ActualText of a value over several lines has a space where its words part, none inside a broken word', async () => {
    const body = fixture('script-invoices/hindi.json');
    const word = 'हिन्दी'.repeat(30);
    body.fields.items[0].description = word;
    body.fields.notes = `${'सेवा '.repeat(40)}${word}`;
    const tagged = await elementsWith(body);
    expect(tagged).toContainEqual({ type: '/TD', lang: 'u:hi', actualText: `u:${word}` });
    expect(tagged).toContainEqual({ type: '/P', lang: 'u:hi', actualText: `u:${body.fields.notes}` });
  });

  it('right-to-left text carries its text in logical order as ActualText', async () => {
    const body = fixture('script-invoices/arabic.json');
    const tagged = await elementsWith(body);
    expect(tagged).toContainEqual({ type: '/P', lang: 'u:ar', actualText: `u:${body.fields.seller_name}` });
  });
});
