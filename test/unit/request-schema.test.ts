import type { ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { REQUEST_PARAMETERS } from '../../src/documents/parameters.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { publishedSchemaValidator } from '../support/openapi.ts';
import { INVOICE_FIELDS, post, QUOTE_FIELDS, RECEIPT_FIELDS } from '../support/requests.ts';

/**
 * The request body published in the OpenAPI document and the validator that answers POST /api/v1/documents
 * agree: on every body below the published JSON Schema accepts exactly when the service does. The rules a
 * JSON Schema cannot state are listed apart, each with the answer the service gives while the schema accepts,
 * so that a drift either way fails here.
 */

let app: TestApp;
let caller: Caller;
let openApi: { components: { schemas: Record<string, any> } } & Record<string, any>;
let published: Record<string, any>;
let schemaAccepts: ValidateFunction;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app);
  openApi = await (await app.call('/api/v1/openapi.json')).json();
  published = openApi.paths['/api/v1/documents/validate'].post.requestBody.content['application/json'].schema;
  schemaAccepts = publishedSchemaValidator(openApi, published);
});

/** The service's answer in short: `valid`, or the error code and the first detail code. */
async function serviceAnswer(body: Body): Promise<string> {
  const response = await post(app, '/api/v1/documents/validate', caller.headers, body);
  const answer = await response.json();
  if (response.status === 200) return 'valid';
  const detail = answer.error.details?.[0]?.code;
  return detail ? `${answer.error.code}/${detail}` : answer.error.code;
}

const parse = (body: Body): unknown => (typeof body === 'string' ? JSON.parse(body) : body);

/** A body as a JSON value, or as JSON text where a number must keep its written form (1e3, 2.0, -0). */
type Body = Record<string, unknown> | unknown[] | string;
type Row = [label: string, body: Body, answer: string];

const INVOICE = { template: 'invoice', mode: 'preview', fields: INVOICE_FIELDS };
const QUOTE = { template: 'quote', mode: 'preview', fields: QUOTE_FIELDS };
const RECEIPT = { template: 'receipt', mode: 'preview', fields: RECEIPT_FIELDS };

/** The body with top-level members replaced; `undefined` leaves a member out. */
const withTop = (patch: Record<string, unknown>, base: Record<string, unknown> = INVOICE) => ({ ...base, ...patch });
/** The body with one top-level member written as raw JSON text. */
const withRaw = (name: string, json: string, base: Record<string, unknown> = INVOICE) =>
  `${JSON.stringify({ ...base, [name]: undefined }).slice(0, -1)},${JSON.stringify(name)}:${json}}`;
/** The body with fields replaced; `undefined` leaves a field out. */
const withFields = (patch: Record<string, unknown>, base: { fields: Record<string, unknown> } & Record<string, unknown> = INVOICE) => ({
  ...base,
  fields: JSON.parse(JSON.stringify({ ...base.fields, ...patch })),
});
const item = (quantity: unknown, unit_price: unknown, description = 'Line') => ({ description, quantity, unit_price });

