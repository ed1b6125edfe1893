import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS } from '../../src/contract/errors.ts';
import { SCRIPTS } from '../../src/contract/scripts.ts';
import { escapeHtml } from '../../src/docs/html.ts';
import { errorCodesOf } from '../../src/http/route.ts';
import { API_ROUTES } from '../../src/routes/index.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { seedCaller } from '../support/accounts.ts';
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

  it('says under render_rejected which scripts the bundled fonts draw, emoji among them, from the scripts table', async () => {
    const html = await (await app.call('/docs/api/errors')).text();
    const start = html.indexOf('<h2 id="render_rejected">');
    const section = html.slice(start, html.indexOf('</section>', start));
    expect(section).toContain('<code>undrawable_characters</code>');
    for (const script of ['Latin', ...SCRIPTS.map((row) => row.label), 'Chinese', 'Japanese', 'Korean', 'emoji']) {
      expect(section, script).toContain(script);
    }
    expect(section).toContain('Not drawn: scripts not listed.');
  });

  it('is where every docs_url points', async () => {
    const body = await (await app.call('/api/v1/templates/x')).json();
    const url = new URL(body.error.docs_url);
    const html = await (await app.call(url.pathname)).text();
    expect(html).toContain(`id="${url.hash.slice(1)}"`);
  });
});

/** The HTML of one operation's section of /docs/api. */
function operationSection(html: string, operationId: string): string {
  const start = html.indexOf(`<section class="operation" id="${operationId}"`);
  expect(start, operationId).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
}

const unescapeHtml = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

/** The text of the `<pre>` a section labels so. */
function sample(section: string, label: string): string {
  const match = new RegExp(`<pre aria-label="${label}"><code>([\\s\\S]*?)</code></pre>`).exec(section);
  expect(match, label).not.toBeNull();
  return unescapeHtml(match![1]!);
}

/** A curl sample as the request it sends: method, path, headers (the key in place of $SVC_API_KEY), here-document body. */
function requestOfCurl(curl: string, key: string): { path: string; init: RequestInit } {
  const [command, heredoc] = curl.split("<<'JSON'\n");
  const url = /^curl --fail-with-body (?:-X (\w+) )?'([^']+)'/.exec(command!)!;
  const headers = [...command!.matchAll(/-H (?:'([^']*)'|"([^"]*)")/g)].map((match) =>
    (match[1] ?? match[2])!.replace('$SVC_API_KEY', key),
  );
  return {
    path: url[2]!.replace('https://svc.example.com', ''),
    init: {
      method: url[1] ?? 'GET',
      headers: headers.map((header) => header.split(/: (.*)/s).slice(0, 2) as [string, string]),
      ...(heredoc ? { body: heredoc.slice(0, heredoc.lastIndexOf('\nJSON')) } : {}),
    },
  };
}

