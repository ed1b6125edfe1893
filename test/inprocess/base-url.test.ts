import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

/** `{base_url}` and caches in front (section 4.1, 7): PUBLIC_BASE_URL set, or taken from the request's Host. */
const get = (app: TestApp, url: string) => app.fetch(new Request(url));

describe('without PUBLIC_BASE_URL, an answer naming the Host is never shared between hosts', () => {
  it('openapi.json names the request origin and may only be kept by the client itself', async () => {
    const app = await createTestApp();
    const response = await get(app, 'http://evil.example/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect((await response.json()).servers).toEqual([{ url: 'http://evil.example' }]);
    expect(response.headers.get('Cache-Control')).toBe('private, max-age=300');
    expect(response.headers.get('Vary')).toBe('Svc-Version');
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it('the templates name no Host and stay shareable for 5 minutes', async () => {
    const app = await createTestApp();
    const response = await get(app, 'http://evil.example/api/v1/templates');
    expect(await response.text()).not.toContain('evil.example');
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
  });

  it.each(['/api/v1/templates/nope', '/api/v1/nope', '/api/v1/account'])(
    'the error at %s names the Host in docs_url and is not stored',
    async (path) => {
      const app = await createTestApp();
      const response = await get(app, `http://evil.example${path}`);
      expect((await response.json()).error.docs_url).toMatch(/^http:\/\/evil\.example\/docs\/api\/errors#/);
      expect(response.headers.get('Cache-Control')).toBe('no-store');
    },
  );

  it('the API reference page names no Host', async () => {
    const app = await createTestApp();
    const response = await get(app, 'http://evil.example/docs/api');
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain('evil.example');
  });
});

describe('with PUBLIC_BASE_URL, the Host is never used', () => {
  it('openapi.json names the configured URL for any Host and is shareable for 5 minutes', async () => {
    const app = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://api.example.com' } });
    const response = await get(app, 'http://evil.example/api/v1/openapi.json');
    const text = await response.text();
    expect(JSON.parse(text).servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(text).not.toContain('evil.example');
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
  });
});
