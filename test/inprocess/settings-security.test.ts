import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccount, findAccountByEmail } from '../../src/accounts/store.ts';
import { accounts, apiKeys, documents, emailChanges, rateLimitWindows, sessions, signInLinks } from '../../src/db/schema.ts';
import { sha256Hex } from '../../src/hash.ts';
import { newToken } from '../../src/settings/tokens.ts';
import { BASE, createTestApp, interceptDb, type TestApp, withLimiterDown } from '../support/app.ts';
import { finalInvoice } from '../support/documents.ts';
import { createInbox, type Inbox } from '../support/inbox.ts';
import { csrfIn, formIdIn, PAGE_HEADERS, SettingsBrowser, secretIn } from '../support/settings-client.ts';

let app: TestApp;
let inbox: Inbox;
beforeEach(async () => {
  inbox = createInbox();
  app = await createTestApp({ mailer: inbox.mailer });
});

async function signedIn(email = `holder.${crypto.randomUUID()}@example.com`) {
  const browser = new SettingsBrowser(app);
  await browser.signUp(inbox, email);
  const account = (await findAccountByEmail(app.db, email))!;
  return { browser, account, email };
}

async function createKeyThrough(browser: SettingsBrowser, name = 'key') {
  const page = await browser.postSignedIn('/settings/keys', { name, kind: 'full' }, '/settings/keys');
  return { page, secret: secretIn(await page.clone().text()) };
}

function expectPageHeaders(response: Response, what: string) {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(response.headers.get(name), `${name} on ${what}`).toBe(value);
}

