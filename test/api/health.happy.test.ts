import { beforeAll, describe, expect, it } from 'vitest';
import { seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

describe('GET /health (the load balancers’ check, outside /api/v1)', () => {
  it('answers 200 {"status":"ok"} without a key, never cached, with no CORS or RateLimit headers', async () => {
    const response = await app.call('/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(response.headers.get('Svc-Request-Id')).toMatch(/^req_/);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toBeNull();
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('ignores a key sent with it: the same answer, and nothing counted for the key', async () => {
    const caller = await seedCaller(app);
    const response = await app.call('/health', { headers: caller.headers });
    expect(response.status).toBe(200);
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toBeNull();
    const invalid = await app.call('/health', { headers: { Authorization: 'Bearer svc_live_notarealkey' } });
    expect(invalid.status).toBe(200);
  });

  it('answers HEAD with the same status and headers and no body', async () => {
    const response = await app.call('/health', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.text()).toBe('');
  });

  it('takes GET and HEAD only: another method is 405 with Allow', async () => {
    const response = await app.call('/health', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('GET, HEAD');
    expect((await response.json()).error.code).toBe('method_not_allowed');
  });

  it('is not in the OpenAPI document', async () => {
    const spec = await (await app.call('/api/v1/openapi.json')).json();
    expect(Object.keys(spec.paths).filter((path) => path.includes('health'))).toEqual([]);
  });
});
