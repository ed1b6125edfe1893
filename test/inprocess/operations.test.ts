import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { defineRoute } from '../../src/http/route.ts';
import { parseJson } from '../../src/json/parse.ts';
import { RenderEngine } from '../../src/render/engine.ts';
import { EngineBusy } from '../../src/render/errors.ts';
import { ROUTES } from '../../src/routes/index.ts';
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
    expect(created.time).toMatch(ISO_MILLISECONDS);
    expect(typeof created.duration_ms).toBe('number');
    expect(created.code).toBeNull();
    expect(refused).toMatchObject({
      level: 'info',
      route: '/api/v1/account',
      status: 401,
      code: 'unauthorized',
      account_id: null,
      key_id: null,
    });
    const all = lines.join('\n');
    expect(all).not.toContain(caller.key);
    expect(all).not.toContain('svc_live_notarealkey');
    expect(all).not.toContain('Secret Seller');
  });
});

/** `time` of a log line: ISO 8601 in UTC with milliseconds. */
const ISO_MILLISECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('log lines', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Every line written while `run` runs, parsed, with the stream it went to. */
  async function linesDuring(run: () => Promise<void>): Promise<(Record<string, any> & { stream: 'stdout' | 'stderr' })[]> {
    const lines: (Record<string, any> & { stream: 'stdout' | 'stderr' })[] = [];
    const capture = (stream: 'stdout' | 'stderr') => (line: unknown) => void lines.push({ ...JSON.parse(String(line)), stream });
    vi.spyOn(console, 'log').mockImplementation(capture('stdout'));
    vi.spyOn(console, 'error').mockImplementation(capture('stderr'));
    await run();
    vi.restoreAllMocks();
    return lines;
  }

  it('give each request line a level by who caused the answer, and the contract’s code of every error answer', async () => {
    const failing = defineRoute({
      method: 'GET',
      path: '/api/v1/failing-probe',
      access: { kind: 'public' },
      versioned: false,
      doc: { operationId: 'failingProbe', summary: 'probe', description: 'probe', tag: 'Meta', responses: {} },
      handle() {
        throw new Error('boom: an unexpected fault');
      },
    });
    const app = await createTestApp({ config: { logRequests: true, renderConcurrency: 0 }, routes: [...ROUTES, failing] });
    const caller = await seedCaller(app, { credits: 2 });
    const lines = await linesDuring(async () => {
      await app.call('/api/v1/templates');
      await app.call('/api/v1/no-such-route');
      await makeDocument(app, caller, finalInvoice(), { key: 'log-busy' });
      await app.call('/api/v1/failing-probe');
      await app.call('/settings/no-such-page');
    });
    const requests = lines.filter((line) => line.event === 'request');
    expect(requests.map(({ level, status, code, stream }) => ({ level, status, code, stream }))).toEqual([
      { level: 'info', status: 200, code: null, stream: 'stdout' },
      { level: 'info', status: 404, code: 'not_found', stream: 'stdout' },
      { level: 'warn', status: 503, code: 'engine_busy', stream: 'stderr' },
      { level: 'error', status: 500, code: 'internal_error', stream: 'stderr' },
      // A Settings page's own refusal is a page, with no code of the API's contract.
      { level: 'info', status: 404, code: null, stream: 'stdout' },
    ]);
    const failure = lines.find((line) => line.event === 'failure');
    expect(failure).toMatchObject({ level: 'error', request_id: requests[3]!.request_id, error: 'Error: boom: an unexpected fault' });
    for (const line of lines) {
      expect(line.time, JSON.stringify(line)).toMatch(ISO_MILLISECONDS);
      expect(Math.abs(Date.parse(line.time) - Date.now())).toBeLessThan(60_000);
    }
  });

  it('log a 429 as info (the client’s doing) with its code, and a Settings refusal of the contract with its code', async () => {
    const app = await createTestApp({ config: { logRequests: true, rateLimitsEnabled: true } });
    const caller = await seedCaller(app);
    const lines = await linesDuring(async () => {
      for (let call = 0; call <= 120; call++) await app.call('/api/v1/account', { headers: caller.headers });
      await app.call('/settings/keys', { method: 'PUT' });
    });
    const last = lines.filter((line) => line.event === 'request').slice(-2);
    expect(last[0]).toMatchObject({ level: 'info', status: 429, code: 'rate_limited', stream: 'stdout' });
    expect(last[1]).toMatchObject({ level: 'info', status: 405, code: 'method_not_allowed', route: '/settings/keys' });
    expect(JSON.stringify(lines)).not.toContain(caller.key);
  });
});
