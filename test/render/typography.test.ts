import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { readFontFiles } from '../../src/render/font-files.ts';
import { PREVIEW_MARK } from '../../src/render/layout/document.ts';
import { layoutText } from '../../src/render/text/text.ts';
import { testFonts } from '../support/app.ts';
import { type PdfPage, pdftotext, qdf, readPdf } from '../support/pdf.ts';
import { renderBody } from '../support/render.ts';
import { finalBody, fixture, INVOICE_FIELDS, QUOTE_FIELDS, RECEIPT_FIELDS } from '../support/requests.ts';

const right = (item: { x: number; width: number }) => item.x + item.width;
const find = (page: PdfPage, text: string) => {
  const found = page.items.find((item) => item.text === text);
  if (!found) throw new Error(`no "${text}" on the page: ${page.items.map((item) => item.text).join(' | ')}`);
  return found;
};

describe('labels are printed as the contract writes them (item 14)', () => {
  it.each([
    ['invoice', fixture('reference-invoice.json'), ['Bill to', 'Pay online', 'Payment terms', 'Notes']],
    ['quote', { ...finalBody('quote', { ...QUOTE_FIELDS, show_acceptance: true }) }, ['Prepared for', 'Accepted by', 'Scope of work']],
    ['receipt', finalBody('receipt', RECEIPT_FIELDS), ['Received from', 'Amount received']],
  ] as const)('%s', async (_, body, labels) => {
    const items = (await readPdf(await renderBody(body))).pages[0]!.items.map((item) => item.text);
    for (const label of labels) {
      expect(items, label).toContain(label);
      expect(items, label).not.toContain(label.toUpperCase());
    }
  });
});

describe('the preview marking keeps text extraction in reading order (item 15)', () => {
  const body = fixture('reference-invoice-50.json');

  it('pdftotext: the content lines of a preview are those of the final, the marking only as whole lines', async () => {
    const lines = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
    const finalLines = lines(pdftotext(await renderBody(body))).filter((line) => !line.startsWith('Invoice INV-2025-00050 ·'));
    const previewLines = lines(pdftotext(await renderBody({ ...body, mode: 'preview' })));
    expect(previewLines.filter((line) => line !== PREVIEW_MARK)).toEqual(finalLines);
    expect(previewLines.filter((line) => line === PREVIEW_MARK).length).toBe(2 * 3);
  });

  it('pdf.js: the watermark is one text item, the last on each page', async () => {
    const pdf = await readPdf(await renderBody({ ...body, mode: 'preview' }));
    for (const page of pdf.pages) {
      expect(page.items.at(-1)!.text).toBe(PREVIEW_MARK);
      expect(page.items.filter((item) => item.text.includes('PREVIEW')).length).toBe(2);
    }
  });
});

describe('figures never wrap and identifiers break only where they may (item 17)', () => {
  const fields = {
    ...INVOICE_FIELDS,
    po_number: '4500012345/ACME-PROCUREMENT-EMEA',
    invoice_number: 'INV-2026-000000000123456789/ACME-PROCUREMENT-EMEA',
    items: [
      { description: 'Bulk material, metric tonnes', quantity: '12,345.678', unit_price: '99.9999' },
      { description: 'Very large order', quantity: '1000', unit_price: '9999999999.99' },
      { description: 'Credit', quantity: '-1', unit_price: '0.01' },
    ],
  };

  it('a quantity and an amount near 10^13 print whole, right-aligned in their columns, on A4 and Letter', async () => {
    for (const paper of ['a4', 'letter']) {
      const page = (await readPdf(await renderBody(finalBody('invoice', fields, { paper })))).pages[0]!;
      const quantity = find(page, '12,345.678');
      const amount = find(page, '9,999,999,999,990.00');
      expect(right(quantity)).toBeCloseTo(right(find(page, 'Qty')), 1);
      expect(right(amount)).toBeCloseTo(right(find(page, 'Amount (EUR)')), 1);
      expect(right(find(page, '99.9999'))).toBeCloseTo(right(find(page, 'Unit price (EUR)')), 1);
      expect(page.items.some((item) => item.text === '8' || item.text === '88' || item.text === '00')).toBe(false);
    }
  });

  it('the description column gives way and still holds its text', async () => {
    const page = (await readPdf(await renderBody(finalBody('invoice', fields)))).pages[0]!;
    const description = find(page, 'Bulk material, metric tonnes');
    expect(right(description)).toBeLessThan(find(page, '12,345.678').x);
  });

  it('a PO number that fits is not broken; one that does not breaks only after / - or _', async () => {
    const page = (await readPdf(await renderBody(finalBody('invoice', fields)))).pages[0]!;
    find(page, '4500012345/ACME-PROCUREMENT-EMEA');
    const pieces = page.items.filter((item) => fields.invoice_number.includes(item.text) && item.text.length > 3 && item.x > 250);
    expect(pieces.map((piece) => piece.text).join('')).toBe(fields.invoice_number);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(0, -1)) expect(piece.text).toMatch(/[-/_]$/);
  });
});