describe('Settings: security headers and markup', () => {
  it('sends the pages’ headers on every answer: pages, assets, redirects, refusals and errors', async () => {
    const { browser } = await signedIn();
    const signedOut = new SettingsBrowser(app);
    const answers: [string, Response][] = [];
    for (const path of ['/settings', '/settings/keys', '/settings/usage', '/settings/sign-in', '/settings/sign-up']) {
      answers.push([`GET ${path} signed in`, await browser.get(path)]);
      answers.push([`GET ${path} signed out`, await signedOut.get(path)]);
    }
    answers.push(['the stylesheet', await signedOut.get('/settings/assets/settings.css')]);
    answers.push(['the script', await signedOut.get('/settings/assets/settings.js')]);
    answers.push(['an expired link', await signedOut.get('/settings/sign-in/link?token=nope')]);
    answers.push([
      'a foreign origin',
      await browser.post('/settings/keys', { name: 'x', kind: 'full' }, { origin: 'https://evil.example' }),
    ]);
    answers.push(['a missing csrf', await browser.post('/settings/sign-out', {})]);
    answers.push(['a bad form', await signedOut.post('/settings/sign-in', { email: 'a', extra: 'b'.repeat(5000) })]);
    answers.push(['an unknown page', await signedOut.get('/settings/nowhere')]);
    answers.push(['a method the path lacks', await app.call('/settings/keys', { method: 'PUT' })]);
    answers.push(['a created key', (await createKeyThrough(browser)).page]);
    answers.push(['sign out', await browser.postSignedIn('/settings/sign-out')]);
    expect(answers.map(([, response]) => response.status)).toEqual([
      200, 303, 200, 303, 200, 303, 200, 200, 200, 200, 200, 200, 400, 403, 403, 400, 404, 405, 200, 303,
    ]);
    for (const [what, response] of answers) expectPageHeaders(response, what);
  });

  it('serves the stylesheet and script as files, and no page has inline script, style or event handlers', async () => {
    const { browser } = await signedIn();
    expect((await browser.get('/settings/assets/settings.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const script = await browser.get('/settings/assets/settings.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('navigator.clipboard');
    const pages = [
      await (await browser.get('/settings')).text(),
      await (await browser.get('/settings/keys')).text(),
      await (await browser.get('/settings/usage')).text(),
      await (await createKeyThrough(browser)).page.text(),
      await (await new SettingsBrowser(app).get('/settings/sign-in')).text(),
    ];
    for (const page of pages) {
      expect(page).toMatch(/^<!doctype html>/);
      expect(page).not.toMatch(/<style|style=|\son[a-z]+=/i);
      for (const tag of page.match(/<script[^>]*>/g) ?? []) expect(tag).toBe('<script src="/settings/assets/settings.js" defer>');
      expect(page).toContain('<link rel="stylesheet" href="/settings/assets/settings.css">');
    }
  });

  it('escapes what the account holder typed: a key name such as <script>', async () => {
    const { browser } = await signedIn();
    const name = '<script>alert("x")</script>&';
    const created = await (await createKeyThrough(browser, name)).page.text();
    const list = await (await browser.get('/settings/keys')).text();
    for (const page of [created, list]) {
      expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;');
      expect(page).not.toContain(name);
    }
    const filtered = await (await browser.get(`/settings/usage?reference=${encodeURIComponent('"><b>x')}`)).text();
    expect(filtered).toContain('value="&quot;&gt;&lt;b&gt;x"');
  });
});

describe('Settings: the session cookie', () => {
  it('is __Secure-svc_session, HttpOnly, Secure, SameSite=Lax, Path=/settings, for the 7 days of the session; cleared on sign-out', async () => {
    const browser = new SettingsBrowser(app);
    await browser.post('/settings/sign-up', { email: 'cookie@example.com' });
    const link = inbox.linkFor('cookie@example.com');
    const answer = await browser.post('/settings/sign-in/link', { token: SettingsBrowser.tokenOf(link) });
    expect(answer.headers.get('set-cookie')).toMatch(
      /^__Secure-svc_session=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Lax; Path=\/settings; Max-Age=604800$/,
    );
    const out = await browser.postSignedIn('/settings/sign-out');
    expect(out.headers.get('set-cookie')).toBe('__Secure-svc_session=; HttpOnly; Secure; SameSite=Lax; Path=/settings; Max-Age=0');
  });

  it('takes no session from a cookie without the __Secure- prefix, nor from two session cookies (one was planted)', async () => {
    const { browser } = await signedIn('planted.victim@example.com');
    const attacker = await signedIn('planted.attacker@example.com');
    const asVictim = (cookie: string) => app.call('/settings', { headers: { Cookie: cookie } });
    expect((await asVictim(`__Secure-svc_session=${browser.cookie}`)).status).toBe(200);
    expect((await asVictim(`svc_session=${browser.cookie}`)).status).toBe(303);
    for (const cookie of [
      `__Secure-svc_session=${attacker.browser.cookie}; __Secure-svc_session=${browser.cookie}`,
      `__Secure-svc_session=${browser.cookie}; __Secure-svc_session=${attacker.browser.cookie}`,
    ]) {
      const answer = await asVictim(cookie);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/settings/sign-in');
    }
  });

  it('sends Strict-Transport-Security on every Settings answer when the service is on https, and only then', async () => {
    const onHttps = await createTestApp({ mailer: inbox.mailer, env: { PUBLIC_BASE_URL: 'https://docs.example.com' } });
    for (const path of ['/settings/sign-in', '/settings', '/settings/assets/settings.css', '/settings/nowhere']) {
      expect((await onHttps.call(path)).headers.get('strict-transport-security'), path).toBe('max-age=31536000');
      expect((await app.call(path)).headers.get('strict-transport-security'), path).toBeNull();
    }
    expect((await onHttps.call('/api/v1/templates')).headers.get('strict-transport-security')).toBeNull();
  });

  it('is not accepted by the API: a request with only the cookie is 401, and the API sends no cookie', async () => {
    const { browser } = await signedIn();
    const { secret } = await createKeyThrough(browser);
    const cookie = `__Secure-svc_session=${browser.cookie}`;
    const refused = await app.call('/api/v1/account', { headers: { Cookie: cookie } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('unauthorized');
    const keyed = await app.call('/api/v1/account', { headers: { Cookie: cookie, Authorization: `Bearer ${secret}` } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('set-cookie')).toBeNull();
    expect(keyed.headers.get('content-security-policy')).toBeNull();
    const preflight = await app.call('/api/v1/templates', {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('keeps Settings out of the OpenAPI document', async () => {
    const document = await (await app.call('/api/v1/openapi.json')).json();
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/settings'))).toEqual([]);
  });
});

/** Every state-changing POST of Settings, as a signed-in browser would send it (without its csrf). */
async function stateChangingPosts(browser: SettingsBrowser, keyId: string) {
  await browser.post('/settings/sign-in', { email: 'x@example.com', csrf: csrfIn(await (await browser.get('/settings')).text()) });
  const [account] = await app.db.select().from(accounts);
  const token = SettingsBrowser.tokenOf(inbox.linkFor(account!.email));
  await browser.postSignedIn('/settings/account/email', { email: 'moved@example.com' }, '/settings/account');
  const changeLink = /^(http\S+)$/m.exec(inbox.messages.findLast((sent) => sent.to === 'moved@example.com')!.text)![1]!;
  return [
    ['/settings/account/email', { email: 'attacker@example.com' }],
    ['/settings/account/email/confirm', { token: SettingsBrowser.tokenOf(changeLink) }],
    ['/settings/account/delete', { email: account!.email }],
    ['/settings/keys', { name: 'forged', kind: 'full' }],
    [`/settings/keys/${keyId}/revoke`, {}],
    [`/settings/keys/${keyId}/regenerate`, {}],
    ['/settings/sign-out', {}],
    ['/settings/sign-out-everywhere', {}],
    ['/settings/sign-in', { email: 'victim@example.com' }],
    ['/settings/sign-up', { email: 'victim@example.com' }],
    ['/settings/sign-in/link', { token }],
  ] as const;
}

async function stateOf() {
  return JSON.stringify({
    accounts: await app.db.select().from(accounts),
    keys: await app.db.select().from(apiKeys),
    sessions: await app.db.select().from(sessions),
    links: (await app.db.select().from(signInLinks)).map((link) => [link.tokenHash, link.usedAt]),
    emailChanges: (await app.db.select().from(emailChanges)).map((change) => [change.tokenHash, change.usedAt]),
    mails: inbox.messages.length,
  });
}

describe('Settings: cross-site requests', () => {
  it('refuses every state-changing form without the session’s csrf token, or with a wrong one, and changes nothing', async () => {
    const { browser } = await signedIn('csrf@example.com');
    const other = await signedIn('csrf.other@example.com');
    await createKeyThrough(browser);
    const [key] = await app.db.select().from(apiKeys);
    const posts = await stateChangingPosts(browser, key!.id);
    const before = await stateOf();
    const foreignToken = csrfIn(await (await other.browser.get('/settings')).text());
    for (const [path, fields] of posts) {
      for (const csrf of [undefined, '', '0'.repeat(64), foreignToken]) {
        const answer = await browser.post(path, csrf === undefined ? fields : { ...fields, csrf });
        expect(answer.status, `${path} with csrf ${csrf}`).toBe(403);
        expect(await answer.text()).toContain('nothing was done');
      }
    }
    expect(await stateOf()).toBe(before);
  });

  it('refuses every POST without this service’s Origin, signed in or out, and changes nothing', async () => {
    const { browser } = await signedIn('origin@example.com');
    await createKeyThrough(browser);
    const [key] = await app.db.select().from(apiKeys);
    const posts = await stateChangingPosts(browser, key!.id);
    const csrf = csrfIn(await (await browser.get('/settings')).text());
    const before = await stateOf();
    const refusals: [string | null, Record<string, string>][] = [
      [null, {}],
      ['https://evil.example', {}],
      [`${new URL(BASE).origin}.evil.example`, {}],
      ['null', {}],
      ['null', { 'Sec-Fetch-Site': 'cross-site' }],
      ['null', { 'Sec-Fetch-Site': 'same-site' }],
    ];
    for (const [path, fields] of posts) {
      for (const [origin, headers] of refusals) {
        const answer = await browser.post(path, { ...fields, csrf }, { origin, headers });
        expect(answer.status, `${path} from ${origin} ${JSON.stringify(headers)}`).toBe(403);
      }
      const signedOut = await new SettingsBrowser(app).post(path, fields, { origin: 'https://evil.example' });
      expect(signedOut.status, `${path} signed out`).toBe(403);
    }
    expect(await stateOf()).toBe(before);
  });

  it('takes a form sent with Origin: null when Sec-Fetch-Site says it came from this origin (what Referrer-Policy: no-referrer makes browsers send)', async () => {
    const { browser } = await signedIn();
    const form = await (await browser.get('/settings/keys')).text();
    const answer = await browser.post(
      '/settings/keys',
      { name: 'n', kind: 'full', csrf: csrfIn(form), form_id: formIdIn(form) },
      { origin: 'null', headers: { 'Sec-Fetch-Site': 'same-origin' } },
    );
    expect(answer.status).toBe(200);
  });

  it('compares the Origin with PUBLIC_BASE_URL when it is set', async () => {
    const behindProxy = await createTestApp({ mailer: inbox.mailer, env: { PUBLIC_BASE_URL: 'https://docs.example.com' } });
    const browser = new SettingsBrowser(behindProxy);
    expect((await browser.post('/settings/sign-up', { email: 'p@example.com' })).status).toBe(403);
    expect((await browser.post('/settings/sign-up', { email: 'p@example.com' }, { origin: 'https://docs.example.com' })).status).toBe(200);
    expect(inbox.linkFor('p@example.com')).toMatch(/^https:\/\/docs\.example\.com\/settings\/sign-in\/link\?token=/);
  });
});

describe('Settings: the link in the mail', () => {
  it('points at PUBLIC_BASE_URL, never at the host a request names (Host and Origin are the client’s to choose)', async () => {
    const behindProxy = await createTestApp({ mailer: inbox.mailer, env: { PUBLIC_BASE_URL: 'https://docs.example.com' } });
    await createAccount(behindProxy.db, { email: 'victim@example.com', plan: 'free', emailConfirmed: true, now: behindProxy.clock.now() });
    const spoofed = (origin: string) =>
      behindProxy.fetch(
        new Request('http://evil.example/settings/sign-in', {
          method: 'POST',
          headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'email=victim%40example.com',
        }),
      );
    expect((await spoofed('http://evil.example')).status).toBe(403);
    expect(inbox.messages).toEqual([]);
    expect((await spoofed('https://docs.example.com')).status).toBe(200);
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]!.text).not.toContain('evil.example');
    expect(inbox.linkFor('victim@example.com')).toMatch(/^https:\/\/docs\.example\.com\/settings\/sign-in\/link\?token=/);
  });
});

describe('Settings: a forwarded sign-in link (login CSRF)', () => {
  const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

  it('names the account the link signs in to, masked, and says when it would end another account’s session', async () => {
    const attacker = new SettingsBrowser(app);
    await attacker.post('/settings/sign-up', { email: 'mallory@example.com' });
    const forwarded = pathOf(inbox.linkFor('mallory@example.com'));
    const signedOutView = await (await new SettingsBrowser(app).get(forwarded)).text();
    expect(signedOutView).toContain('Sign in to Settings as <strong>m•••@example.com</strong>');
    expect(signedOutView).not.toContain('mallory@example.com');
    expect(signedOutView).not.toContain('You are signed in as');

    const { browser: victim } = await signedIn('victim@example.com');
    const victimView = await (await victim.get(forwarded)).text();
    expect(victimView).toContain(
      'You are signed in as <strong>victim@example.com</strong>. Signing in with this link ends that session and signs you in as m•••@example.com instead.',
    );
    const mallorysLink = (await app.db.select().from(signInLinks)).find((link) => link.usedAt === null);
    expect(mallorysLink).toBeDefined();

    await victim.post('/settings/sign-in', { email: 'victim@example.com', csrf: csrfIn(await (await victim.get('/settings')).text()) });
    const ownView = await (await victim.get(pathOf(inbox.linkFor('victim@example.com')))).text();
    expect(ownView).toContain('Sign in to Settings as <strong>v•••@example.com</strong>');
    expect(ownView).not.toContain('You are signed in as');
  });
});

describe('Settings: forms that are no forms', () => {
  it('answers 400 pages, never 500: wrong type, too large, a field twice, bytes that are no UTF-8', async () => {
    const browser = new SettingsBrowser(app);
    const origin = new URL(BASE).origin;
    const send = (body: BodyInit, contentType: string) =>
      app.fetch(
        new Request(`${BASE}/settings/sign-in`, { method: 'POST', headers: { Origin: origin, 'Content-Type': contentType }, body }),
      );
    const answers = [
      await send('{"email":"a@example.com"}', 'application/json'),
      await send(`email=${'a'.repeat(5000)}`, 'application/x-www-form-urlencoded'),
      await send('email=a@example.com&email=b@example.com', 'application/x-www-form-urlencoded'),
      await send(new Uint8Array([0x65, 0x3d, 0xff, 0xfe]), 'application/x-www-form-urlencoded'),
      await browser.post('/settings/sign-in', {}),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    expect(inbox.messages).toEqual([]);
  });
});

describe('Settings: keys', () => {
  it('refuses to revoke or regenerate another account’s key, in the SQL, and leaves it active', async () => {
    const owner = await signedIn('owner@example.com');
    const { secret } = await createKeyThrough(owner.browser);
    const [key] = await app.db.select().from(apiKeys);
    const intruder = await signedIn('intruder@example.com');
    for (const action of ['revoke', 'regenerate']) {
      const answer = await intruder.browser.postSignedIn(`/settings/keys/${key!.id}/${action}`);
      expect(answer.status).toBe(404);
      const page = await answer.text();
      expect(page).not.toContain('svc_live_');
      expect(page).toContain('<nav aria-label="Settings">');
    }
    expect(await app.db.select().from(apiKeys)).toEqual([key]);
    expect((await app.call('/api/v1/account', { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);
  });

  it('allows 3 active keys: the form says why there is no fourth, and the POST refuses with the same sentence', async () => {
    const { browser } = await signedIn();
    for (const name of ['a', 'b', 'c']) expect((await createKeyThrough(browser, name)).page.status).toBe(200);
    const sentence = 'You have 3 active keys, the most an account can have: revoke one to create another.';
    const form = await (await browser.get('/settings/keys')).text();
    expect(form).toContain(sentence);
    expect(form).not.toContain('Create key</button>');
    // Sent from a form another tab still shows.
    const refused = await browser.post('/settings/keys', { name: 'd', kind: 'full', csrf: csrfIn(form), form_id: newToken() });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(sentence);
    expect(await app.db.select().from(apiKeys)).toHaveLength(3);
  });

  it('refuses a key while the email address is not confirmed, with the sentence on the form and the POST', async () => {
    const { browser, account } = await signedIn();
    await app.db.update(accounts).set({ emailConfirmed: false }).where(eq(accounts.id, account.id));
    const sentence = 'Your email address is not confirmed yet';
    const form = await (await browser.get('/settings/keys')).text();
    expect(form).toContain(sentence);
    // Sent from a form another tab still shows.
    const refused = await browser.post('/settings/keys', { name: 'd', kind: 'full', csrf: csrfIn(form), form_id: newToken() });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(sentence);
    expect(await app.db.select().from(apiKeys)).toEqual([]);
  });

  it('refuses a key name that is empty, too long or holds control characters, and an unknown kind (400)', async () => {
    const { browser } = await signedIn();
    for (const fields of [
      { name: ' ', kind: 'full' },
      { name: 'n'.repeat(65), kind: 'full' },
      { name: 'a\u0000b', kind: 'full' },
      { name: 'ok', kind: 'admin' },
    ]) {
      expect((await browser.postSignedIn('/settings/keys', fields, '/settings/keys')).status).toBe(400);
    }
    expect(await app.db.select().from(apiKeys)).toEqual([]);
  });
});

describe('Settings: secrets', () => {
  let lines: string[];
  afterEach(() => vi.restoreAllMocks());

  it('shows a key’s secret in exactly one answer: not in a redirect, a log line or the database', async () => {
    const logged = await createTestApp({ mailer: inbox.mailer, config: { logRequests: true } });
    lines = [];
    const capture = (...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    };
    vi.spyOn(console, 'log').mockImplementation(capture);
    vi.spyOn(console, 'error').mockImplementation(capture);
    vi.spyOn(console, 'warn').mockImplementation(capture);
    const browser = new SettingsBrowser(logged);
    const answers: Response[] = [];
    const record = (response: Response) => {
      answers.push(response.clone());
      return response;
    };
    record(await browser.post('/settings/sign-up', { email: 'secret@example.com' }));
    const link = inbox.linkFor('secret@example.com');
    const token = SettingsBrowser.tokenOf(link);
    record(await browser.get(new URL(link).pathname + new URL(link).search));
    record(await browser.post('/settings/sign-in/link', { token }));
    const cookie = browser.cookie!;
    const keysPage = record(await browser.get('/settings/keys'));
    const form = await keysPage.clone().text();
    const created = record(await browser.post('/settings/keys', { name: 'k', kind: 'full', csrf: csrfIn(form), form_id: formIdIn(form) }));
    const secret = secretIn(await created.clone().text())!;
    expect(created.headers.get('cache-control')).toBe('no-store');
    const made = await logged.call('/api/v1/documents', {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(finalInvoice()),
    });
    expect(made.status).toBe(201);
    for (const path of ['/settings', '/settings/keys', '/settings/usage']) record(await browser.get(path));
    const [key] = await logged.db.select().from(apiKeys);
    const regenerated = record(await browser.postSignedIn(`/settings/keys/${key!.id}/regenerate`, {}, '/settings/keys'));
    const secondSecret = secretIn(await regenerated.clone().text())!;
    record(await browser.postSignedIn('/settings/sign-out'));

    const texts = await Promise.all(answers.map(async (answer) => ({ answer, text: await answer.text() })));
    expect(texts.filter(({ text }) => text.includes(secret))).toHaveLength(1);
    expect(texts.filter(({ text }) => text.includes(secondSecret))).toHaveLength(1);
    for (const { answer } of texts) {
      const headers = JSON.stringify([...answer.headers]);
      for (const hidden of [secret, secondSecret, token]) expect(headers).not.toContain(hidden);
    }
    expect(lines.length).toBeGreaterThan(5);
    for (const hidden of [secret, secondSecret, token, cookie, sha256Hex(cookie), 'secret@example.com']) {
      expect(lines.join('\n')).not.toContain(hidden);
    }
    const tables = [accounts, apiKeys, documents, sessions, signInLinks, rateLimitWindows];
    const dump = JSON.stringify(await Promise.all(tables.map((table) => logged.db.select().from(table))));
    for (const hidden of [secret, secondSecret, token, cookie]) expect(dump).not.toContain(hidden);
  });
});

describe('Settings: sign-in emails are rate-limited', () => {
  let limited: TestApp;
  beforeEach(async () => {
    limited = await createTestApp({ mailer: inbox.mailer, config: { rateLimitsEnabled: true } });
  });

  it('per address from one network: 5 an hour whatever the letter case, counted for unknown addresses too, the limits shown on a 429 page', async () => {
    const asks = ['Limit@example.com', 'limit@example.com', 'LIMIT@example.com', 'limit@Example.com', 'limit@example.com'];
    const fromAttacker = () => new SettingsBrowser(limited, '203.0.113.5');
    for (const email of asks) expect((await fromAttacker().post('/settings/sign-in', { email })).status).toBe(200);
    const refused = await fromAttacker().post('/settings/sign-in', { email: 'limit@example.com' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(3600);
    expectPageHeaders(refused, 'the 429 page');
    const text = await refused.text();
    expect(text).toContain(
      'at most 5 sign-in emails an hour to one address asked for from one network, 20 an hour to one address in all, and 20 an hour to one network',
    );
    expect(text).toContain('Try again in 60 minutes');
    expect((await fromAttacker().post('/settings/sign-up', { email: 'LIMIT@EXAMPLE.COM' })).status).toBe(429);
    expect(await limited.db.select().from(accounts)).toEqual([]);

    const buckets = (await limited.db.select().from(rateLimitWindows)).map((row) => row.bucket);
    expect(buckets).toContain(`sign-in-mail:address:${sha256Hex('limit@example.com')}`);
    expect(buckets).toContain(`sign-in-mail:address-network:${sha256Hex('limit@example.com')}:203.0.113.5`);
    expect(buckets.join(' ')).not.toMatch(/@|limit@/i);

    limited.clock.advance(60 * 60_000);
    expect((await fromAttacker().post('/settings/sign-in', { email: 'limit@example.com' })).status).toBe(200);
  });

  it('does not lock the holder of an address out: links asked for from another network still go out', async () => {
    await createAccount(limited.db, { email: 'victim@example.com', plan: 'free', emailConfirmed: true, now: limited.clock.now() });
    for (let index = 0; index < 6; index++)
      await new SettingsBrowser(limited, '203.0.113.5').post('/settings/sign-in', { email: 'victim@example.com' });
    const victim = new SettingsBrowser(limited, '198.51.100.20');
    expect((await victim.post('/settings/sign-in', { email: 'victim@example.com' })).status).toBe(200);
    expect((await victim.useLink(inbox, 'victim@example.com')).status).toBe(303);
  });

  it('per address from all networks together: 20 an hour', async () => {
    for (const network of [1, 2, 3, 4]) {
      for (let index = 0; index < 5; index++) {
        expect(
          (await new SettingsBrowser(limited, `192.0.2.${network}`).post('/settings/sign-in', { email: 'many@example.com' })).status,
        ).toBe(200);
      }
    }
    expect((await new SettingsBrowser(limited, '192.0.2.5').post('/settings/sign-in', { email: 'many@example.com' })).status).toBe(429);
    expect((await new SettingsBrowser(limited, '192.0.2.5').post('/settings/sign-in', { email: 'other@example.com' })).status).toBe(200);
  });

  it('per network: 20 an hour from one network, other networks unaffected', async () => {
    const browser = new SettingsBrowser(limited, '2001:db8:1:2::1');
    for (let index = 0; index < 20; index++) {
      expect((await browser.post('/settings/sign-up', { email: `n${index}@example.com` })).status).toBe(200);
    }
    const sameNetwork = new SettingsBrowser(limited, '2001:db8:1:2::ffff');
    expect((await sameNetwork.post('/settings/sign-in', { email: 'n0@example.com' })).status).toBe(429);
    expect((await new SettingsBrowser(limited, '2001:db8:9:9::1').post('/settings/sign-in', { email: 'n0@example.com' })).status).toBe(200);
    expect(inbox.messages).toHaveLength(21);
  });

  it('sends no mail when the limiter cannot be reached: a 503 page with Retry-After', async () => {
    const limiterDown = await createTestApp({ mailer: inbox.mailer, config: { rateLimitsEnabled: true }, wrapDb: withLimiterDown });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const answer = await new SettingsBrowser(limiterDown).post('/settings/sign-in', { email: 'down@example.com' });
    vi.restoreAllMocks();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(answer, 'the 503 page');
    expect(await answer.text()).toContain('<h1>The service is busy</h1>');
    expect(inbox.messages).toEqual([]);
  });

  it('leaves the API’s failed-sign-in limit as it is: a session cookie is no key and counts as a failure there', async () => {
    const answers = [];
    for (let index = 0; index < 21; index++) {
      answers.push(
        (
          await limited.fetch(new Request(`${BASE}/api/v1/account`, { headers: { Cookie: '__Secure-svc_session=x' } }), {
            clientAddress: '192.0.2.1',
          })
        ).status,
      );
    }
    expect(answers.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(answers[20]).toBe(429);
  });
});

describe('Settings: asking for a link tells nothing of who has an account', () => {
  it('points the link at the address the server was started on without PUBLIC_BASE_URL, never at the request’s Host', async () => {
    const app = await createTestApp({ mailer: inbox.mailer });
    await createAccount(app.db, { email: 'host@example.com', plan: 'free', emailConfirmed: true, now: app.clock.now() });
    const answer = await app.fetch(
      new Request('http://evil.example:18791/settings/sign-in', {
        method: 'POST',
        headers: { Origin: 'http://evil.example:18791', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'email=host%40example.com',
      }),
    );
    expect(answer.status).toBe(200);
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]!.text).not.toContain('evil.example');
    expect(inbox.linkFor('host@example.com').startsWith(`${new URL(BASE).origin}/settings/sign-in/link?token=`)).toBe(true);
  });

  it('does the same work before answering for a known and an unknown address, sign-in and sign-up alike', async () => {
    const done: string[] = [];
    const record =
      (kind: string) =>
      (real: (...args: never[]) => unknown) =>
      (...args: never[]) => {
        done.push(kind);
        return real(...args);
      };
    const app = await createTestApp({
      mailer: inbox.mailer,
      awaitBackgroundTasks: false,
      wrapDb: (db) =>
        interceptDb(db, { batch: record('batch') as never, insert: record('insert'), select: record('select'), run: record('run') }),
    });
    await createAccount(app.db, { email: 'known@example.com', plan: 'free', emailConfirmed: true, now: app.clock.now() });
    const held: Promise<unknown>[] = [];
    const workBeforeAnswer = async (path: string, email: string) => {
      done.length = 0;
      const answer = await app.fetch(
        new Request(`${BASE}${path}`, {
          method: 'POST',
          headers: { Origin: new URL(BASE).origin, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email }).toString(),
        }),
        { clientAddress: '198.51.100.9', waitUntil: (task) => held.push(task) },
      );
      expect(answer.status).toBe(200);
      return [...done];
    };
    for (const path of ['/settings/sign-in', '/settings/sign-up']) {
      const known = await workBeforeAnswer(path, 'known@example.com');
      const unknown = await workBeforeAnswer(path, `nobody.${crypto.randomUUID()}@example.com`);
      expect(known, path).toEqual(unknown);
      // Nothing of the link is made before the answer: no sign-in link row yet, no account for the new address.
      expect(await app.db.select().from(signInLinks)).toEqual([]);
    }
    await Promise.all(held);
    expect(inbox.messages.filter((message) => message.to === 'known@example.com')).toHaveLength(2);
    expect(await app.db.select().from(signInLinks)).toHaveLength(3);
  });
});
