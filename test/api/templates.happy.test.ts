import Ajv2020 from 'ajv/dist/2020.js';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { TemplateSchema } from '../../src/openapi/schemas.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const EXPECTED = {
  invoice: { name: 'Invoice', version: '2.6.0' },
  quote: { name: 'Quote / Estimate', version: '1.4.0' },
  receipt: { name: 'Payment Receipt', version: '1.4.0' },
};

describe('GET /api/v1/templates', () => {
  it('lists the three templates as Template objects with every member of 2.8', async () => {
    const response = await app.call('/api/v1/templates');
    expect(response.status).toBe(200);
    const templates = await response.json();
    expect(templates.map((t: { slug: string }) => t.slug)).toEqual(['invoice', 'quote', 'receipt']);
    for (const template of templates) {
      const parsed = v.safeParse(TemplateSchema, template);
      expect(parsed.issues).toBeUndefined();
      expect(template).toMatchObject(EXPECTED[template.slug as keyof typeof EXPECTED]);
      expect(template.papers).toEqual(['a4', 'letter']);
      expect(template.locales).toEqual(['en']);
      expect(template.output).toBe('pdf');
      expect(template.fields_schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    }
  });

  it('states the rounding rules and the invoice cross-field rules', async () => {
    const invoice = await (await app.call('/api/v1/templates/invoice')).json();
    const codes = invoice.rules.map((rule: { code: string }) => rule.code);
    expect(codes).toEqual(
      expect.arrayContaining(['line_amount_rounding', 'discount_rounding', 'tax_rounding', 'discount_too_large', 'requires_field']),
    );
    expect(invoice.rules.find((r: { code: string }) => r.code === 'tax_rounding').description).toMatch(/half away from zero/);
  });

  it('lists required and optional fields exactly as spec 2.5', async () => {
    const receipt = await (await app.call('/api/v1/templates/receipt')).json();
    expect(receipt.required_fields).toEqual([
      'seller_name',
      'client_name',
      'receipt_number',
      'payment_date',
      'description',
      'currency',
      'amount',
      'payment_method',
    ]);
    expect(receipt.optional_fields).toContain('invoice_reference');
    expect(receipt.deprecated_fields).toEqual([{ name: 'invoice_reference', use_instead: 'related_document' }]);
    const invoice = await (await app.call('/api/v1/templates/invoice')).json();
    expect(invoice.required_fields).toEqual(['seller_name', 'client_name', 'invoice_number', 'date', 'currency', 'items']);
    expect(invoice.deprecated_fields).toEqual([]);
    const quote = await (await app.call('/api/v1/templates/quote')).json();
    expect(quote.required_fields).toEqual(['document_title', 'seller_name', 'client_name', 'quote_number', 'date', 'scope', 'currency']);
  });

  it("publishes JSON Schemas in which each template's example is valid and a broken one is not", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const templates = await (await app.call('/api/v1/templates')).json();
    for (const template of templates) {
      const validate = ajv.compile(template.fields_schema);
      expect(template.example.template).toBe(template.slug);
      expect(validate(template.example.fields), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...template.example.fields, not_a_field: 'x' })).toBe(false);
      expect(validate({ ...template.example.fields, seller_name: 'x'.repeat(201) })).toBe(false);
      expect(validate({ ...template.example.fields, currency: 'eur' })).toBe(false);
    }
  });

  it('describes the url type without pattern or length (spec 2.3)', async () => {
    const invoice = await (await app.call('/api/v1/templates/invoice')).json();
    const link = JSON.stringify(invoice.fields_schema.properties.payment_link);
    expect(link).not.toContain('pattern');
    expect(link).not.toContain('maxLength');
  });
});

describe('GET /api/v1/templates/{slug}', () => {
  it('returns one template', async () => {
    const response = await app.call('/api/v1/templates/quote');
    expect(response.status).toBe(200);
    const quote = await response.json();
    expect(quote.slug).toBe('quote');
    expect(quote.fields_schema.properties.document_title.enum).toEqual(['Quote', 'Estimate']);
  });

  it.each(['INVOICE', 'unknown', 'invoice.json'])('answers 404 template_not_found for %s', async (slug) => {
    const response = await app.call(`/api/v1/templates/${slug}`);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('template_not_found');
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });
});
