import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const PUBLIC_PATHS = ['/api/v1/templates', '/api/v1/templates/invoice', '/api/v1/openapi.json'];

describe('CORS on the public routes (section 4.1)', () => {
  it.each(PUBLIC_PATHS)('GET %s sends Access-Control-Allow-Origin: *, Vary: Svc-Version and a 5-minute cache', async (path) => {
    const response = await app.call(path, { headers: { Origin: 'https://app.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Vary')).toBe('Svc-Version');
    // openapi.json is private when it names the request's own Host (test/inprocess/base-url.test.ts).
    expect(response.headers.get('Cache-Control')).toMatch(
      path.endsWith('openapi.json') ? /^(public|private), max-age=300$/ : /^public, max-age=300$/,
    );
  });

  it.each(PUBLIC_PATHS)('OPTIONS %s is a 204 preflight', async (path) => {
    const response = await app.call(path, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Access-Control-Allow-Methods')).toBe('GET, OPTIONS');
    expect(response.headers.get('Access-Control-Allow-Headers')).toBe('Svc-Version');
    expect(await response.text()).toBe('');
  });

  it('keeps CORS on errors of public routes, so a web page can read them, and lets no cache keep them', async () => {
    const response = await app.call('/api/v1/templates', { headers: { 'Svc-Version': 'nope' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
  });
});

describe('no CORS anywhere else', () => {
  it.each([
    ['GET', '/api/v1/unknown'],
    ['OPTIONS', '/api/v1/unknown'],
    ['GET', '/docs/api/errors'],
  ])('%s %s sends no Access-Control header', async (method, path) => {
    const response = await app.call(path, { method, headers: { Origin: 'https://app.example' } });
    for (const name of response.headers.keys()) expect(name.toLowerCase().startsWith('access-control-')).toBe(false);
  });
});
