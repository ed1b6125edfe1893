import { describe, expect, it } from 'vitest';
import { apiPageHtml } from '../../src/docs/api-page.ts';

/**
 * The reference page reads any OpenAPI 3.1 document, not only the shape the service publishes today: here one
 * that puts its schemas, parameters, headers, request bodies and answers in `components` and refers to them.
 */
const error = (code: string) => ({ value: { error: { code, message: 'm', request_id: 'req_1', docs_url: 'u' }, credit_used: false } });
const OPEN_API = {
  openapi: '3.1.0',
  info: { title: 'Referring API', version: '2026-10-01', description: 'Made of references.' },
  tags: [{ name: 'Documents', description: 'Everything about documents.' }],
  paths: {
    '/api/v1/documents': {
      post: {
        operationId: 'createDocument',
        summary: 'Make a document',
        description: 'Renders one.',
        tags: ['Documents'],
        security: [{ bearerKey: [] }],
        parameters: [{ $ref: '#/components/parameters/Accept' }],
        requestBody: { $ref: '#/components/requestBodies/DocumentRequest' },
        responses: {
          201: {
            description: 'The document.',
            headers: { 'Svc-Document-Id': { $ref: '#/components/headers/SvcDocumentId' } },
            content: {
              'application/pdf': { schema: { type: 'string', format: 'binary' } },
              'application/json': { schema: { $ref: '#/components/schemas/DocumentJson' }, example: { document_id: 'doc_example_1' } },
            },
          },
          409: { $ref: '#/components/responses/Conflict' },
        },
      },
    },
  },
  components: {
    schemas: {
      InvoiceRequest: {
        title: 'Invoice request',
        type: 'object',
        properties: {
          template: { type: 'string', const: 'invoice', description: 'Which template.' },
          fields: {
            type: 'object',
            properties: { invoice_number: { type: 'string', maxLength: 200, description: 'Number printed on the invoice.' } },
            required: ['invoice_number'],
          },
        },
        required: ['template', 'fields'],
      },
      QuoteRequest: {
        title: 'Quote request',
        type: 'object',
        properties: {
          template: { type: 'string', const: 'quote', description: 'Which template.' },
          fields: {
            type: 'object',
            properties: { valid_until: { type: 'string', format: 'date', description: 'Last day of the offer.' } },
          },
        },
        required: ['template', 'fields'],
      },
      DocumentRequest: {
        oneOf: [{ $ref: '#/components/schemas/InvoiceRequest' }, { $ref: '#/components/schemas/QuoteRequest' }],
        discriminator: { propertyName: 'template' },
      },
      DocumentJson: { type: 'object', properties: { document_id: { type: 'string', description: 'Its id.' } }, required: ['document_id'] },
      Error: { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string' } } } } },
    },
    parameters: {
      Accept: {
        name: 'Accept',
        in: 'header',
        required: false,
        description: 'application/json for the JSON form.',
        schema: { type: 'string' },
      },
    },
    headers: { SvcDocumentId: { description: 'Stable document id.', schema: { type: 'string' } } },
    requestBodies: {
      DocumentRequest: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/DocumentRequest' },
            examples: { quote: { summary: 'A quote', value: { template: 'quote', fields: { valid_until: '2026-10-31' } } } },
          },
        },
      },
    },
    responses: {
      Conflict: {
        description: 'A conflict.',
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            examples: {
              idempotency_in_progress: error('idempotency_in_progress'),
              idempotency_replay_unavailable: error('idempotency_replay_unavailable'),
              not_a_conflict: error('validation_failed'),
            },
          },
        },
      },
    },
  },
};

describe('the reference page of an OpenAPI document made of references', async () => {
  const html = apiPageHtml(OPEN_API as never);
  const operation = html.slice(html.indexOf('id="createDocument"'), html.indexOf('</section>', html.indexOf('id="createDocument"')));

  it('shows one section per form of a oneOf body, under its title and its discriminator value, with its fields', () => {
    for (const [slug, title, field, description] of [
      ['invoice', 'Invoice request', 'invoice_number', 'Number printed on the invoice.'],
      ['quote', 'Quote request', 'valid_until', 'Last day of the offer.'],
    ] as const) {
      const start = operation.indexOf(`id="createDocument.body.${slug}"`);
      expect(start, slug).toBeGreaterThan(-1);
      const form = operation.slice(start, operation.indexOf('</details>', start));
      expect(form).toContain(`${title} <code>template: &quot;${slug}&quot;</code>`);
      expect(form).toContain(`<code class="field-name">${field}</code>`);
      expect(form).toContain(description);
    }
    expect(operation).toContain('chosen by <code>template</code>');
  });

  it('resolves referred parameters, headers and answers, and takes error codes from the examples of an answer', () => {
    expect(operation).toContain('<code class="field-name">Accept</code>');
    expect(operation).toContain('application/json for the JSON form.');
    expect(operation).toContain('<code class="field-name">Svc-Document-Id</code>');
    expect(operation).toContain('Stable document id.');
    for (const code of ['idempotency_in_progress', 'idempotency_replay_unavailable']) {
      expect(operation).toContain(`<span class="status">409</span> <a href="/docs/api/errors#${code}">`);
    }
    // An example of a code the contract gives another status is not taken for a code of this answer.
    expect(operation).not.toContain('errors#validation_failed');
    expect(operation).toContain('<a href="#schema-DocumentJson">DocumentJson</a>');
  });

  it('uses the examples it is given: the named body example in the samples, the answer example', () => {
    expect(operation).toContain('&quot;valid_until&quot;: &quot;2026-10-31&quot;');
    expect(operation).toContain('-o document.pdf');
    expect(operation).toContain('&quot;document_id&quot;: &quot;doc_example_1&quot;');
    expect(operation).not.toContain('values made up');
  });

  it('shows a choice of named objects as links to their sections, each object once', () => {
    const start = html.indexOf('id="schema-DocumentRequest"');
    const section = html.slice(start, html.indexOf('</section>', start));
    expect(section).toContain('<a href="#schema-InvoiceRequest">InvoiceRequest</a>');
    expect(section).toContain('<a href="#schema-QuoteRequest">QuoteRequest</a>');
    expect(section).not.toContain('field-name');
    const invoiceStart = html.indexOf('id="schema-InvoiceRequest"');
    const invoice = html.slice(invoiceStart, html.indexOf('</section>', invoiceStart));
    expect(invoice).toContain('<a href="#createDocument.body.invoice">');
    expect(invoice).not.toContain('field-name');
  });

  it('has an element for every anchor it links to', () => {
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));
    const targets = [...html.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]);
    expect(targets.filter((target) => !ids.has(target))).toEqual([]);
  });
});
