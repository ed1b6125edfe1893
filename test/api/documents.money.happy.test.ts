import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { makeDocument } from '../support/documents.ts';
import { INVOICE_FIELDS, post, QUOTE_FIELDS } from '../support/requests.ts';

/**
 * Money arithmetic exact to the minor unit at the largest figures the contract allows (spec 2.3: 10 integer and
 * 4 fraction digits per number, up to 50 lines), checked against integer arithmetic on BigInt, an oracle that
 * shares no code with the service.
 */
let app: TestApp;
let caller: Caller;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app);
});

/** A decimal as an integer count of 10^-scale units. */
interface Fixed {
  units: bigint;
  scale: number;
}

function fixed(text: string): Fixed {
  const negative = text.startsWith('-');
  const [integer = '', fraction = ''] = text.replace('-', '').replace(/,/g, '').split('.');
  const units = BigInt(`${integer}${fraction}` || '0');
  return { units: negative ? -units : units, scale: fraction.length };
}

const times = (a: Fixed, b: Fixed): Fixed => ({ units: a.units * b.units, scale: a.scale + b.scale });
const rescale = (a: Fixed, scale: number): bigint => a.units * 10n ** BigInt(scale - a.scale);

/** Rounds half away from zero to `digits` fraction digits (the rule of spec 2.3 and the templates' rules). */
function round(a: Fixed, digits: number): Fixed {
  if (a.scale <= digits) return { units: rescale(a, digits), scale: digits };
  const divisor = 10n ** BigInt(a.scale - digits);
  const magnitude = a.units < 0n ? -a.units : a.units;
  const rounded = (magnitude + divisor / 2n) / divisor;
  return { units: a.units < 0n ? -rounded : rounded, scale: digits };
}

const plus = (a: Fixed, b: Fixed): Fixed => {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
};
const minus = (a: Fixed, b: Fixed): Fixed => plus(a, { units: -b.units, scale: b.scale });
/** rate % of an amount, before rounding. */
const percentOf = (amount: Fixed, rate: Fixed): Fixed => ({ units: amount.units * rate.units, scale: amount.scale + rate.scale + 2 });

function text(a: Fixed): string {
  const magnitude = (a.units < 0n ? -a.units : a.units).toString().padStart(a.scale + 1, '0');
  const integer = magnitude.slice(0, magnitude.length - a.scale);
  const fraction = a.scale ? `.${magnitude.slice(magnitude.length - a.scale)}` : '';
  return `${a.units < 0n ? '-' : ''}${integer}${fraction}`;
}

async function totalsOf(body: unknown) {
  const response = await post(app, '/api/v1/documents/validate', caller.headers, body);
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer.totals as Record<string, string>;
}

describe('quote: products and sums beyond 20 significant digits', () => {
  const { amount: _, ...QUOTE_WITHOUT_AMOUNT } = QUOTE_FIELDS;
  const quote = (currency: string, items: { quantity: string; unit_price: string }[]) => ({
    template: 'quote',
    mode: 'preview',
    fields: { ...QUOTE_WITHOUT_AMOUNT, currency, items: items.map((item, i) => ({ description: `Line ${i + 1}`, ...item })) },
  });

  it('the largest quantity times the largest unit price, less a credit of one minor unit', async () => {
    const totals = await totalsOf(
      quote('EUR', [
        { quantity: '9999999999.9999', unit_price: '9999999999.9999' },
        { quantity: '-1', unit_price: '0.01' },
      ]),
    );
    // 99,999,999,999,998,000,000.00000001 rounds to …000.00; less 0.01.
    expect(totals).toEqual({ currency: 'EUR', subtotal: '99999999999997999999.99', total: '99999999999997999999.99' });
  });

  it.each([
    ['EUR', 2],
    ['KWD', 3],
    ['JPY', 0],
  ])('a product that is not round at the minor unit (%s)', async (currency, digits) => {
    const line = { quantity: '1234567890.1234', unit_price: '9876543210.9876' };
    const expected = text(round(times(fixed(line.quantity), fixed(line.unit_price)), digits));
    expect(expected).toBe({ EUR: '12193263113701551580.40', KWD: '12193263113701551580.400', JPY: '12193263113701551580' }[currency]);
    expect(await totalsOf(quote(currency, [line]))).toEqual({ currency, subtotal: expected, total: expected });
  });

  it('50 lines of large products with credit lines, summed exactly to the minor unit', async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({
      quantity: `${i % 7 === 3 ? '-' : ''}${9876543210 - i * 104729}.${String((1234 + i * 379) % 10000).padStart(4, '0')}`,
      unit_price: `${1234567890 + i * 7919}.${String((9876 - i * 131 + 10000) % 10000).padStart(4, '0')}`,
    }));
    const subtotal = items.reduce((sum, item) => plus(sum, round(times(fixed(item.quantity), fixed(item.unit_price)), 2)), fixed('0.00'));
    const response = await makeDocument(app, caller, quote('USD', items));
    expect(response.status).toBe(201);
    expect(response.headers.get('Svc-Totals-Subtotal')).toBe(text(subtotal));
    expect(response.headers.get('Svc-Totals-Total')).toBe(text(subtotal));
  });
});

describe('invoice: 50 lines with a percentage discount and a tax line, exact to the minor unit', () => {
  it.each([
    ['EUR', 2],
    ['KWD', 3],
    ['JPY', 0],
  ])('%s', async (currency, digits) => {
    const items = Array.from({ length: 50 }, (_, i) => ({
      description: `Line ${i + 1}`,
      quantity: `${i % 9 === 4 ? '-' : ''}${987654 + i * 1031}.${String((4321 + i * 977) % 10000).padStart(4, '0')}`,
      unit_price: `${12345 + i * 97}.${String((6789 + i * 313) % 10000).padStart(4, '0')}`,
    }));
    const discountRate = fixed('12.3456');
    const taxRate = fixed('19.9999');
    const subtotal = items.reduce(
      (sum, item) => plus(sum, round(times(fixed(item.quantity), fixed(item.unit_price)), digits)),
      round(fixed('0'), digits),
    );
    const discount = round(percentOf(subtotal, discountRate), digits);
    const afterDiscount = minus(subtotal, discount);
    const tax = round(percentOf(afterDiscount, taxRate), digits);
    const total = plus(afterDiscount, tax);
    const paid = round(fixed('1000000'), digits);

    const totals = await totalsOf({
      template: 'invoice',
      mode: 'final',
      fields: { ...INVOICE_FIELDS, currency, items, discount: '12.3456%', tax_rate: '19.9999', amount_paid: '1000000' },
    });
    expect(totals).toEqual({
      currency,
      subtotal: text(subtotal),
      discount: text(discount),
      tax: text(tax),
      total: text(total),
      amount_paid: text(paid),
      balance_due: text(minus(total, paid)),
    });
  });
});
