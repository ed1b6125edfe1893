import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ERRORS } from '../../src/contract/errors.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { body, INVOICE_FIELDS, post, QUOTE_FIELDS, RECEIPT_FIELDS } from '../support/requests.ts';

let app: TestApp;
let caller: Caller;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app);
});

const BASE_FIELDS = { invoice: INVOICE_FIELDS, quote: QUOTE_FIELDS, receipt: RECEIPT_FIELDS } as const;
type Slug = keyof typeof BASE_FIELDS;

const validate = (payload: unknown, headers: Record<string, string> = {}) =>
  post(app, '/api/v1/documents/validate', { ...caller.headers, ...headers }, payload);

/** Fields of a template with some names replaced; `undefined` removes a name. */
function fieldsWith(slug: Slug, patch: Record<string, unknown>) {
  const fields: Record<string, unknown> = { ...BASE_FIELDS[slug], ...patch };
  for (const [name, value] of Object.entries(patch)) if (value === undefined) delete fields[name];
  return fields;
}

async function detailsOf(response: Response, status: number, code: string) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const parsed = JSON.parse(text);
  expect(parsed.error.code).toBe(code);
  expect(parsed.credit_used).toBe(false);
  return parsed.error.details as { code: string; field?: string; message: string }[];
}

const item = (quantity: unknown, unit_price: unknown, description: unknown = 'Line') => ({ description, quantity, unit_price });
const manyItems = (n: number) => Array.from({ length: n }, (_, i) => item('1', '1.00', `Line ${i}`));

