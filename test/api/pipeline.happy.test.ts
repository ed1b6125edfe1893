import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../src/openapi/schemas.ts';
import { BASE, createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe('API version (section 9)', () => {
  it('serves the newest version when no Svc-Version is sent', async () => {
    const response = await app.call('/api/v1/templates');
    expect(response.status).toBe(200);
    expect(response.headers.get('Svc-Version')).toBe('2026-10-01');
  });

  it('accepts the one version it has', async () => {
    const response = await app.call('/api/v1/templates', { headers: { 'Svc-Version': '2026-10-01' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Svc-Version')).toBe('2026-10-01');
  });

  it.each(['2025-01-01', '2026-10-02', 'latest', ''])('refuses Svc-Version %j with 400 unsupported_version', async (version) => {
    const response = await app.call('/api/v1/templates/invoice', { headers: { 'Svc-Version': version } });
    expect(response.status).toBe(400);
    expect(response.headers.get('Svc-Version')).toBe('2026-10-01');
    const body = await response.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details).toEqual([expect.objectContaining({ code: 'unsupported_version' })]);
    expect(body.credit_used).toBe(false);
  });

  it('GET /api/v1/openapi.json takes no version header: an unknown one is ignored', async () => {
    const response = await app.call('/api/v1/openapi.json', { headers: { 'Svc-Version': '1999-01-01' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Svc-Version')).toBe('2026-10-01');
  });
});

describe('request ids and the error shape (section 7)', () => {
  it('gives every answer a fresh Svc-Request-Id', async () => {
    const a = await app.call('/api/v1/templates');
    const b = await app.call('/api/v1/templates');
    expect(a.headers.get('Svc-Request-Id')).toMatch(/^req_[0-9a-z]{20}$/);
    expect(a.headers.get('Svc-Request-Id')).not.toBe(b.headers.get('Svc-Request-Id'));
  });

  it('puts the same request id in the error body, with docs_url from the request origin', async () => {
    const response = await app.call('/api/v1/nothing-here', { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    const body = await response.json();
    expect(v.safeParse(ErrorSchema, body).success).toBe(true);
    expect(body.error.code).toBe('not_found');
    expect(body.error.request_id).toBe(response.headers.get('Svc-Request-Id'));
    expect(body.error.docs_url).toBe(`${BASE}/docs/api/errors#not_found`);
  });
});
