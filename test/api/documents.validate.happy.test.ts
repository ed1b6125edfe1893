import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValidateAnswerSchema } from '../../src/openapi/schemas.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { body, fixture, INVOICE_FIELDS, post, QUOTE_FIELDS, RECEIPT_FIELDS } from '../support/requests.ts';

let app: TestApp;
let caller: Caller;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app);
});

async function totalsOf(payload: unknown) {
  const response = await post(app, '/api/v1/documents/validate', caller.headers, payload);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const answer = JSON.parse(text);
  expect(v.safeParse(ValidateAnswerSchema, answer).issues).toBeUndefined();
  return answer.totals;
}

const item = (quantity: string, unit_price: string) => ({ description: 'Line', quantity, unit_price });
const invoice = (fields: Record<string, unknown>) => body('invoice', { ...INVOICE_FIELDS, ...fields });

describe('the validate answer (2.8)', () => {
  it.each(TEMPLATES.map((t) => [t.slug, t]))("accepts the %s template's published example", async (_, template) => {
    const response = await post(app, '/api/v1/documents/validate', caller.headers, template.example);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      valid: true,
      template: template.slug,
      template_version: template.version,
      credit_used: false,
    });
  });
});

describe('totals (2.7), computed with exact decimals', () => {
  it('the reference invoice: 10% discount, VAT 21% on the discounted subtotal, amount paid', async () => {
    const reference = fixture('reference-invoice.json');
    expect(await totalsOf(reference)).toEqual({
      currency: 'EUR',
      subtotal: '4840.00',
      discount: '484.00',
      tax: '914.76',
      total: '5270.76',
      amount_paid: '1000.00',
      balance_due: '4270.76',
    });
  });

  it('the 50-line reference invoice', async () => {
    const reference = fixture('reference-invoice-50.json');
    expect(await totalsOf(reference)).toEqual({
      currency: 'EUR',
      subtotal: '93924.60',
      discount: '9392.46',
      tax: '17751.75',
      total: '102283.89',
      amount_paid: '25570.97',
      balance_due: '76712.92',
    });
  });

  it('states only currency, subtotal, total and balance_due on a bare invoice', async () => {
    expect(await totalsOf(invoice({}))).toEqual({ currency: 'EUR', subtotal: '100.00', total: '100.00', balance_due: '100.00' });
  });

  it('JPY has no decimals: 3 × 333.5 rounds half away from zero to 1001, tax 10% = 100', async () => {
    expect(await totalsOf(invoice({ currency: 'JPY', items: [item('3', '333.5')], tax_rate: '10' }))).toEqual({
      currency: 'JPY',
      subtotal: '1001',
      tax: '100',
      total: '1101',
      balance_due: '1101',
    });
  });

  it('KWD has 3 decimals: 3 × 0.3335 = 1.0005 rounds to 1.001', async () => {
    expect(await totalsOf(invoice({ currency: 'KWD', items: [item('3', '0.3335')], amount_paid: '0.5' }))).toEqual({
      currency: 'KWD',
      subtotal: '1.001',
      total: '1.001',
      amount_paid: '0.500',
      balance_due: '0.501',
    });
  });

  it('rounds ties away from zero in both signs, line by line, before summing', async () => {
    // 0.005 → 0.01 and −0.005 → −0.01: 10.00 + 0.01 − 0.01 = 10.00
    expect(await totalsOf(invoice({ items: [item('1', '10'), item('1', '0.005'), item('-1', '0.005')] }))).toMatchObject({
      subtotal: '10.00',
    });
    // 3 × 0.0015 = 0.0045 rounds to 0.00 (not 0.01: no double rounding)
    expect(await totalsOf(invoice({ items: [item('1', '10'), item('3', '0.0015')] }))).toMatchObject({ subtotal: '10.00' });
    expect(await totalsOf(body('quote', { ...QUOTE_FIELDS, amount: undefined, items: [item('-1', '0.005')] }))).toEqual({
      currency: 'USD',
      subtotal: '-0.01',
      total: '-0.01',
    });
  });

  it('credit lines with negative quantities reduce the subtotal', async () => {
    expect(await totalsOf(invoice({ items: [item('10', '12.50'), item('-2', '12.50')] }))).toMatchObject({
      subtotal: '100.00',
      total: '100.00',
    });
  });

  it('a percentage discount is rounded half away from zero; the tax is on the discounted subtotal', async () => {
    // 0.05 × 10% = 0.005 → 0.01; (0.05 − 0.01) × 12.5% = 0.005 → 0.01
    expect(await totalsOf(invoice({ items: [item('1', '0.05')], discount: '10%', tax_rate: '12.5%' }))).toEqual({
      currency: 'EUR',
      subtotal: '0.05',
      discount: '0.01',
      tax: '0.01',
      total: '0.05',
      balance_due: '0.05',
    });
  });

  it('an amount discount; a discount equal to the subtotal; a discount sent as 0', async () => {
    expect(await totalsOf(invoice({ discount: '25.5', tax_rate: '20' }))).toMatchObject({
      discount: '25.50',
      tax: '14.90',
      total: '89.40',
    });
    expect(await totalsOf(invoice({ discount: '100.00' }))).toMatchObject({ discount: '100.00', total: '0.00', balance_due: '0.00' });
    expect(await totalsOf(invoice({ discount: '0' }))).toMatchObject({ discount: '0.00' });
  });

  it('amount paid equal to the total leaves a balance of 0.00', async () => {
    expect(await totalsOf(invoice({ amount_paid: '100' }))).toMatchObject({ amount_paid: '100.00', balance_due: '0.00' });
  });

  it('a subtotal just below 10^15 is accepted and stated in full: 99999 × 9999999999.9999', async () => {
    expect(await totalsOf(invoice({ items: [item('99999', '9999999999.9999')] }))).toMatchObject({ subtotal: '999989999999990.00' });
  });

  it('a quote with a fixed amount states currency and total, printed normalised', async () => {
    expect(await totalsOf(body('quote', { ...QUOTE_FIELDS, amount: '1,250.5' }))).toEqual({ currency: 'USD', total: '1250.50' });
  });

  it('a quote with items states subtotal and total', async () => {
    expect(await totalsOf(body('quote', { ...QUOTE_FIELDS, amount: undefined, items: 'Design | 2 | 100\nBuild | 1 | 50.25' }))).toEqual({
      currency: 'USD',
      subtotal: '250.25',
      total: '250.25',
    });
  });

  it('a receipt states currency and amount_paid only', async () => {
    expect(await totalsOf(body('receipt', { ...RECEIPT_FIELDS, currency: 'JPY', amount: '5000' }))).toEqual({
      currency: 'JPY',
      amount_paid: '5000',
    });
  });
});