const INVALID: [string, Slug, Record<string, unknown>, string, string][] = [
  // text
  ['text over 200 code points', 'invoice', { seller_name: 'x'.repeat(201) }, 'too_long', 'fields.seller_name'],
  ['text with a line break', 'invoice', { seller_name: 'A\nB' }, 'line_break_not_allowed', 'fields.seller_name'],
  ['text with CR', 'invoice', { client_name: 'A\rB' }, 'line_break_not_allowed', 'fields.client_name'],
  ['text with U+202E', 'invoice', { seller_name: 'A\u202eB' }, 'invalid_characters', 'fields.seller_name'],
  ['text with U+2066', 'invoice', { seller_name: 'A\u2066B' }, 'invalid_characters', 'fields.seller_name'],
  ['text with U+FEFF', 'invoice', { seller_name: '\ufeffA' }, 'invalid_characters', 'fields.seller_name'],
  ['text with U+200B', 'invoice', { seller_name: 'A\u200bB' }, 'invalid_characters', 'fields.seller_name'],
  ['text with NUL', 'invoice', { seller_name: 'A\u0000B' }, 'invalid_characters', 'fields.seller_name'],
  ['text as a decimal number', 'invoice', { invoice_number: 1.5 }, 'wrong_type', 'fields.invoice_number'],
  ['text as a boolean', 'invoice', { invoice_number: true }, 'wrong_type', 'fields.invoice_number'],
  ['text as an object', 'invoice', { po_number: { a: 1 } }, 'wrong_type', 'fields.po_number'],
  ['required text missing', 'invoice', { seller_name: undefined }, 'required', 'fields.seller_name'],
  ['required text null', 'invoice', { seller_name: null }, 'required', 'fields.seller_name'],
  ['required text blank', 'invoice', { seller_name: '   ' }, 'required', 'fields.seller_name'],
  // multiline
  ['multiline over 2,000', 'invoice', { notes: 'x'.repeat(2001) }, 'too_long', 'fields.notes'],
  ['multiline with a lone CR', 'invoice', { notes: 'a\rb' }, 'invalid_characters', 'fields.notes'],
  ['multiline with U+2028', 'invoice', { notes: 'a\u2028b' }, 'invalid_characters', 'fields.notes'],
  ['multiline as a number', 'invoice', { notes: 5 }, 'wrong_type', 'fields.notes'],
  // date
  ['date 30 February', 'invoice', { date: '2026-02-30' }, 'invalid_date', 'fields.date'],
  ['date 29 February of a common year', 'invoice', { due_date: '2026-02-29' }, 'invalid_date', 'fields.due_date'],
  ['date month 13', 'invoice', { date: '2026-13-01' }, 'invalid_date', 'fields.date'],
  ['date in another form', 'invoice', { date: '01/10/2026' }, 'invalid_date', 'fields.date'],
  ['date with a time', 'invoice', { date: '2026-10-01T00:00:00Z' }, 'invalid_date', 'fields.date'],
  ['date as a number', 'invoice', { date: 20261001 }, 'wrong_type', 'fields.date'],
  // enum and boolean
  ['enum in the wrong case', 'invoice', { tax_rate: '20', tax_label: 'vat' }, 'not_one_of', 'fields.tax_label'],
  ['enum not listed', 'quote', { document_title: 'Proposal' }, 'not_one_of', 'fields.document_title'],
  ['boolean as a string', 'quote', { show_acceptance: 'true' }, 'wrong_type', 'fields.show_acceptance'],
  // currency
  ['currency in lower case', 'invoice', { currency: 'eur' }, 'unsupported_currency', 'fields.currency'],
  ['currency symbol', 'invoice', { currency: '€' }, 'unsupported_currency', 'fields.currency'],
  ['fund code', 'invoice', { currency: 'BOV' }, 'unsupported_currency', 'fields.currency'],
  ['code without minor unit', 'invoice', { currency: 'XAU' }, 'unsupported_currency', 'fields.currency'],
  ['withdrawn code', 'invoice', { currency: 'HRK' }, 'unsupported_currency', 'fields.currency'],
  ['currency as a number', 'invoice', { currency: 978 }, 'wrong_type', 'fields.currency'],
  // money
  ['negative money', 'invoice', { amount_paid: '-1' }, 'out_of_range', 'fields.amount_paid'],
  ['money with more decimals than EUR', 'invoice', { amount_paid: '1.001' }, 'too_many_decimals', 'fields.amount_paid'],
  ['money with decimals in JPY', 'receipt', { currency: 'JPY', amount: '100.5' }, 'too_many_decimals', 'fields.amount'],
  ['money with 4 decimals in KWD', 'receipt', { currency: 'KWD', amount: '1.0005' }, 'too_many_decimals', 'fields.amount'],
  ['money that is not a number', 'receipt', { amount: 'ten' }, 'not_a_number', 'fields.amount'],
  ['money with 11 integer digits', 'receipt', { amount: '12345678901' }, 'too_many_digits', 'fields.amount'],
  ['money as a huge JSON number', 'receipt', { amount: 1e300 }, 'too_many_digits', 'fields.amount'],
  ['money with a currency sign', 'receipt', { amount: '€10' }, 'not_a_number', 'fields.amount'],
  // percent
  ['percent above 100', 'invoice', { tax_rate: '100.5%' }, 'out_of_range', 'fields.tax_rate'],
  ['negative percent', 'invoice', { tax_rate: '-5' }, 'out_of_range', 'fields.tax_rate'],
  ['percent with 5 decimals', 'invoice', { tax_rate: '7.12345' }, 'too_many_digits', 'fields.tax_rate'],
  ['percent as a number', 'invoice', { tax_rate: 20 }, 'wrong_type', 'fields.tax_rate'],
  ['percent that is not a number', 'invoice', { tax_rate: 'twenty%' }, 'not_a_number', 'fields.tax_rate'],
  // discount
  ['discount percentage above 100', 'invoice', { discount: '150%' }, 'out_of_range', 'fields.discount'],
  ['negative discount amount', 'invoice', { discount: '-5' }, 'out_of_range', 'fields.discount'],
  ['discount amount with 3 decimals in EUR', 'invoice', { discount: '5.125' }, 'too_many_decimals', 'fields.discount'],
  ['discount as a number', 'invoice', { discount: 5 }, 'wrong_type', 'fields.discount'],
  // decimal (line items)
  ['quantity with misplaced commas', 'invoice', { items: [item('1,25', '1')] }, 'not_a_number', 'fields.items[0].quantity'],
  ['quantity with spaces', 'invoice', { items: [item(' 1', '1')] }, 'not_a_number', 'fields.items[0].quantity'],
  ['quantity in exponent text', 'invoice', { items: [item('1e3', '1')] }, 'not_a_number', 'fields.items[0].quantity'],
  ['unit price with 5 decimals', 'invoice', { items: [item('1', '0.00001')] }, 'too_many_digits', 'fields.items[0].unit_price'],
  [
    'unit price with 11 digits and commas',
    'invoice',
    { items: [item('1', '12,345,678,901')] },
    'too_many_digits',
    'fields.items[0].unit_price',
  ],
  ['unit price as a boolean', 'invoice', { items: [item('1', false)] }, 'wrong_type', 'fields.items[0].unit_price'],
  [
    'a second item without quantity',
    'invoice',
    { items: [item('1', '1'), { description: 'x', unit_price: '1' }] },
    'required',
    'fields.items[1].quantity',
  ],
  ['a line item with another name', 'invoice', { items: [{ ...item('1', '1'), price: '2' }] }, 'unknown_field', 'fields.items[0].price'],
  ['a line item that is not an object', 'invoice', { items: ['x'] }, 'wrong_type', 'fields.items[0]'],
  ['a description over 200', 'invoice', { items: [item('1', '1', 'd'.repeat(201))] }, 'too_long', 'fields.items[0].description'],
  ['items as a number', 'invoice', { items: 3 }, 'wrong_type', 'fields.items'],
  ['no line items', 'invoice', { items: [] }, 'no_items', 'fields.items'],
  ['51 line items', 'invoice', { items: manyItems(51) }, 'too_many_items', 'fields.items'],
  ['51 lines of text', 'invoice', { items: Array.from({ length: 51 }, () => 'A | 1 | 1').join('\n') }, 'too_many_items', 'fields.items'],
  ['text items over 12,000', 'invoice', { items: `${'d'.repeat(12_000)} | 1 | 1` }, 'too_long', 'fields.items'],
  ['a text line without a price', 'invoice', { items: 'A | 1 | 1\nB | 2' }, 'required', 'fields.items[1]'],
  ['a text line with a bad quantity', 'invoice', { items: 'A | x | 1' }, 'not_a_number', 'fields.items[0].quantity'],
  ['a text line with a blank price', 'invoice', { items: 'A | 1 | ' }, 'required', 'fields.items[0].unit_price'],
  ['quote with an empty items list', 'quote', { amount: undefined, items: [] }, 'no_items', 'fields.items'],
  // url
  ['http link', 'invoice', { payment_link: 'http://pay.example.com' }, 'invalid_url', 'fields.payment_link'],
  ['javascript link', 'invoice', { payment_link: 'javascript:alert(1)' }, 'invalid_url', 'fields.payment_link'],
  ['data link', 'invoice', { payment_link: 'data:text/html,x' }, 'invalid_url', 'fields.payment_link'],
  ['mailto link', 'invoice', { payment_link: 'mailto:a@b.c' }, 'invalid_url', 'fields.payment_link'],
  ['link with user and password', 'invoice', { payment_link: 'https://u:p@pay.example.com' }, 'invalid_url', 'fields.payment_link'],
  ['link with a space', 'invoice', { payment_link: 'https://pay.example.com/a b' }, 'invalid_url', 'fields.payment_link'],
  ['link with non-ASCII', 'invoice', { payment_link: 'https://päy.example.com' }, 'invalid_url', 'fields.payment_link'],
  ['link over 300', 'invoice', { payment_link: `https://pay.example.com/${'a'.repeat(280)}` }, 'invalid_url', 'fields.payment_link'],
  [
    'link with a backslash host trick',
    'invoice',
    { payment_link: 'https://evil.example\\@pay.example.com' },
    'invalid_url',
    'fields.payment_link',
  ],
  ['link with no host', 'invoice', { payment_link: 'https:///path' }, 'invalid_url', 'fields.payment_link'],
  // cross-field
  ['negative subtotal', 'invoice', { items: [item('-1', '10')] }, 'negative_total', 'fields.items'],
  ['subtotal of 10^15', 'invoice', { items: [item('100001', '9999999999')] }, 'total_too_large', 'fields.items'],
  ['discount above the subtotal', 'invoice', { discount: '100.01' }, 'discount_too_large', 'fields.discount'],
  ['amount paid above the total', 'invoice', { amount_paid: '100.01' }, 'amount_paid_too_large', 'fields.amount_paid'],
  ['tax label without tax rate', 'invoice', { tax_label: 'VAT' }, 'requires_field', 'fields.tax_label'],
  ['quote with items and amount', 'quote', { items: [item('1', '1')] }, 'items_or_amount', 'fields.amount'],
  ['quote with neither items nor amount', 'quote', { amount: undefined }, 'items_or_amount', 'fields'],
  ['receipt amount of 0', 'receipt', { amount: '0.00' }, 'must_be_positive', 'fields.amount'],
  [
    'receipt with both invoice names',
    'receipt',
    { related_document: 'INV-1', invoice_reference: 'INV-1' },
    'conflicting_fields',
    'fields.invoice_reference',
  ],
  ['a field the template lacks', 'receipt', { due_date: '2026-10-01' }, 'unknown_field', 'fields.due_date'],
  [
    'an IBAN whose check fails',
    'invoice',
    { payment_code: 'sepa', payee_iban: 'DE89370400440532013001' },
    'invalid_iban',
    'fields.payee_iban',
  ],
  ['a BIC of 9 characters', 'invoice', { payee_bic: 'COBADEFFX' }, 'invalid_bic', 'fields.payee_bic'],
  [
    'an RF reference whose check fails',
    'invoice',
    { creditor_reference: 'RF19539007547034' },
    'invalid_creditor_reference',
    'fields.creditor_reference',
  ],
  ['a UPI id without a provider', 'invoice', { upi_id: 'shop' }, 'invalid_upi_id', 'fields.upi_id'],
  ['a PIX key that is none', 'invoice', { pix_key: '12345' }, 'invalid_pix_key', 'fields.pix_key'],
  [
    'a sepa code in US dollars',
    'invoice',
    { currency: 'USD', payment_code: 'sepa', payee_iban: 'DE89370400440532013000' },
    'payment_code_currency',
    'fields.payment_code',
  ],
  [
    'a sepa code above what EPC carries',
    'invoice',
    { payment_code: 'sepa', payee_iban: 'DE89370400440532013000', items: [item('1', '1000000000')] },
    'payment_code_amount',
    'fields.payment_code',
  ],
  [
    'a pix payee of 26 characters',
    'invoice',
    { currency: 'BRL', payment_code: 'pix', pix_key: '+5581987654321', pix_city: 'Recife', seller_name: 'S'.repeat(26) },
    'too_long_for_payment_code',
    'fields.seller_name',
  ],
  [
    'a QR reference whose check digit is wrong',
    'invoice',
    { qr_reference: '210000000003139471430009018' },
    'invalid_qr_reference',
    'fields.qr_reference',
  ],
  ['a country of a letter and a digit', 'invoice', { payee_country: 'C1' }, 'invalid_country', 'fields.payee_country'],
  [
    'a Swiss QR-bill on a German IBAN',
    'invoice',
    {
      currency: 'CHF',
      payment_code: 'swiss_qr_bill',
      payee_iban: 'DE89370400440532013000',
      payee_postal_code: '2501',
      payee_town: 'Biel',
      payee_country: 'CH',
    },
    'payment_code_account',
    'fields.payee_iban',
  ],
  [
    'a Swiss QR-bill payee in Greek',
    'invoice',
    {
      currency: 'CHF',
      payment_code: 'swiss_qr_bill',
      payee_iban: 'CH9300762011623852957',
      payee_postal_code: '2501',
      payee_town: 'Biel',
      payee_country: 'CH',
      seller_name: 'Ελβετική εταιρεία',
    },
    'payment_code_characters',
    'fields.seller_name',
  ],
  ['65 field names', 'invoice', Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, 'x'])), 'too_many_fields', 'fields'],
];

