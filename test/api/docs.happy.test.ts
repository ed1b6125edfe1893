import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS } from '../../src/contract/errors.ts';
import { API_ROUTES } from '../../src/routes/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe('GET /docs/api/errors', () => {
  it('is an HTML page with one anchor per error code, its status, detail codes and advice', async () => {
    const response = await app.call('/docs/api/errors');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    for (const code of ERROR_CODES) {
      const start = html.indexOf(`<h2 id="${code}">`);
      expect(start, code).toBeGreaterThan(-1);
      const section = html.slice(start, html.indexOf('</section>', start));
      expect(section).toContain(`HTTP ${ERRORS[code].status}.`);
      expect(section).toContain('What to do:');
      for (const detail of Object.keys(ERRORS[code].details)) expect(section).toContain(`<code>${detail}</code>`);
    }
  });

  it('says under render_rejected which scripts the bundled fonts draw, and that emoji are not drawn', async () => {
    const html = await (await app.call('/docs/api/errors')).text();
    const start = html.indexOf('<h2 id="render_rejected">');
    const section = html.slice(start, html.indexOf('</section>', start));
    expect(section).toContain('<code>undrawable_characters</code>');
    for (const script of [
      'Latin',
      'Greek',
      'Cyrillic',
      'Arabic',
      'Hebrew',
      'Devanagari',
      'Bengali',
      'Tamil',
      'Thai',
      'Chinese',
      'Japanese',
      'Korean',
    ]) {
      expect(section, script).toContain(script);
    }
    expect(section).toContain('Not drawn: emoji');
  });

  it('is where every docs_url points', async () => {
    const body = await (await app.call('/api/v1/templates/x')).json();
    const url = new URL(body.error.docs_url);
    const html = await (await app.call(url.pathname)).text();
    expect(html).toContain(`id="${url.hash.slice(1)}"`);
  });
});

describe('GET /docs/api', () => {
  it('is a readable reference of every route, made from the OpenAPI document', async () => {
    const response = await app.call('/docs/api');
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const route of API_ROUTES) expect(html).toContain(`${route.method}</span> <code>${route.path}</code>`);
  });

  it('keeps its wide tables inside a phone-width screen: a table scrolls within itself, the page does not', async () => {
    for (const path of ['/docs/api', '/docs/api/errors']) {
      const style = /<style>([\s\S]*?)<\/style>/.exec(await (await app.call(path)).text())?.[1] ?? '';
      const table = /(?:^|})\s*table\{([^}]*)\}/.exec(style)?.[1] ?? '';
      expect(table, path).toContain('display:block');
      expect(table, path).toContain('max-width:100%');
      expect(table, path).toContain('overflow-x:auto');
    }
  });
});

describe('the documentation pages', () => {
  it('run no script and cannot be framed: a strict Content-Security-Policy (their one style is inline), nosniff', async () => {
    for (const path of ['/docs/api', '/docs/api/errors']) {
      const response = await app.call(path);
      expect(response.headers.get('Content-Security-Policy'), path).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(response.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(await response.text(), path).not.toMatch(/<script|\son\w+=/i);
    }
  });
});