/** Where schema and service agree, by top-level parameter: every parameter of the request has its rows. */
const AGREED: Record<keyof typeof REQUEST_PARAMETERS | 'the body', Row[]> = {
  'the body': [
    ['an invoice', INVOICE, 'valid'],
    ['a quote', QUOTE, 'valid'],
    ['a receipt', RECEIPT, 'valid'],
    [
      'every optional parameter in a valid form',
      withTop({ template_version: '2', reference: 'r'.repeat(128), paper: 'letter', locale: 'en', output: { format: 'pdf' } }),
      'valid',
    ],
    ['an array', [INVOICE], 'invalid_request/wrong_type'],
    ['an unknown name', withTop({ api_key: 'x' }), 'invalid_request/unknown_parameter'],
    ['a reserved name', withTop({ logo: 'x' }), 'reserved_field/reserved'],
    ['another reserved name', withTop({ metadata: {} }), 'reserved_field/reserved'],
  ],
  template: [
    ['missing', withTop({ template: undefined }), 'invalid_request/required'],
    ['null', withTop({ template: null }), 'invalid_request/required'],
    ['blank', withTop({ template: ' ' }), 'invalid_request/required'],
    ['a number', withTop({ template: 5 }), 'invalid_request/wrong_type'],
    ['no such template', withTop({ template: 'letter' }), 'template_not_found'],
    ["another template's fields", withTop({ template: 'receipt' }), 'validation_failed/unknown_field'],
  ],
  mode: [
    ['final', withTop({ mode: 'final' }), 'valid'],
    ['missing', withTop({ mode: undefined }), 'invalid_request/required'],
    ['null', withTop({ mode: null }), 'invalid_request/required'],
    ['in another case', withTop({ mode: 'Final' }), 'invalid_request/unsupported_value'],
    ['a number', withTop({ mode: 1 }), 'invalid_request/wrong_type'],
  ],
  fields: [
    ['missing', withTop({ fields: undefined }), 'invalid_request/required'],
    ['blank', withTop({ fields: ' ' }), 'invalid_request/required'],
    ['an array', withTop({ fields: [] }), 'invalid_request/wrong_type'],
    ['a string', withTop({ fields: 'x' }), 'invalid_request/wrong_type'],
    ['empty', withTop({ fields: {} }), 'validation_failed/required'],
  ],
  template_version: [
    ['"2"', withTop({ template_version: '2' }), 'valid'],
    ['2', withTop({ template_version: 2 }), 'valid'],
    ['"02"', withTop({ template_version: '02' }), 'valid'],
    ['nine digits', withTop({ template_version: '000000002' }), 'valid'],
    ['"1" on the quote, at major 1', withTop({ template_version: '1' }, QUOTE), 'valid'],
    ['1 on the quote', withTop({ template_version: 1 }, QUOTE), 'valid'],
    ['ten digits', withTop({ template_version: '0000000002' }), 'invalid_request/invalid_template_version'],
    ['a ten-digit number', withTop({ template_version: 1_000_000_000 }), 'invalid_request/invalid_template_version'],
    ['"abc"', withTop({ template_version: 'abc' }), 'invalid_request/invalid_template_version'],
    ['empty', withTop({ template_version: '' }), 'invalid_request/invalid_template_version'],
    ['"2.0.0"', withTop({ template_version: '2.0.0' }), 'invalid_request/invalid_template_version'],
    ['"v2"', withTop({ template_version: 'v2' }), 'invalid_request/invalid_template_version'],
    ['" 2"', withTop({ template_version: ' 2' }), 'invalid_request/invalid_template_version'],
    ['-2', withTop({ template_version: -2 }), 'invalid_request/invalid_template_version'],
    ['1.5', withTop({ template_version: 1.5 }), 'invalid_request/invalid_template_version'],
    ['null', withTop({ template_version: null }), 'invalid_request/invalid_template_version'],
    ['true', withTop({ template_version: true }), 'invalid_request/invalid_template_version'],
    ['an array', withTop({ template_version: ['2'] }), 'invalid_request/invalid_template_version'],
  ],
  reference: [
    ['one character', withTop({ reference: 'a' }), 'valid'],
    ['128 characters', withTop({ reference: 'r'.repeat(128) }), 'valid'],
    ['inner spaces and punctuation', withTop({ reference: 'PO 7/A ~x' }), 'valid'],
    ['empty', withTop({ reference: '' }), 'invalid_request/invalid_reference'],
    ['129 characters', withTop({ reference: 'r'.repeat(129) }), 'invalid_request/invalid_reference'],
    ['a leading space', withTop({ reference: ' a' }), 'invalid_request/invalid_reference'],
    ['a trailing space', withTop({ reference: 'a ' }), 'invalid_request/invalid_reference'],
    ['only a space', withTop({ reference: ' ' }), 'invalid_request/invalid_reference'],
    ['a tab', withTop({ reference: 'a\tb' }), 'invalid_request/invalid_reference'],
    ['DEL', withTop({ reference: 'a\u007f' }), 'invalid_request/invalid_reference'],
    ['non-ASCII', withTop({ reference: 'café' }), 'invalid_request/invalid_reference'],
    ['null', withTop({ reference: null }), 'invalid_request/wrong_type'],
    ['a number', withTop({ reference: 7 }), 'invalid_request/wrong_type'],
  ],
  paper: [
    ['a4', withTop({ paper: 'a4' }), 'valid'],
    ['letter', withTop({ paper: 'letter' }), 'valid'],
    ['A4', withTop({ paper: 'A4' }), 'invalid_request/unsupported_value'],
    ['a5', withTop({ paper: 'a5' }), 'invalid_request/unsupported_value'],
    ['null', withTop({ paper: null }), 'invalid_request/wrong_type'],
    ['a number', withTop({ paper: 4 }), 'invalid_request/wrong_type'],
  ],
  locale: [
    ['en', withTop({ locale: 'en' }), 'valid'],
    ['de', withTop({ locale: 'de' }), 'invalid_request/unsupported_value'],
    ['en-US', withTop({ locale: 'en-US' }), 'invalid_request/unsupported_value'],
    ['null', withTop({ locale: null }), 'invalid_request/wrong_type'],
  ],
  output: [
    ['{format: pdf}', withTop({ output: { format: 'pdf' } }), 'valid'],
    ['{format: PDF}', withTop({ output: { format: 'PDF' } }), 'invalid_request/unsupported_value'],
    ['without format', withTop({ output: {} }), 'invalid_request/unsupported_value'],
    ['format null', withTop({ output: { format: null } }), 'invalid_request/unsupported_value'],
    ['a string', withTop({ output: 'pdf' }), 'invalid_request/wrong_type'],
    ['an array', withTop({ output: [] }), 'invalid_request/wrong_type'],
    ['null', withTop({ output: null }), 'invalid_request/wrong_type'],
    ['a reserved format', withTop({ output: { format: 'xml' } }), 'reserved_field/reserved'],
    ['a reserved member', withTop({ output: { format: 'pdf', pdf_standard: 'A-3' } }), 'reserved_field/reserved'],
  ],
};

