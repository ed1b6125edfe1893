import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_SECURITY_HEADERS } from '../../src/pages/security.ts';
import { createTestApp, interceptDb, type TestApp } from '../support/app.ts';
import { finalInvoice } from '../support/documents.ts';
import { createInbox, type Inbox } from '../support/inbox.ts';
import { SettingsBrowser } from '../support/settings-client.ts';

let app: TestApp;
let inbox: Inbox;
beforeEach(async () => {
  inbox = createInbox();
  app = await createTestApp({ mailer: inbox.mailer });
});

async function signedIn() {
  const browser = new SettingsBrowser(app);
  await browser.signUp(inbox, `holder.${crypto.randomUUID()}@example.com`);
  return browser;
}

function expectPageHeaders(response: Response) {
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
}

/** The column headers of a page's table and the data-label of each cell of its rows, row by row. */
function tableLabels(page: string, titleId: string) {
  const table = new RegExp(`<table[^>]*aria-labelledby="${titleId}"[^>]*>([\\s\\S]*?)</table>`).exec(page)?.[1] ?? '';
  const [head = '', ...rows] = table.split(/<tr[^>]*>/).slice(1);
  return {
    columns: [...head.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((match) => match[1]),
    rows: rows.map((row) => [...row.matchAll(/<t[dh][^>]*data-label="([^"]*)"/g)].map((match) => match[1])),
  };
}

describe('Settings pages: an unknown path', () => {
  it('is a Settings page with status 404 and the pages’ headers, not the API’s JSON, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const answer = await app.call('/settings/no-such-page', { method });
      expect(answer.status, method).toBe(404);
      expect(answer.headers.get('content-type'), method).toBe('text/html; charset=utf-8');
      expectPageHeaders(answer);
      const page = await answer.text();
      expect(page).toMatch(/^<!doctype html>/);
      expect(page).toContain('<h1>Page not found</h1>');
      expect(page).not.toContain('/api/v1');
    }
    const api = await app.call('/api/v1/no-such-path');
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
  });

  it('shows the navigation to a signed-in holder, with no page marked as the current one', async () => {
    const browser = await signedIn();
    const answer = await browser.get('/settings/keys/nope/nothing');
    expect(answer.status).toBe(404);
    expectPageHeaders(answer);
    const page = await answer.text();
    expect(page).toContain('<nav aria-label="Settings">');
    expect(page).not.toContain('aria-current');
  });
});

describe('Settings pages: markup', () => {
  it('marks the navigation link of the page shown, and only that one', async () => {
    const browser = await signedIn();
    for (const [path, label] of [
      ['/settings', 'Overview'],
      ['/settings/keys', 'API keys'],
      ['/settings/usage', 'Usage'],
    ] as const) {
      const page = await (await browser.get(path)).text();
      expect(page.match(/aria-current="page"/g), path).toHaveLength(1);
      expect(page).toContain(`<a href="${path}" aria-current="page">${label}</a>`);
    }
  });

  it('names the plan by its display name and lists the overview’s facts in one list', async () => {
    const browser = await signedIn();
    const overview = await (await browser.get('/settings')).text();
    expect(overview).toContain('<dt>Plan</dt><dd>Free</dd>');
    expect(overview.match(/<dl class="facts">/g)).toHaveLength(1);
    expect(await (await browser.get('/settings/usage')).text()).toContain('<dt>Plan</dt><dd>Free</dd>');
  });

  it('labels every cell of the keys and history tables with its column, for the stacked layout on phones', async () => {
    const browser = await signedIn();
    const secret = /<code id="new-key-secret">([^<]+)<\/code>/.exec(
      await (await browser.postSignedIn('/settings/keys', { name: 'kept', kind: 'full' }, '/settings/keys')).text(),
    )![1]!;
    await browser.postSignedIn('/settings/keys', { name: 'revoked', kind: 'full' }, '/settings/keys');
    const keysPage = await (await browser.get('/settings/keys')).text();
    const revoke = />revoked<[\s\S]*?href="(\/settings\/keys\/[^"]+\/revoke)"/.exec(keysPage)![1]!;
    expect((await browser.postSignedIn(revoke, {}, '/settings/keys')).status).toBe(303);
    const created = await app.call('/api/v1/documents', {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(finalInvoice({}, { reference: 'a-long-reference-0001' })),
    });
    expect(created.status).toBe(201);

    const keys = tableLabels(await (await browser.get('/settings/keys')).text(), 'keys-title');
    expect(keys.columns).toEqual(['Name', 'Kind', 'Prefix', 'Created', 'Last used', 'Status', 'Actions']);
    expect(keys.rows).toEqual([keys.columns, keys.columns]);
    const history = tableLabels(await (await browser.get('/settings/usage')).text(), 'documents-title');
    expect(history.columns).toEqual(['Created', 'Reference', 'Template', 'Mode', 'Source', 'Credits', 'Document id']);
    expect(history.rows).toEqual([history.columns]);
  });
});

describe('Settings pages: answers the router and the app make themselves', () => {
  it('a known path with another method is a Settings page with status 405 and Allow, not the API’s JSON', async () => {
    const answer = await app.call('/settings/sign-out', { method: 'GET' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(answer);
    const page = await answer.text();
    expect(page).toContain('<h1>Method not allowed</h1>');
    expect(page).toContain('This path takes POST.');
  });

  it('a failure the page did not expect is a Settings page with status 500, saying nothing of the failure', async () => {
    const failing = await createTestApp({
      mailer: inbox.mailer,
      wrapDb: (db) =>
        interceptDb(db, {
          select: () => () => {
            throw new Error('secret detail of the failure');
          },
        }),
    });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const answer = await failing.call('/settings', { headers: { Cookie: `__Secure-svc_session=${'a'.repeat(43)}` } });
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(answer);
    const page = await answer.text();
    expect(page).toContain('<h1>Something went wrong</h1>');
    expect(page).not.toContain('secret detail');
  });
});