describe('the totals keep the last item rows with them (item 18)', () => {
  it.each(['a4', 'letter'])('the 50-line reference invoice on %s', async (paper) => {
    const body = { ...fixture('reference-invoice-50.json'), paper };
    const descriptions = new Set(body.fields.items.map((item: { description: string }) => item.description));
    const pdf = await readPdf(await renderBody(body));
    const totalsPage = pdf.pages.find((page) => page.items.some((item) => item.text === 'Subtotal'))!;
    const subtotal = find(totalsPage, 'Subtotal');
    const rowsAbove = totalsPage.items.filter((item) => descriptions.has(item.text) && item.y > subtotal.y);
    expect(rowsAbove.length).toBeGreaterThanOrEqual(2);
  });
});

describe('characters that are not drawn, and text as it is composed (item 19)', () => {
  const textOf = async (fields: Record<string, unknown>) =>
    (await readPdf(await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, ...fields })), { raw: true })).text;

  it('default-ignorable characters (U+200C–U+200F, U+2060, variation selectors, soft hyphens inside a line) are not drawn', async () => {
    const text = await textOf({ notes: 'A\u200CB\u200DC\u200ED\u200FE\u2060F\uFE0FG harness\u00ADassembly' });
    expect(text).toContain('ABCDEFG harnessassembly');
  });

  it('a soft hyphen where the line breaks is drawn as a hyphen', async () => {
    const word = Array.from({ length: 40 }, (_, i) => `syl${i}`).join('\u00AD');
    const pdf = await readPdf(await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, notes: `Start ${word}` })), { raw: true });
    const lines = pdf.pages[0]!.items.map((item) => item.text).filter((text) => text.includes('syl'));
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/syl\d+-$/);
    expect(lines.map((line) => line.replace(/-$/, '')).join('')).toBe(`Start ${word.replaceAll('\u00AD', '')}`);
  });

  it('decomposed text (NFD) is drawn composed (NFC), as precomposed letters', async () => {
    const nfd = 'Cafe\u0301 Zu\u0308rich Ελλα\u0301δα'.normalize('NFD');
    const text = await textOf({ client_name: nfd });
    expect(text).toContain(nfd.normalize('NFC'));
    expect(text).not.toContain('\u0301');
  });

  it('NFC never makes a character the fonts lack from text they draw: ≠ ≮ ≯ stay decomposed, and the list is complete', async () => {
    const fonts = testFonts();
    const drawable = (text: string) => [...text].every((char) => fonts.regular.latin.glyphOf(char.codePointAt(0)!) !== undefined);
    const composedOnlyInNfc: number[] = [];
    for (let codePoint = 0x20; codePoint < 0x30000; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const char = String.fromCodePoint(codePoint);
      if (!drawable(char) && char.normalize('NFD') !== char && drawable(char.normalize('NFD'))) composedOnlyInNfc.push(codePoint);
    }
    expect(composedOnlyInNfc.filter((codePoint) => !layoutText(String.fromCodePoint(codePoint)).includes('\u0338'))).toEqual([]);
    expect(await textOf({ client_name: 'a =\u0338 b, 1 <\u0338 2, \u2260' })).toContain('a =\u0338 b, 1 <\u0338 2, =\u0338');
  });

  it('a TAB in a multiline value prints as a space', async () => {
    expect(await textOf({ notes: 'Column\tvalue', payment_instructions: 'IBAN\tDE89' })).toContain('Column value');
  });
});