const AGREED_FIELDS: Row[] = [
  ['invoice: optional fields null or blank', withFields({ po_number: null, notes: '   ', due_date: '' }), 'valid'],
  ['invoice: JSON numbers for quantity and price', withFields({ items: [item(2, 7.5)] }), 'valid'],
  ['invoice: items as text', withFields({ items: 'Work | 2 | 50.00\nMore | 1 | 1' }), 'valid'],
  ['invoice: a JSON integer as text', withFields({ invoice_number: 123 }), 'valid'],
  ['invoice: a required field missing', withFields({ seller_name: undefined }), 'validation_failed/required'],
  ['invoice: a field the template lacks', withFields({ amount: '1' }), 'validation_failed/unknown_field'],
  ['invoice: a reserved field', withFields({ seller: {} }), 'reserved_field/reserved'],
  ['invoice: text over 200 code points', withFields({ seller_name: 'x'.repeat(201) }), 'validation_failed/too_long'],
  ['invoice: text as a boolean', withFields({ seller_name: true }), 'validation_failed/wrong_type'],
  ['invoice: text as a decimal number', withFields({ invoice_number: 1.5 }), 'validation_failed/wrong_type'],
  ['invoice: a currency in lower case', withFields({ currency: 'eur' }), 'validation_failed/unsupported_currency'],
  ['invoice: a percentage as a number', withFields({ tax_rate: 20 }), 'validation_failed/wrong_type'],
  ['invoice: no line items', withFields({ items: [] }), 'validation_failed/no_items'],
  ['invoice: 51 line items', withFields({ items: Array.from({ length: 51 }, () => item('1', '1')) }), 'validation_failed/too_many_items'],
  ['invoice: a line item with another name', withFields({ items: [{ ...item('1', '1'), price: '2' }] }), 'validation_failed/unknown_field'],
  ['invoice: a line item carrying tax', withFields({ items: [{ ...item('1', '1'), tax: '20%' }] }), 'reserved_field/reserved'],
  ['quote: items instead of an amount', withFields({ amount: undefined, items: [item('2', '10')] }, QUOTE), 'valid'],
  ['quote: a title not in the list', withFields({ document_title: 'Proposal' }, QUOTE), 'validation_failed/not_one_of'],
  ['quote: a boolean as a string', withFields({ show_acceptance: 'true' }, QUOTE), 'validation_failed/wrong_type'],
  ['receipt: an amount as a JSON number', withFields({ amount: 10 }, RECEIPT), 'valid'],
  ['receipt: the deprecated alias', withFields({ invoice_reference: 'INV-9' }, RECEIPT), 'valid'],
  ['receipt: an invoice field', withFields({ due_date: '2026-10-01' }, RECEIPT), 'validation_failed/unknown_field'],
  ['receipt: a payment date as a number', withFields({ payment_date: 20261001 }, RECEIPT), 'validation_failed/wrong_type'],
];

