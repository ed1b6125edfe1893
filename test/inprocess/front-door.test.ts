import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { sha256Hex } from '../../src/hash.ts';
import { RenderEngine } from '../../src/render/engine.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const BROWSER = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('The front door', () => {
  it('says what the service makes, links a sample of each template, states the plans from their table, and leads on', async () => {
    const answer = await app.call('/', { headers: BROWSER });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    const page = await answer.text();
    expect(page).toContain('<h1>Invoices, quotes and payment receipts as PDF</h1>');
    for (const template of TEMPLATES) expect(page).toContain(`href="/samples/${template.slug}"`);
    for (const plan of Object.values(PLANS))
      expect(page).toContain(`data-label="Credits a month">${plan.monthlyAllowance.toLocaleString('en')}</td>`);
    for (const link of [
      '/settings/sign-up',
      '/settings/sign-in',
      '/docs/api',
      '/docs/api/errors',
      '/api/v1/openapi.json',
      '/settings/documents/new',
    ]) {
      expect(page).toContain(`href="${link}"`);
    }
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it('serves each sample as the preview the API makes of the template’s example, rendered once and cacheable', async () => {
    const render = vi.spyOn(RenderEngine.prototype, 'render');
    const { headers } = await seedCaller(app);
    for (const template of TEMPLATES) {
      const first = await app.call(`/samples/${template.slug}`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('application/pdf');
      expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
      const bytes = new Uint8Array(await first.arrayBuffer());
      const etag = first.headers.get('etag');
      expect(etag).toBe(`"${sha256Hex(bytes)}"`);
      const second = await app.call(`/samples/${template.slug}`);
      expect(sha256Hex(new Uint8Array(await second.arrayBuffer()))).toBe(sha256Hex(bytes));
      expect((await app.call(`/samples/${template.slug}`, { headers: { 'If-None-Match': etag! } })).status).toBe(304);
      const api = await app.call('/api/v1/documents', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...template.example, mode: 'preview' }),
      });
      expect(api.headers.get('svc-document-sha256'), template.slug).toBe(sha256Hex(bytes));
    }
    // One render per sample, and one per API call: none for the samples asked for again.
    expect(render).toHaveBeenCalledTimes(TEMPLATES.length * 2);
    expect((await app.call('/samples/nothing', { headers: BROWSER })).status).toBe(404);
  });

  it('leads /docs to /docs/api and serves an icon', async () => {
    const docs = await app.call('/docs');
    expect(docs.status).toBe(301);
    expect(docs.headers.get('location')).toBe('/docs/api');
    const icon = await app.call('/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await icon.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 16, 16]);
    expect(bytes.length).toBe(6 + 16 + 40 + 16 * 16 * 4 + 64);
    expect((await app.call('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers an unknown path with a page to a browser and the contract’s JSON to everyone else, /api/v1/ always JSON', async () => {
    const page = await app.call('/no-such-page', { headers: BROWSER });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>Page not found</h1>');
    const json = await app.call('/no-such-page');
    expect(json.status).toBe(404);
    expect((await json.json()).error.code).toBe('not_found');
    const api = await app.call('/api/v1/no-such-path', { headers: BROWSER });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await api.json()).error.code).toBe('not_found');
  });
});
