import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../src/documents/fingerprint.ts';
import { type DocumentRequest, parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { INVOICE_FIELDS, QUOTE_FIELDS } from '../support/requests.ts';

/** The request as the document route reads it: parsed from JSON text, validated and normalised. */
const read = (body: unknown): DocumentRequest => parseDocumentRequest(parseJson(JSON.stringify(body)));
const fingerprint = (body: unknown) => requestFingerprint(read(body));
const invoice = (fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  template: 'invoice',
  mode: 'final',
  fields: { ...INVOICE_FIELDS, ...fields },
  ...extra,
});

/** The same object with its own members, and those of every object inside it, inserted in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .reverse()
        .map(([key, inner]) => [key, reversed(inner)]),
    );
  }
  return value;
}

describe('requestFingerprint: the normalised request of section 3', () => {
  it('is a lower-case SHA-256 in hex, the same for the same request', () => {
    expect(fingerprint(invoice())).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(invoice())).toBe(fingerprint(invoice()));
  });

  it('does not depend on the order members were sent in, at the top, in fields or in a line item', () => {
    const body = invoice(
      { notes: 'Thanks', tax_rate: '21', items: [{ description: 'Work', quantity: '2', unit_price: '50.00' }] },
      { reference: 'r-1', paper: 'a4' },
    );
    expect(fingerprint(reversed(body))).toBe(fingerprint(body));
  });

  it('does not depend on the order the read values are held in', () => {
    // The route's reader happens to build values in the template's field order; the fingerprint must not
    // rely on that, or a reader that keeps the sent order would turn replays into idempotency_key_reused.
    const request = read(invoice({ notes: 'Thanks', discount: '10%', tax_rate: '21' }, { reference: 'r-1' }));
    const reordered: DocumentRequest = { ...request, values: reversed(request.values) as Record<string, unknown> };
    expect(Object.keys(reordered.values)).not.toEqual(Object.keys(request.values));
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(request));
  });

  it.each([
    ['quantity', { quantity: '1,250.00' }, { quantity: 1250 }],
    ['quantity written with trailing zeros', { quantity: '2.000' }, { quantity: '2' }],
    ['unit price', { unit_price: '1,250.00' }, { unit_price: '1250' }],
    ['unit price as a JSON number', { unit_price: 50 }, { unit_price: '50.00' }],
  ])('reads a number by its value: %s', (_, a, b) => {
    const line = (member: Record<string, unknown>) =>
      invoice({ items: [{ description: 'Work', quantity: '2', unit_price: '50.00', ...member }] });
    expect(fingerprint(line(a))).toBe(fingerprint(line(b)));
  });

  it('reads money by its value: a quote amount of 1,250.00 is 1250', () => {
    const quote = (amount: unknown) => ({ template: 'quote', mode: 'final', fields: { ...QUOTE_FIELDS, amount } });
    expect(fingerprint(quote('1,250.00'))).toBe(fingerprint(quote('1250')));
    expect(fingerprint(quote('1,250.00'))).toBe(fingerprint(quote(1250)));
  });

  it.each([
    ['a field value', invoice({ client_name: 'Client Ltd' })],
    ['a quantity', invoice({ items: [{ description: 'Work', quantity: '3', unit_price: '50.00' }] })],
    ['a unit price', invoice({ items: [{ description: 'Work', quantity: '2', unit_price: '50.01' }] })],
    ['a quantity by a digit beyond the point', invoice({ items: [{ description: 'Work', quantity: '2.0001', unit_price: '50.00' }] })],
    ['a line description', invoice({ items: [{ description: 'Work!', quantity: '2', unit_price: '50.00' }] })],
    ['a second line', invoice({ items: [...INVOICE_FIELDS.items, { description: 'Work', quantity: '2', unit_price: '50.00' }] })],
    ['an optional field added', invoice({ notes: 'Thanks' })],
    ['a percentage discount instead of an amount', invoice({ discount: '10%' })],
    ['a reference', invoice({}, { reference: 'r-1' })],
    ['the mode', invoice({}, { mode: 'preview' })],
    ['the paper', invoice({}, { paper: 'letter' })],
    ['the currency', invoice({ currency: 'USD' })],
  ])('changes with %s', (_, changed) => {
    expect(fingerprint(changed)).not.toBe(fingerprint(invoice()));
  });

  it('tells a discount amount from the same number as a percentage, and one reference from another', () => {
    expect(fingerprint(invoice({ discount: '10' }))).not.toBe(fingerprint(invoice({ discount: '10%' })));
    expect(fingerprint(invoice({}, { reference: 'a' }))).not.toBe(fingerprint(invoice({}, { reference: 'b' })));
  });

  it('tells templates apart even when the shared values agree', () => {
    const receipt = {
      template: 'receipt',
      mode: 'final',
      fields: {
        seller_name: 'S',
        client_name: 'C',
        receipt_number: '1',
        payment_date: '2026-10-01',
        description: 'D',
        currency: 'EUR',
        amount: '10',
        payment_method: 'Card',
      },
    };
    const quote = {
      template: 'quote',
      mode: 'final',
      fields: { ...QUOTE_FIELDS, seller_name: 'S', client_name: 'C', currency: 'EUR', amount: '10' },
    };
    expect(fingerprint(receipt)).not.toBe(fingerprint(quote));
  });
});

describe('requestFingerprint: the stored form', () => {
  it('is the SHA-256 of the request as sorted JSON with every number as its plain value', () => {
    // Fingerprints are stored with their keys for 24 hours, so they outlive a deploy: a change to this form
    // turns every replay of a key stored before the deploy into idempotency_key_reused. Change it only together
    // with a way to read the keys stored in the old form.
    const body = invoice(
      { notes: 'Thanks', discount: '1,250.50', tax_rate: '7.5', items: [{ unit_price: '1,250.00', quantity: 2.5, description: 'Work' }] },
      { reference: 'r-1' },
    );
    const stored =
      '{"fields":{"client_name":"Client Inc","currency":"EUR","date":"2026-10-01",' +
      '"discount":{"amount":"1250.5","kind":"amount"},"invoice_number":"INV-1",' +
      '"items":[{"description":"Work","quantity":"2.5","unitPrice":"1250"}],' +
      '"notes":"Thanks","seller_name":"Seller Ltd","tax_rate":"7.5"},' +
      '"locale":"en","mode":"final","paper":"a4","reference":"r-1","template":"invoice"}';
    expect(fingerprint(body)).toBe(createHash('sha256').update(stored).digest('hex'));
  });
});
