import { describe, expect, it } from 'vitest';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { RenderEngine } from '../../src/render/engine.ts';
import { EngineBusy } from '../../src/render/errors.ts';
import { renderInput } from '../../src/templates/template.ts';
import { seedCaller } from '../support/accounts.ts';
import { BASE, createTestApp, testFonts } from '../support/app.ts';
import { finalInvoice, ledger, makeDocument } from '../support/documents.ts';

describe('operator switch API_ENABLED=false', () => {
  it('answers every path under /api/v1/ with 404 not_found, keys or not', async () => {
    const app = await createTestApp({ env: { API_ENABLED: 'false' } });
    const caller = await seedCaller(app, { credits: 2 });
    for (const [method, path] of [
      ['GET', '/api/v1/templates'],
      ['GET', '/api/v1/openapi.json'],
      ['GET', '/api/v1/account'],
      ['POST', '/api/v1/documents'],
    ]) {
      const response = await app.call(path!, { method: method!, headers: caller.headers });
      expect(response.status, path).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
    expect(await ledger(app, caller)).toMatchObject({ credits: 2, documents: 0 });
  });
});

describe('the render engine', () => {
  it('refuses a render beyond its concurrency with EngineBusy, and takes the next one once a slot is free', async () => {
    const engine = new RenderEngine(testFonts(), { renderConcurrency: 1, renderTimeoutMs: 60_000 });
    const input = renderInput(parseDocumentRequest(parseJson(JSON.stringify(finalInvoice()))));
    const first = engine.render(input);
    await expect(engine.render(input)).rejects.toBeInstanceOf(EngineBusy);
    expect((await first).length).toBeGreaterThan(1000);
    expect((await engine.render(input)).length).toBeGreaterThan(1000);
  });

  it('answers 503 engine_busy with Retry-After when no render slot is free, and charges nothing', async () => {
    const app = await createTestApp({ config: { renderConcurrency: 0 } });
    const caller = await seedCaller(app, { credits: 2 });
    const response = await makeDocument(app, caller, finalInvoice(), { key: 'busy-1' });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('1');
    const body = await response.json();
    expect(body.error.code).toBe('engine_busy');
    expect(body.credit_used).toBe(false);
    expect(await ledger(app, caller)).toMatchObject({ credits: 2, documents: 0 });
  });

  it('answers 504 render_timeout over its time budget, charges nothing and frees the key', async () => {
    const app = await createTestApp({ config: { renderTimeoutMs: -1 } });
    const caller = await seedCaller(app, { credits: 2 });
    const response = await makeDocument(app, caller, finalInvoice(), { key: 'slow-1' });
    expect(response.status).toBe(504);
    const body = await response.json();
    expect(body.error.code).toBe('render_timeout');
    expect(body.credit_used).toBe(false);
    expect(await ledger(app, caller)).toMatchObject({ credits: 2, documents: 0 });
  });
});

describe('request logs', () => {
  it('writes one JSON line per request with ids, route and status, never a key or a field', async () => {
    const app = await createTestApp({ config: { logRequests: true } });
    const caller = await seedCaller(app, { credits: 2 });
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      await makeDocument(app, caller, finalInvoice({ seller_name: 'Secret Seller GmbH' }));
      await app.fetch(new Request(`${BASE}/api/v1/account`, { headers: { Authorization: 'Bearer svc_live_notarealkey' } }));
    } finally {
      console.log = original;
    }
    expect(lines).toHaveLength(2);
    const [created, refused] = lines.map((line) => JSON.parse(line));
    expect(created).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/api/v1/documents',
      status: 201,
      account_id: caller.account.id,
      key_id: caller.keyId,
    });
    expect(created.request_id).toMatch(/^req_/);
    expect(typeof created.duration_ms).toBe('number');
    expect(refused).toMatchObject({ route: '/api/v1/account', status: 401, account_id: null, key_id: null });
    const all = lines.join('\n');
    expect(all).not.toContain(caller.key);
    expect(all).not.toContain('svc_live_notarealkey');
    expect(all).not.toContain('Secret Seller');
  });
});
