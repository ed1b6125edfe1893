import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/contract/errors.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { INVOICE_FIELDS, post, QUOTE_FIELDS, RECEIPT_FIELDS } from '../support/requests.ts';

let app: TestApp;
let caller: Caller;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app);
});

const ALLOWED = new Map<number, Set<string>>();
for (const [code, entry] of Object.entries(ERRORS)) {
  ALLOWED.set(entry.status, new Set([...(ALLOWED.get(entry.status) ?? []), code]));
}

/** Every answer is 200 or one of the contract's errors with a contract code and detail code, never a 500. */
async function expectContractAnswer(response: Response) {
  const answer = await response.json();
  if (response.status === 200) {
    expect(answer.valid).toBe(true);
    return;
  }
  expect(response.status).toBeLessThan(500);
  expect(ALLOWED.get(response.status)?.has(answer.error.code), JSON.stringify(answer)).toBe(true);
  for (const detail of answer.error.details ?? []) {
    expect(Object.keys(ERRORS[answer.error.code as keyof typeof ERRORS].details)).toContain(detail.code);
  }
  expect(answer.credit_used).toBe(false);
}

const fieldNames = [
  ...new Set([
    ...Object.keys(INVOICE_FIELDS),
    ...Object.keys(QUOTE_FIELDS),
    ...Object.keys(RECEIPT_FIELDS),
    'discount',
    'tax_rate',
    'tax_label',
    'amount_paid',
    'payment_link',
    'items',
    'amount',
    'show_acceptance',
    'invoice_reference',
    'related_document',
    'seller',
    'notes',
  ]),
];
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const anyFieldValue = fc.oneof(
  jsonValue,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('1,250.00', '-0', '1e5', '10%', '100.0001%', '2026-02-29', 'https://x.y', 'A | 1 | 2', '\r', '\u202e'),
  fc.array(fc.record({ description: jsonValue, quantity: jsonValue, unit_price: jsonValue }, { requiredKeys: [] }), { maxLength: 3 }),
);

describe('the validator under arbitrary input (fast-check)', () => {
  it('never throws and never answers 500 for arbitrary fields of real templates', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('invoice', 'quote', 'receipt'),
        fc.constantFrom('final', 'preview'),
        fc.dictionary(fc.constantFrom(...fieldNames), anyFieldValue, { maxKeys: 12 }),
        async (template, mode, fields) => {
          await expectContractAnswer(await post(app, '/api/v1/documents/validate', caller.headers, { template, mode, fields }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws for arbitrary JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(jsonValue, async (payload) => {
        await expectContractAnswer(await post(app, '/api/v1/documents/validate', caller.headers, payload));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws for arbitrary text and bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 64 })), async (payload) => {
        await expectContractAnswer(await post(app, '/api/v1/documents/validate', caller.headers, payload));
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * A validate request of exactly the body limit whose field `name` holds `value(n)`; `value(n)` must take n bytes
 * of JSON, n being what the rest of the body leaves.
 */
function fullSizeBody(name: string, value: (n: number) => string) {
  const make = (n: number) => JSON.stringify({ template: 'invoice', mode: 'preview', fields: { ...INVOICE_FIELDS, [name]: value(n) } });
  const bytes = (text: string) => new TextEncoder().encode(text).byteLength;
  const body = make(LIMITS.requestBodyBytes - (bytes(make(0)) - bytes(JSON.stringify(value(0)).slice(1, -1))));
  expect(bytes(body)).toBe(LIMITS.requestBodyBytes);
  return body;
}

const PAY = 'https://pay.example.com/x';

/**
 * The answer is what is asserted; the budget only makes a super-linear expression fail the test rather than pass
 * slowly (the quadratic URL trim went far past it on this body; a linear pass stays far inside it).
 */
const LINEAR_BUDGET_MS = 3_000;

describe('regular expressions on request input, worst input at the full body size', () => {
  it.each([
    [
      'a run of spaces inside a url (quadratic under /^ +| +$/g)',
      'payment_link',
      (n: number) => `${PAY}${' '.repeat(Math.max(0, n - PAY.length - 1))}x`,
      'invalid_url',
    ],
    [
      'spaces around a url are trimmed, however many',
      'payment_link',
      (n: number) =>
        `${' '.repeat(Math.max(0, n - PAY.length) >> 1)}${PAY}${' '.repeat(Math.max(0, n - PAY.length) - (Math.max(0, n - PAY.length) >> 1))}`,
      undefined,
    ],
    [
      'digit groups that never end properly',
      'amount_paid',
      (n: number) => `1${',111'.repeat(Math.max(0, n - 2) >> 2)}${'1'.repeat(Math.max(0, n - 2) & 3)}x`,
      'not_a_number',
    ],
    ['a fraction that never ends properly', 'tax_rate', (n: number) => `1.${'1'.repeat(Math.max(0, n - 3))}x`, 'not_a_number'],
    [
      'surrogate pairs, then a bidi control, in a one-line text',
      'seller_name',
      (n: number) => `${'\u{1F600}'.repeat(Math.max(0, n - 3) >> 2)}${'a'.repeat(Math.max(0, n - 3) & 3)}\u202e`,
      'invalid_characters',
    ],
    ['CR LF pairs in a multiline text', 'notes', (n: number) => `${'\r\n'.repeat(n >> 2)}${'a'.repeat(n & 3)}`, 'too_long'],
  ])(
    '%s',
    async (_, name, value, detail) => {
      const response = await post(app, '/api/v1/documents/validate', caller.headers, fullSizeBody(name, value));
      const answer = await response.json();
      if (detail === undefined) {
        expect(response.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
        return;
      }
      expect(response.status).toBe(422);
      expect(answer.error.details).toEqual([expect.objectContaining({ code: detail, field: `fields.${name}` })]);
    },
    LINEAR_BUDGET_MS,
  );
});
