import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from './app.ts';
import { ROOT } from './processes.ts';

export const INVOICE_FIELDS = {
  seller_name: 'Seller Ltd',
  client_name: 'Client Inc',
  invoice_number: 'INV-1',
  date: '2026-10-01',
  currency: 'EUR',
  items: [{ description: 'Work', quantity: '2', unit_price: '50.00' }],
};

export const QUOTE_FIELDS = {
  document_title: 'Quote',
  seller_name: 'Seller Ltd',
  client_name: 'Client Inc',
  quote_number: 'Q-1',
  date: '2026-10-01',
  scope: 'Build a thing.',
  currency: 'USD',
  amount: '1000',
};

export const RECEIPT_FIELDS = {
  seller_name: 'Seller Ltd',
  client_name: 'Client Inc',
  receipt_number: 'R-1',
  payment_date: '2026-10-01',
  description: 'Payment',
  currency: 'EUR',
  amount: '10.00',
  payment_method: 'Card',
};

export function body(template: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { template, mode: 'preview', fields, ...extra };
}

export function finalBody(template: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { template, mode: 'final', fields, ...extra };
}

/** A request body kept in test/fixtures, as its text (the reference invoices the tests and benchmarks share). */
export function fixtureText(file: string): string {
  return readFileSync(join(ROOT, 'test/fixtures', file), 'utf8');
}

export function fixture(file: string) {
  return JSON.parse(fixtureText(file));
}

/** POSTs a JSON value (or raw text) to a route with the caller's key. */
export function post(app: TestApp, path: string, headers: Record<string, string>, payload: unknown, contentType = 'application/json') {
  return app.call(path, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': contentType },
    body: typeof payload === 'string' || payload instanceof Uint8Array ? (payload as BodyInit) : JSON.stringify(payload),
  });
}

/** A request body whose first half arrives at once and the rest after `ms`: a request in flight that long. */
export function slowBody(text: string, ms: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      await new Promise((resolve) => setTimeout(resolve, ms));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
}
