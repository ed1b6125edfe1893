import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe('unknown paths and methods (section 4)', () => {
  it.each(['/api/v1/', '/api/v1/invoices', '/api/v1/templates/invoice/extra', '/api/v2/templates', '/no-such-page'])(
    '%s is 404 not_found in JSON',
    async (path) => {
      const response = await app.call(path);
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body.error.code).toBe('not_found');
      expect(body.credit_used).toBe(false);
      expect(response.headers.get('Svc-Version')).toBe('2026-10-01');
    },
  );

  it.each([
    ['POST', '/api/v1/templates', 'GET, OPTIONS'],
    ['DELETE', '/api/v1/templates/invoice', 'GET, OPTIONS'],
    ['PUT', '/api/v1/openapi.json', 'GET, OPTIONS'],
    ['HEAD', '/api/v1/templates', 'GET, OPTIONS'],
  ])('%s %s is 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
    const response = await app.call(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe(allow);
    if (method !== 'HEAD') {
      const body = await response.json();
      expect(body.error.code).toBe('method_not_allowed');
    }
  });
});