/** Rules a JSON Schema cannot state: the published schema accepts these bodies and the service refuses them. */
const SCHEMA_CANNOT_STATE: Row[] = [
  // A JSON Schema sees the number a JSON text denotes, not how it is written; the service reads the digits.
  ['template_version 1e3', withRaw('template_version', '1e3'), 'invalid_request/invalid_template_version'],
  ['template_version 2.0', withRaw('template_version', '2.0'), 'invalid_request/invalid_template_version'],
  ['template_version -0', withRaw('template_version', '-0'), 'invalid_request/invalid_template_version'],
  [
    'invoice: text as the JSON number 1e3',
    withRaw('fields', `${JSON.stringify(INVOICE_FIELDS).slice(0, -1)},"po_number":1e3}`),
    'validation_failed/wrong_type',
  ],
  // Which major is current is the service's state, not the body's shape.
  ['template_version of an old major', withTop({ template_version: '1' }), 'template_version_unavailable/major_mismatch'],
  // Value rules beyond type, length and pattern.
  ['invoice: a blank required field', withFields({ seller_name: '   ' }), 'validation_failed/required'],
  ['invoice: 30 February (format is an annotation)', withFields({ date: '2026-02-30' }), 'validation_failed/invalid_date'],
  ['invoice: a line break in one-line text', withFields({ seller_name: 'A\nB' }), 'validation_failed/line_break_not_allowed'],
  ['invoice: a bidi control', withFields({ seller_name: 'A\u202eB' }), 'validation_failed/invalid_characters'],
  ['invoice: money that is not a number', withFields({ amount_paid: 'ten' }), 'validation_failed/not_a_number'],
  ['invoice: negative money', withFields({ amount_paid: '-1' }), 'validation_failed/out_of_range'],
  ['invoice: more decimals than the currency has', withFields({ amount_paid: '1.001' }), 'validation_failed/too_many_decimals'],
  ['invoice: 11 integer digits', withFields({ items: [item('1', '12345678901')] }), 'validation_failed/too_many_digits'],
  ['invoice: a percentage above 100', withFields({ tax_rate: '100.5%' }), 'validation_failed/out_of_range'],
  ['invoice: an http link', withFields({ payment_link: 'http://pay.example.com' }), 'validation_failed/invalid_url'],
  ['invoice: a text line without a price', withFields({ items: 'A | 1' }), 'validation_failed/required'],
  // Cross-field rules and totals.
  ['invoice: a discount above the subtotal', withFields({ discount: '100.01' }), 'validation_failed/discount_too_large'],
  ['invoice: an amount paid above the total', withFields({ amount_paid: '100.01' }), 'validation_failed/amount_paid_too_large'],
  ['invoice: a tax label without a tax rate', withFields({ tax_label: 'VAT' }), 'validation_failed/requires_field'],
  ['invoice: a subtotal below zero', withFields({ items: [item('-1', '10')] }), 'validation_failed/negative_total'],
  ['invoice: a subtotal of 10^15', withFields({ items: [item('100001', '9999999999')] }), 'validation_failed/total_too_large'],
  ['quote: both items and an amount', withFields({ items: [item('1', '1')] }, QUOTE), 'validation_failed/items_or_amount'],
  ['quote: neither items nor an amount', withFields({ amount: undefined }, QUOTE), 'validation_failed/items_or_amount'],
  ['receipt: an amount of 0', withFields({ amount: '0.00' }, RECEIPT), 'validation_failed/must_be_positive'],
  [
    'receipt: both names of the related invoice',
    withFields({ related_document: 'INV-1', invoice_reference: 'INV-1' }, RECEIPT),
    'validation_failed/conflicting_fields',
  ],
];

describe('the published request body', () => {
  it('is the same for POST /api/v1/documents and POST /api/v1/documents/validate', () => {
    expect(openApi.paths['/api/v1/documents'].post.requestBody.content['application/json'].schema).toEqual(published);
  });

  it('has rows below for each of its top-level parameters, in every template variant', () => {
    const parameters = Object.keys(AGREED).filter((name) => name !== 'the body');
    const variants = openApi.components.schemas.DocumentRequest.oneOf.map(
      ({ $ref }: { $ref: string }) => openApi.components.schemas[$ref.replace('#/components/schemas/', '')],
    );
    expect(variants).toHaveLength(TEMPLATES.length);
    for (const variant of variants) expect(Object.keys(variant.properties)).toEqual(parameters);
  });
});

/** Rows as test cases named by their label and answer. */
const cases = (rows: Row[]) => rows.map(([label, body, answer]) => ({ label, body, answer }));

describe('schema and validator agree', () => {
  const rows = Object.entries(AGREED).flatMap(([parameter, table]) =>
    table.map(([label, body, answer]): Row => [`${parameter}: ${label}`, body, answer]),
  );
  it.each(cases([...rows, ...AGREED_FIELDS]))('$label → $answer', async ({ body, answer }) => {
    expect(await serviceAnswer(body)).toBe(answer);
    expect(schemaAccepts(parse(body)), JSON.stringify(schemaAccepts.errors)).toBe(answer === 'valid');
  });
});

describe('where a JSON Schema cannot state the rule: the schema accepts, the service refuses', () => {
  it.each(cases(SCHEMA_CANNOT_STATE))('$label → $answer', async ({ body, answer }) => {
    expect(await serviceAnswer(body)).toBe(answer);
    expect(schemaAccepts(parse(body)), JSON.stringify(schemaAccepts.errors)).toBe(true);
  });
});