describe('422 validation_failed: every value type and cross-field rule', () => {
  it.each(INVALID)('%s → %s', async (_, slug, patch, code, field) => {
    const details = await detailsOf(await validate(body(slug, fieldsWith(slug, patch))), 422, 'validation_failed');
    expect(details).toContainEqual(expect.objectContaining({ code, field }));
  });

  it('produces every validation_failed detail code of section 7 in the table above', () => {
    const produced = new Set(INVALID.map(([, , , code]) => code));
    expect([...produced].sort()).toEqual(Object.keys(ERRORS.validation_failed.details).sort());
  });

  it('lists every problem at once, and counts those beyond the 50 details', async () => {
    const items = Array.from({ length: 50 }, () => item('x', 'y'));
    const details = await detailsOf(
      await validate(body('invoice', fieldsWith('invoice', { items, seller_name: undefined, date: 'x' }))),
      422,
      'validation_failed',
    );
    expect(details).toHaveLength(50);
    const parsed = await (await validate(body('invoice', fieldsWith('invoice', { items, seller_name: undefined, date: 'x' })))).json();
    expect(parsed.error.message).toMatch(/^102 problems were found/);
  });
});

const VALID: [string, Slug, Record<string, unknown>][] = [
  ['200 astral characters', 'invoice', { seller_name: '😀'.repeat(200) }],
  ['U+200C to U+200F', 'invoice', { seller_name: 'a\u200cb\u200dc\u200ed\u200f' }],
  ['a JSON integer as text, taken as its digits', 'invoice', { invoice_number: 123456789012345 }],
  ['markup characters', 'invoice', { seller_name: '<b>&amp;</b>' }],
  ['optional fields null or blank', 'invoice', { po_number: null, notes: '   ', due_date: '', payment_link: null }],
  ['multiline with CR LF', 'invoice', { notes: 'a\r\nb\nc' }],
  ['29 February of a leap year', 'invoice', { date: '2028-02-29' }],
  ['thousands separators', 'invoice', { items: [item('1,000', '1,250.50')] }],
  ['JSON numbers for quantity and price', 'invoice', { items: [item(2, 7.5)] }],
  ['a JSON number in exponent form', 'invoice', { items: [item(1e3, 0.5)] }],
  ['items as text with blank lines and pipes in the description', 'invoice', { items: '\n  A | b | 2 | 3.50  \n\n C|1|1 \n' }],
  ['a link with trailing spaces and an upper-case scheme', 'invoice', { payment_link: '  HTTPS://Pay.Example.com/x?a=1#f  ' }],
  ['a link with a port', 'invoice', { payment_link: 'https://pay.example.com:8443/i/1' }],
  ['percent with % and 4 decimals', 'invoice', { tax_rate: '7.1234%' }],
  ['percent 0 and 100', 'invoice', { tax_rate: '0', discount: '100%' }],
  [
    'quote with items, acceptance and credit lines below zero',
    'quote',
    { amount: undefined, items: [item('-2', '10')], show_acceptance: true },
  ],
  ['receipt with the deprecated alias', 'receipt', { invoice_reference: 'INV-9' }],
  ['KWD with 3 decimals', 'receipt', { currency: 'KWD', amount: '1.005' }],
  ['exactly 64 field names', 'invoice', {}],
];

