import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { makeDocument } from '../support/documents.ts';
import { readPdf } from '../support/pdf.ts';
import { INVOICE_FIELDS, QUOTE_FIELDS, RECEIPT_FIELDS } from '../support/requests.ts';

/**
 * The figures a document prints, read back from the PDF with pdf.js (an implementation independent of the
 * writer): currencies with 0 and 3 minor digits, quantities with decimals, and credit lines. A negative figure may
 * print with a hyphen-minus or with U+2212 MINUS SIGN; both are read here as a minus.
 */
let app: TestApp;
let caller: Caller;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app);
});

/** The printed text of a preview of the body, with every minus sign as `-`, and its Totals headers. */
async function printed(template: string, fields: Record<string, unknown>) {
  const response = await makeDocument(app, caller, { template, mode: 'preview', fields });
  expect(response.status, response.status === 201 ? '' : await response.clone().text()).toBe(201);
  const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
  return { text: pdf.text.replace(/\u2212/g, '-'), headers: response.headers };
}

/** The figure appears as a printed item of its own (not inside a longer number). */
function expectFigure(text: string, figure: string) {
  const escaped = figure.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(text, figure).toMatch(new RegExp(`(^|[^\\d.,-])${escaped}($|[^\\d.,])`, 'm'));
}

describe('a currency without minor digits (JPY, KRW): whole numbers, grouped, with no point', () => {
  it('JPY invoice with a discount, a tax line and an amount paid', async () => {
    const { text, headers } = await printed('invoice', {
      ...INVOICE_FIELDS,
      currency: 'JPY',
      items: [
        { description: 'Licence', quantity: '3', unit_price: '1250' },
        { description: 'Support', quantity: '1', unit_price: '1000000' },
      ],
      discount: '500',
      tax_rate: '10',
      amount_paid: '1000',
    });
    // 3 × 1,250 = 3,750; + 1,000,000 = 1,003,750; − 500 = 1,003,250; tax 100,325; total 1,103,575.
    for (const figure of ['1,250', '3,750', '1,000,000', '1,003,750', '-500', '100,325', 'JPY 1,103,575', '1,000', 'JPY 1,102,575']) {
      expectFigure(text, figure);
    }
    expect(text).not.toContain('undefined');
    expect(text).not.toMatch(/\d\.(\D|$)/m);
    expect(headers.get('Svc-Totals-Total')).toBe('1103575');
    expect(headers.get('Svc-Totals-Balance-Due')).toBe('1102575');
  });

  it('KRW receipt: the amount received', async () => {
    const { text, headers } = await printed('receipt', { ...RECEIPT_FIELDS, currency: 'KRW', amount: '12345678' });
    expectFigure(text, 'KRW 12,345,678');
    expect(text).not.toContain('undefined');
    expect(headers.get('Svc-Totals-Amount-Paid')).toBe('12345678');
  });

  it('KRW quote with a fixed amount', async () => {
    const { text } = await printed('quote', { ...QUOTE_FIELDS, currency: 'KRW', amount: '5000000' });
    expectFigure(text, 'KRW 5,000,000');
    expect(text).not.toContain('undefined');
    expect(text).not.toContain('5,000,000.');
  });
});

describe('a currency with three minor digits (KWD, BHD)', () => {
  it('KWD invoice: every figure with exactly three decimals', async () => {
    const { text, headers } = await printed('invoice', {
      ...INVOICE_FIELDS,
      currency: 'KWD',
      items: [{ description: 'Hosting', quantity: '2.5', unit_price: '1.234' }],
      tax_rate: '5',
    });
    // 2.5 × 1.234 = 3.085; tax 5% = 0.15425 → 0.154; total 3.239.
    for (const figure of ['2.5', '1.234', '3.085', '0.154', 'KWD 3.239']) expectFigure(text, figure);
    expect(headers.get('Svc-Totals-Tax')).toBe('0.154');
  });

  it('BHD receipt: a whole amount printed with three decimals, grouped', async () => {
    const { text } = await printed('receipt', { ...RECEIPT_FIELDS, currency: 'BHD', amount: '1234.5' });
    expectFigure(text, 'BHD 1,234.500');
  });
});

describe('quantities and unit prices as sent', () => {
  it('a quantity with three decimals, and a unit price with more digits than the currency has', async () => {
    const { text } = await printed('invoice', {
      ...INVOICE_FIELDS,
      items: [
        { description: 'Hours', quantity: '1.125', unit_price: '80.00' },
        { description: 'Metered', quantity: '1,250.5', unit_price: '0.0125' },
      ],
    });
    // 1.125 × 80 = 90.00; 1,250.5 × 0.0125 = 15.63125 → 15.63; subtotal 105.63.
    for (const figure of ['1.125', '80.00', '90.00', '1,250.5', '0.0125', '15.63', 'EUR 105.63']) expectFigure(text, figure);
  });
});

describe('credit lines, where the contract allows them', () => {
  it('an invoice line with a negative quantity, its amount negative, the subtotal still at least 0', async () => {
    const { text, headers } = await printed('invoice', {
      ...INVOICE_FIELDS,
      items: [
        { description: 'Work', quantity: '10', unit_price: '100.00' },
        { description: 'Returned', quantity: '-1.5', unit_price: '100.00' },
      ],
    });
    for (const figure of ['-1.5', '-150.00', '1,000.00', '850.00', 'EUR 850.00']) expectFigure(text, figure);
    expect(headers.get('Svc-Totals-Subtotal')).toBe('850.00');
  });

  it('a quote whose credit lines take the total below zero', async () => {
    const { amount: _, ...withoutAmount } = QUOTE_FIELDS;
    const { text, headers } = await printed('quote', {
      ...withoutAmount,
      items: [
        { description: 'Setup', quantity: '1', unit_price: '1000.00' },
        { description: 'Goodwill credit', quantity: '1', unit_price: '-1234.56' },
      ],
    });
    for (const figure of ['-1,234.56', 'USD -234.56']) expectFigure(text, figure);
    expect(headers.get('Svc-Totals-Total')).toBe('-234.56');
  });
});