describe('GET /docs/api', () => {
  let html: string;
  beforeAll(async () => {
    const response = await app.call('/docs/api');
    expect(response.status).toBe(200);
    html = await response.text();
  });

  it('gives each operation its own section with an anchor (its operationId), a link icon, and a navigation link to it', () => {
    const nav = html.slice(html.indexOf('<nav class="sidebar"'), html.indexOf('</nav>'));
    for (const route of API_ROUTES) {
      const section = operationSection(html, route.doc.operationId);
      expect(section).toContain(`${route.method}</span> <code>${route.path}</code>`);
      expect(section).toContain(`<a class="anchor" href="#${route.doc.operationId}"`);
      expect(section).toContain(route.doc.summary);
      expect(nav).toContain(`href="#${route.doc.operationId}"`);
    }
  });

  it('links every error code an operation can answer with to its entry on /docs/api/errors, under its status', async () => {
    const openApi = await (await app.call('/api/v1/openapi.json')).json();
    for (const route of API_ROUTES) {
      const section = operationSection(html, route.doc.operationId);
      const linked = [...section.matchAll(/<span class="status">(\d+)<\/span> <a href="\/docs\/api\/errors#([a-z_]+)">/g)].map(
        ([, status, code]) => [Number(status), code as keyof typeof ERRORS] as const,
      );
      const codes = linked.map(([, code]) => code);
      const always = [
        'not_found',
        'rate_limited',
        'internal_error',
        ...(route.access.kind === 'key' ? ['unauthorized', 'service_busy'] : []),
      ];
      for (const code of [...errorCodesOf(route), ...always]) expect(codes, `${route.doc.operationId} ${code}`).toContain(code);
      const statuses = Object.keys(openApi.paths[route.path][route.method.toLowerCase()].responses).map(Number);
      for (const [status, code] of linked) {
        expect(ERRORS[code].status, `${route.doc.operationId} ${code}`).toBe(status);
        expect(statuses, `${route.doc.operationId} ${code}`).toContain(status);
      }
    }
  });

  it('lists the body fields of every template, each with its description, under its own anchor', () => {
    const create = operationSection(html, 'createDocument');
    for (const template of TEMPLATES) {
      const start = create.indexOf(`id="createDocument.body.${template.slug}"`);
      expect(start, template.slug).toBeGreaterThan(-1);
      // A form's section ends where the next form's starts, or the answers do.
      const ends = [create.indexOf('<details class="variant"', start + 1), create.indexOf('<h4>', start)].filter((end) => end > -1);
      const variant = create.slice(start, Math.min(...ends));
      for (const [name, field] of Object.entries(template.fields)) {
        expect(variant, `${template.slug}.${name}`).toContain(`<code class="field-name">${name}</code>`);
        expect(variant, `${template.slug}.${name}`).toContain(escapeHtml(field.description).replace(/`([^`]+)`/g, '<code>$1</code>'));
      }
    }
    expect(operationSection(html, 'validateDocument')).toContain('The same body as <a href="#createDocument">');
  });

  it('shows each template example as an example body, and a TypeScript sample through the client by operationId', () => {
    const create = operationSection(html, 'createDocument');
    for (const template of TEMPLATES) expect(unescapeHtml(create)).toContain(JSON.stringify(template.example, null, 2));
    for (const route of API_ROUTES) {
      const typeScript = sample(operationSection(html, route.doc.operationId), `TypeScript ${route.doc.operationId}`);
      expect(typeScript).toContain("import { createClient } from './src/client/index.ts';");
      expect(typeScript).toContain(`await svc.${route.doc.operationId}(`);
    }
    expect(sample(create, 'TypeScript createDocument')).toContain('{ idempotencyKey: "order-1001-invoice" }');
  });

  it('gives every operation a curl sample that, sent as written with a key, succeeds (or, for a made-up id, gets an error the section lists)', async () => {
    const caller = await seedCaller(app);
    for (const route of API_ROUTES) {
      const section = operationSection(html, route.doc.operationId);
      const { path, init } = requestOfCurl(sample(section, `curl ${route.doc.operationId}`), caller.key);
      const response = await app.call(path, init);
      // The samples name a made-up document id: only those answer with an error, which the section lists.
      if (!route.path.includes('{id}')) {
        expect(response.status, `${route.doc.operationId}: ${await response.clone().text()}`).toBeLessThan(300);
        continue;
      }
      const { error } = await response.json();
      expect(section, `${route.doc.operationId}: ${response.status} ${error.code}`).toContain(
        `<span class="status">${response.status}</span> <a href="/docs/api/errors#${error.code}">`,
      );
    }
  });

  it('links each detail code of details[] to its anchor on the errors page', () => {
    for (const code of ERROR_CODES) {
      for (const detail of Object.keys(ERRORS[code].details)) expect(html).toContain(`href="/docs/api/errors#${code}.${detail}"`);
    }
  });

  it('shows every object the answers carry, and the answer schema of each operation links to it', () => {
    for (const name of ['Error', 'Template', 'Document', 'DocumentList', 'DocumentJson', 'ValidateAnswer', 'Account']) {
      expect(html).toContain(`id="schema-${name}"`);
    }
    expect(operationSection(html, 'getAccount')).toContain('<a href="#schema-Account">Account</a>');
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