describe('200 for values the contract accepts', () => {
  it.each(VALID)('%s', async (_, slug, patch) => {
    const response = await validate(body(slug, fieldsWith(slug, patch)));
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text).valid).toBe(true);
  });
});

describe('400 invalid_request: the top level (2.1)', () => {
  const base = body('invoice', INVOICE_FIELDS);
  it.each([
    ['a body that is not an object', [base], 'wrong_type', undefined],
    ['an unknown name', { ...base, api_key: 'x' }, 'unknown_parameter', 'api_key'],
    ['template missing', { mode: 'final', fields: {} }, 'required', 'template'],
    ['template blank', { ...base, template: ' ' }, 'required', 'template'],
    ['template not a string', { ...base, template: 5 }, 'wrong_type', 'template'],
    ['mode null', { ...base, mode: null }, 'required', 'mode'],
    ['mode in another case', { ...base, mode: 'Final' }, 'unsupported_value', 'mode'],
    ['fields missing', { template: 'invoice', mode: 'final' }, 'required', 'fields'],
    ['fields an array', { ...base, fields: [] }, 'wrong_type', 'fields'],
    ['paper null', { ...base, paper: null }, 'wrong_type', 'paper'],
    ['paper A4', { ...base, paper: 'A4' }, 'unsupported_value', 'paper'],
    ['locale de', { ...base, locale: 'de' }, 'unsupported_value', 'locale'],
    ['locale en-US', { ...base, locale: 'en-US' }, 'unsupported_value', 'locale'],
    ['locale null', { ...base, locale: null }, 'wrong_type', 'locale'],
    ['output PDF', { ...base, output: { format: 'PDF' } }, 'unsupported_value', 'output.format'],
    ['output without format', { ...base, output: {} }, 'unsupported_value', 'output.format'],
    ['output a string', { ...base, output: 'pdf' }, 'wrong_type', 'output'],
    ['output null', { ...base, output: null }, 'wrong_type', 'output'],
    ['template_version null', { ...base, template_version: null }, 'invalid_template_version', 'template_version'],
    ['template_version 2.0.0', { ...base, template_version: '2.0.0' }, 'invalid_template_version', 'template_version'],
    ['template_version v2', { ...base, template_version: 'v2' }, 'invalid_template_version', 'template_version'],
    ['reference null', { ...base, reference: null }, 'wrong_type', 'reference'],
    ['reference a number', { ...base, reference: 7 }, 'wrong_type', 'reference'],
    ['reference empty', { ...base, reference: '' }, 'invalid_reference', 'reference'],
    ['reference with a leading space', { ...base, reference: ' a' }, 'invalid_reference', 'reference'],
    ['reference with a trailing space', { ...base, reference: 'a ' }, 'invalid_reference', 'reference'],
    ['reference of 129', { ...base, reference: 'r'.repeat(129) }, 'invalid_reference', 'reference'],
    ['reference with non-ASCII', { ...base, reference: 'café' }, 'invalid_reference', 'reference'],
    ['reference with a tab', { ...base, reference: 'a\tb' }, 'invalid_reference', 'reference'],
  ])('%s → %s', async (_, payload, code, field) => {
    const details = await detailsOf(await validate(payload), 400, 'invalid_request');
    expect(details).toContainEqual(expect.objectContaining({ code, ...(field ? { field } : {}) }));
  });

  it('accepts output {format: pdf}, paper letter, locale en, a 128-character reference and the current major', async () => {
    const response = await validate({
      ...base,
      output: { format: 'pdf' },
      paper: 'letter',
      locale: 'en',
      reference: 'r'.repeat(128),
      template_version: '2',
    });
    expect(response.status).toBe(200);
  });
});