describe('kerning and mark positioning (item 20)', () => {
  it('a kerned heading is drawn narrower than the sum of its advances, exactly as measured', async () => {
    const page = (await readPdf(await renderBody(finalBody('receipt', RECEIPT_FIELDS)))).pages[0]!;
    const heading = find(page, 'PAYMENT RECEIPT');
    const bold = fontkit.create(readFontFiles().bold);
    const advances = [...'PAYMENT RECEIPT'].reduce((sum, char) => sum + bold.glyphForCodePoint(char.codePointAt(0)!).advanceWidth, 0);
    const unkerned = (advances * 22) / bold.unitsPerEm;
    expect(heading.width).toBeLessThan(unkerned - 1.5);
    expect(heading.width).toBeCloseTo(testFonts().bold.widthOf('PAYMENT RECEIPT', 22), 1);
  });

  it('a combining mark without a precomposed form is placed by the mark table', async () => {
    const regular = fontkit.create(readFontFiles().regular);
    const content = qdf(await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, notes: 'q\u0303 \u0438\u0301' })));
    for (const text of ['q\u0303', '\u0438\u0301']) {
      const run = regular.layout(text, ['kern', 'mark', 'mkmk']);
      const offset = (run.positions[1]!.xOffset * 1000) / regular.unitsPerEm;
      expect(offset, text).not.toBe(0);
      // The mark is moved onto its base before it is drawn, and the pen moved back after it (if anything follows);
      // qpdf writes the glyph ids of the content streams it normalises in lower case.
      expect(content, text).toMatch(new RegExp(`>${-offset}<[0-9A-Fa-f]{4}>(${offset}<|\\])`));
    }
    expect((await readPdf(await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, notes: 'q\u0303' })), { raw: true })).text).toContain(
      'q\u0303',
    );
  });
});

describe('one grid on the right (item 21)', () => {
  it.each(['a4', 'letter'])('totals figures end at the Amount column; facts and totals share their edges (%s)', async (paper) => {
    const page = (await readPdf(await renderBody({ ...fixture('reference-invoice.json'), paper }))).pages[0]!;
    const amountEdge = right(find(page, 'Amount (EUR)'));
    for (const figure of ['1,300.00', '1,140.00', '4,840.00', '\u2212484.00', 'EUR 5,270.76', 'EUR 4,270.76']) {
      expect(right(find(page, figure)), figure).toBeCloseTo(amountEdge, 1);
    }
    for (const fact of ['INV-2025-00042', '2025-11-03', 'PO-77813']) expect(right(find(page, fact)), fact).toBeCloseTo(amountEdge, 1);
    const labelEdge = find(page, 'Subtotal').x;
    for (const label of ['Invoice no.', 'Date', 'Due date', 'PO no.', 'Discount (10%)', 'Balance due']) {
      expect(find(page, label).x, label).toBeCloseTo(labelEdge, 1);
    }
  });
});

describe('negative figures print with a minus sign (item 22)', () => {
  it('a discount and a credit line print U+2212; nothing prints a hyphen-minus before a figure', async () => {
    const text = (
      await readPdf(
        await renderBody(
          finalBody('invoice', {
            ...INVOICE_FIELDS,
            discount: '10%',
            items: [...INVOICE_FIELDS.items, { description: 'Credit', quantity: '-1', unit_price: '5.00' }],
          }),
        ),
        { raw: true },
      )
    ).text;
    expect(text).toContain('\u22121');
    expect(text).toContain('\u22125.00');
    expect(text).toContain('\u22129.50');
    expect(text).not.toMatch(/(^|\s)-\d/m);
  });
});