describe('400 reserved_field (2.2), returned alone', () => {
  it.each([
    ['callback_url at the top', { callback_url: 'https://x.example' }, {}, 'callback_url'],
    ['logo at the top', { logo: 'x' }, {}, 'logo'],
    ['metadata at the top', { metadata: {} }, {}, 'metadata'],
    ['a member of output', { output: { format: 'pdf', pdf_standard: 'A-3' } }, {}, 'output.pdf_standard'],
    ['output attachments', { output: { attachments: [] } }, {}, 'output.attachments'],
    ['output format pdf-a3', { output: { format: 'pdf-a3' } }, {}, 'output.format'],
    ['output format xml', { output: { format: 'xml' } }, {}, 'output.format'],
    ['fields.seller', {}, { seller: {} }, 'fields.seller'],
    ['fields.document', {}, { document: 'x' }, 'fields.document'],
    ['items[].tax', {}, { items: [{ ...item('1', '1'), tax: '20%' }] }, 'fields.items[0].tax'],
  ])('%s', async (_, top, fields, field) => {
    const payload = { ...body('invoice', fieldsWith('invoice', fields)), ...top };
    const details = await detailsOf(await validate(payload), 400, 'reserved_field');
    expect(details).toEqual([expect.objectContaining({ code: 'reserved', field })]);
  });

  it('wins over every other problem in the same body', async () => {
    const payload = { template: 'nope', mode: 'x', fields: { seller: 1, date: 'bad' }, unknown_name: 1, paper: 'A5' };
    const details = await detailsOf(await validate(payload), 400, 'reserved_field');
    expect(details).toEqual([expect.objectContaining({ code: 'reserved', field: 'fields.seller' })]);
  });
});

describe('a message counts the problems it has, it does not list them', () => {
  /** Section 7: details hold at most 50 entries and the message counts all problems. */
  async function expectCounted(response: Response, status: number, code: string, count: number) {
    const text = await response.text();
    expect(response.status, text.slice(0, 300)).toBe(status);
    const parsed = JSON.parse(text);
    expect(parsed.error.code).toBe(code);
    expect(parsed.error.details).toHaveLength(50);
    expect(parsed.error.message).toMatch(new RegExp(`^${count} `));
    expect(parsed.error.message.length).toBeLessThan(200);
    expect(text.length).toBeLessThan(8_000);
  }

  it('14,000 unknown top-level names', async () => {
    const names = Object.fromEntries(Array.from({ length: 14_000 }, (_, i) => [i.toString(36), 0]));
    await expectCounted(await validate({ ...body('invoice', INVOICE_FIELDS), ...names }), 400, 'invalid_request', 14_000);
  });

  it('10,000 reserved members of output', async () => {
    const output = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`o${i}`, 0]));
    await expectCounted(await validate({ ...body('invoice', INVOICE_FIELDS), output }), 400, 'reserved_field', 10_000);
  });

  it('10,000 line items carrying the reserved tax', async () => {
    const items = Array.from({ length: 10_000 }, () => ({ tax: 0 }));
    await expectCounted(await validate(body('invoice', fieldsWith('invoice', { items }))), 400, 'reserved_field', 10_000);
  });
});

describe('404 and 409 before the fields', () => {
  it('answers template_not_found for an unknown slug in the body', async () => {
    await detailsOf(await validate(body('letter', {})), 404, 'template_not_found');
  });

  it('answers template_version_unavailable / major_mismatch for another major', async () => {
    const details = await detailsOf(
      await validate({ ...body('invoice', INVOICE_FIELDS), template_version: '1' }),
      409,
      'template_version_unavailable',
    );
    expect(details).toEqual([expect.objectContaining({ code: 'major_mismatch' })]);
    expect((await validate({ ...body('quote', QUOTE_FIELDS), template_version: '1' })).status).toBe(200);
    expect((await validate({ ...body('invoice', INVOICE_FIELDS), template_version: 2 })).status).toBe(200);
  });
});

describe('reading the body', () => {
  it.each([undefined, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonp'])(
    'answers 415 unsupported_media_type for Content-Type %s',
    async (type) => {
      const response = await app.call('/api/v1/documents/validate', {
        method: 'POST',
        headers: { ...caller.headers, ...(type ? { 'Content-Type': type } : {}) },
        body: JSON.stringify(body('invoice', INVOICE_FIELDS)),
      });
      await detailsOf(response, 415, 'unsupported_media_type');
    },
  );

  it('accepts Content-Type parameters and any case', async () => {
    const response = await post(
      app,
      '/api/v1/documents/validate',
      caller.headers,
      body('invoice', INVOICE_FIELDS),
      'Application/JSON; charset=utf-8',
    );
    expect(response.status).toBe(200);
  });

  it('answers 413 payload_too_large over 131,072 bytes, with Content-Length', async () => {
    const big = JSON.stringify({ ...body('invoice', INVOICE_FIELDS), pad: 'x'.repeat(131_072) });
    await detailsOf(await validate(big), 413, 'payload_too_large');
  });

  it('answers 413 to a 400 KB body without Content-Length, reading no more than the limit', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x20));
        if (pulled > 400_000) controller.close();
      },
    });
    const response = await app.call('/api/v1/documents/validate', {
      method: 'POST',
      headers: { ...caller.headers, 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await detailsOf(response, 413, 'payload_too_large');
    // In-process the handler pulls the stream itself; over HTTP the client's socket decides how much it sends.
    if (inject('apiTarget').kind === 'inprocess') expect(pulled).toBeLessThanOrEqual(131_072 + 3 * 16_384);
  });

  it.each([
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
    ['a repeated name', '{"template":"invoice","mode":"final","mode":"preview","fields":{}}'],
    ['a repeated name in fields', '{"template":"invoice","mode":"final","fields":{"currency":"EUR","currency":"USD"}}'],
    ['a trailing comma', '{"template":"invoice",}'],
    ['an empty body', ''],
    ['JSON nested 100,000 deep', '['.repeat(100_000)],
  ])('answers 400 malformed_json for %s', async (_, payload) => {
    const details = await detailsOf(await validate(payload), 400, 'invalid_request');
    expect(details).toEqual([expect.objectContaining({ code: 'malformed_json' })]);
  });

  it('ignores Idempotency-Key on the validate route, even an invalid one', async () => {
    const response = await validate(body('invoice', INVOICE_FIELDS), { 'Idempotency-Key': 'k'.repeat(300) });
    expect(response.status).toBe(200);
  });

  it('needs a key, any valid key', async () => {
    const response = await app.call('/api/v1/documents/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body('invoice', INVOICE_FIELDS)),
    });
    expect(response.status).toBe(401);
    const preview = await seedCaller(app, { kind: 'preview' });
    expect(
      (await post(app, '/api/v1/documents/validate', preview.headers, { ...body('invoice', INVOICE_FIELDS), mode: 'final' })).status,
    ).toBe(200);
  });
});
