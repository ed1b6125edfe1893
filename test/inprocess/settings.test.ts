import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccount, findAccountByEmail } from '../../src/accounts/store.ts';
import type { Connection } from '../../src/app.ts';
import { accounts, apiKeys, documents, sessions, signInLinks } from '../../src/db/schema.ts';
import { purgeExpired } from '../../src/documents/retention.ts';
import { sha256Hex } from '../../src/hash.ts';
import { defineRoute } from '../../src/http/route.ts';
import { ROUTES } from '../../src/routes/index.ts';
import { SESSION_LIFETIME_MS } from '../../src/settings/sessions.ts';
import { BASE, createTestApp, type TestApp } from '../support/app.ts';
import { finalInvoice } from '../support/documents.ts';
import { createInbox, type Inbox } from '../support/inbox.ts';
import { csrfIn, formIdIn, SettingsBrowser, secretIn } from '../support/settings-client.ts';

let app: TestApp;
let inbox: Inbox;
beforeEach(async () => {
  inbox = createInbox();
  app = await createTestApp({ mailer: inbox.mailer });
});

function makeDocument(key: string, reference?: string) {
  return app.call('/api/v1/documents', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(finalInvoice({}, reference ? { reference } : {})),
  });
}

describe('Settings: the whole path of a new customer', () => {
  it('signs up, confirms by the link, creates a key that works, sees the document and the credit gone, revokes it, signs out', async () => {
    const browser = new SettingsBrowser(app);
    const email = 'new.customer@example.com';

    const signedOut = await browser.get('/settings');
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('Location')).toBe('/settings/sign-in');
    const form = await (await browser.get('/settings/sign-up')).text();
    expect(form).toContain('<label for="email">Email address</label>');
    expect(form).toMatch(/<button type="submit">Sign up<\/button>/);

    const checkEmail = await browser.post('/settings/sign-up', { email });
    expect(checkEmail.status).toBe(200);
    expect(await checkEmail.text()).toContain('<h1>Check your email</h1>');
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]).toMatchObject({ to: email, subject: 'Your sign-in link' });
    const link = inbox.linkFor(email);
    expect(link).toMatch(/^http:\/\/[^/]+\/settings\/sign-in\/link\?token=[A-Za-z0-9_-]{43}$/);
    const account = await findAccountByEmail(app.db, email);
    expect(account).toMatchObject({ plan: 'free', emailConfirmed: false, creditsRemaining: 50 });

    // Opening the link (as a mail scanner would) spends nothing: only the button does.
    const linkPage = await browser.get(new URL(link).pathname + new URL(link).search);
    expect(linkPage.status).toBe(200);
    const linkHtml = await linkPage.text();
    expect(linkHtml).toContain('<h1>Sign in</h1>');
    expect(linkHtml).toContain('<button type="submit">Sign in</button>');
    expect((await app.db.select().from(signInLinks))[0]!.usedAt).toBeNull();

    const signedIn = await browser.post('/settings/sign-in/link', { token: SettingsBrowser.tokenOf(link) });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('Location')).toBe('/settings');
    expect(browser.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await findAccountByEmail(app.db, email))!.emailConfirmed).toBe(true);

    const overview = await (await browser.get('/settings')).text();
    expect(overview).toContain(email);
    expect(overview).toContain('<dt>Plan</dt><dd>Free</dd>');
    expect(overview).toContain('50 of 50 this period');
    for (const name of ['Overview', 'API keys', 'Usage']) expect(overview).toContain(`>${name}</a>`);

    const created = await browser.postSignedIn('/settings/keys', { name: 'CI server', kind: 'full' }, '/settings/keys');
    expect(created.status).toBe(200);
    const secret = secretIn(await created.text());
    expect(secret).toMatch(/^svc_live_/);

    const made = await makeDocument(secret!, 'INV-2026-001');
    expect(made.status).toBe(201);
    const documentId = made.headers.get('Svc-Document-Id')!;

    const usage = await (await browser.get('/settings/usage')).text();
    expect(usage).toContain(documentId);
    expect(usage).toContain('INV-2026-001');
    expect(usage).toContain('49 of 50 this period');

    const keysPage = await (await browser.get('/settings/keys')).text();
    expect(keysPage).toContain(
      '<th scope="row" role="rowheader" data-label="Name">CI server</th><td role="cell" data-label="Kind">Full access</td>',
    );
    const [key] = await app.db.select().from(apiKeys).where(eq(apiKeys.accountId, account!.id));
    const revoked = await browser.post(`/settings/keys/${key!.id}/revoke`, { csrf: csrfIn(keysPage) });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('Location')).toBe('/settings/keys');
    expect((await makeDocument(secret!)).status).toBe(401);
    expect(await (await browser.get('/settings/keys')).text()).toMatch(/Revoked <time/);

    const signOut = await browser.postSignedIn('/settings/sign-out');
    expect(signOut.status).toBe(303);
    expect(signOut.headers.get('Location')).toBe('/settings/sign-in');
    expect(browser.cookie).toBeUndefined();
    expect(await app.db.select().from(sessions)).toEqual([]);
    expect((await browser.get('/settings')).status).toBe(303);
  });

  it('regenerates a key: the new secret works once shown, the old one is refused', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'regen@example.com');
    const first = secretIn(await (await browser.postSignedIn('/settings/keys', { name: 'k', kind: 'preview' }, '/settings/keys')).text())!;
    const [key] = await app.db.select().from(apiKeys);
    const regenerated = await browser.postSignedIn(`/settings/keys/${key!.id}/regenerate`, {}, '/settings/keys');
    expect(regenerated.status).toBe(200);
    const second = secretIn(await regenerated.text())!;
    expect(second).not.toBe(first);
    expect((await app.call('/api/v1/account', { headers: { Authorization: `Bearer ${first}` } })).status).toBe(401);
    const account = await app.call('/api/v1/account', { headers: { Authorization: `Bearer ${second}` } });
    expect((await account.json()).key).toMatchObject({ name: 'k', scopes: ['documents:preview', 'documents:read', 'account:read'] });
  });

  it('makes one key of a create form sent twice (the new-key page reloaded), and says so the second time', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'reload@example.com');
    const form = await (await browser.get('/settings/keys')).text();
    const fields = { csrf: csrfIn(form), form_id: formIdIn(form), name: 'twice', kind: 'full' };
    const first = await browser.post('/settings/keys', fields);
    expect(first.status).toBe(200);
    expect(secretIn(await first.text())).toBeDefined();
    const again = await browser.post('/settings/keys', fields);
    expect(again.status).toBe(409);
    const page = await again.text();
    expect(page).toContain('This form was already sent');
    expect(secretIn(page)).toBeUndefined();
    expect(await app.db.select().from(apiKeys)).toHaveLength(1);

    const another = await (await browser.get('/settings/keys')).text();
    expect(formIdIn(another)).not.toBe(fields.form_id);
    expect((await browser.post('/settings/keys', { ...fields, form_id: formIdIn(another) })).status).toBe(200);
    expect(await app.db.select().from(apiKeys)).toHaveLength(2);
    const stale = await browser.post('/settings/keys', { csrf: fields.csrf, name: 'no form id', kind: 'full' });
    expect(stale.status).toBe(400);
    expect(await app.db.select().from(apiKeys)).toHaveLength(2);
  });
});

describe('Settings: sign-in links', () => {
  it('sign in to an existing account by a link; an unknown address gets the same page and no mail', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'known@example.com');
    await browser.postSignedIn('/settings/sign-out');
    const known = await browser.post('/settings/sign-in', { email: 'KNOWN@example.com' });
    const unknown = await browser.post('/settings/sign-in', { email: 'nobody@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const knownText = (await known.text()).replace('KNOWN@example.com', 'X');
    expect((await unknown.text()).replace('nobody@example.com', 'X')).toBe(knownText);
    expect(inbox.messages.map((message) => message.to)).toEqual(['known@example.com', 'known@example.com']);
    expect((await browser.useLink(inbox, 'known@example.com')).status).toBe(303);
  });

  it('uses a link once: two uses at once start one session', async () => {
    const browser = new SettingsBrowser(app);
    await browser.post('/settings/sign-up', { email: 'race@example.com' });
    const token = SettingsBrowser.tokenOf(inbox.linkFor('race@example.com'));
    const answers = await Promise.all([1, 2, 3, 4].map(() => new SettingsBrowser(app).post('/settings/sign-in/link', { token })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 400, 400, 400]);
    expect(await app.db.select().from(sessions)).toHaveLength(1);
    const again = await new SettingsBrowser(app).post('/settings/sign-in/link', { token });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('This sign-in link has expired or was already used');
  });

  it('expires a link after 15 minutes', async () => {
    const browser = new SettingsBrowser(app);
    await browser.post('/settings/sign-up', { email: 'late@example.com' });
    const link = inbox.linkFor('late@example.com');
    app.clock.advance(15 * 60_000);
    const page = await browser.get(new URL(link).pathname + new URL(link).search);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('This sign-in link has expired or was already used');
    expect((await browser.post('/settings/sign-in/link', { token: SettingsBrowser.tokenOf(link) })).status).toBe(400);
    expect(await app.db.select().from(sessions)).toEqual([]);
    expect((await findAccountByEmail(app.db, 'late@example.com'))!.emailConfirmed).toBe(false);
  });

  it('takes a link up to the last millisecond of its 15 minutes', async () => {
    const browser = new SettingsBrowser(app);
    await browser.post('/settings/sign-up', { email: 'just@example.com' });
    app.clock.advance(15 * 60_000 - 1);
    expect((await browser.useLink(inbox, 'just@example.com')).status).toBe(303);
  });

  it('voids the account’s other unused links once one is used', async () => {
    const browser = new SettingsBrowser(app);
    await browser.post('/settings/sign-up', { email: 'two@example.com' });
    const older = SettingsBrowser.tokenOf(inbox.linkFor('two@example.com'));
    await browser.post('/settings/sign-in', { email: 'two@example.com' });
    expect((await browser.useLink(inbox, 'two@example.com')).status).toBe(303);
    expect((await new SettingsBrowser(app).post('/settings/sign-in/link', { token: older })).status).toBe(400);
  });

  it('answers an unknown or malformed token with the expired page, never a 500', async () => {
    const browser = new SettingsBrowser(app);
    for (const query of ['', '?token=', '?token=abc', `?token=${'A'.repeat(43)}`, '?token=%FF%00']) {
      expect((await browser.get(`/settings/sign-in/link${query}`)).status).toBe(400);
    }
    expect((await browser.post('/settings/sign-in/link', { token: 'x' })).status).toBe(400);
    expect((await browser.post('/settings/sign-in/link', {})).status).toBe(400);
  });

  it('stores links and sessions only as SHA-256 hashes', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'hashes@example.com');
    const token = SettingsBrowser.tokenOf(inbox.linkFor('hashes@example.com'));
    const [link] = await app.db.select().from(signInLinks);
    expect(link!.tokenHash).toBe(sha256Hex(token));
    const [session] = await app.db.select().from(sessions);
    expect(session!.tokenHash).toBe(sha256Hex(browser.cookie!));
    expect(session!.expiresAt - session!.createdAt).toBe(SESSION_LIFETIME_MS);
    const dump = JSON.stringify([await app.db.select().from(signInLinks), await app.db.select().from(sessions)]);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(browser.cookie!);
  });
});

describe('Settings: accounts', () => {
  it('keeps one account per address: signing up twice in different letter case mails the one account', async () => {
    const browser = new SettingsBrowser(app);
    expect((await browser.post('/settings/sign-up', { email: 'Twice@Example.com' })).status).toBe(200);
    expect((await browser.post('/settings/sign-up', { email: 'twice@example.com' })).status).toBe(200);
    const rows = await app.db.select().from(accounts).where(sql`lower(${accounts.email}) = 'twice@example.com'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.email).toBe('Twice@Example.com');
    expect(inbox.messages.map((message) => message.to)).toEqual(['Twice@Example.com', 'Twice@Example.com']);
  });

  it('is invite-only with SIGN_UP_ENABLED=false: no sign-up page or account, and operators’ accounts sign in the same way', async () => {
    const closed = await createTestApp({ mailer: inbox.mailer, env: { SIGN_UP_ENABLED: 'false' } });
    const browser = new SettingsBrowser(closed);
    const page = await browser.get('/settings/sign-up');
    expect(page.status).toBe(404);
    const text = await page.text();
    expect(text).toContain('Sign-up is by invitation');
    expect(text).not.toContain('<form method="post" action="/settings/sign-up"');
    expect((await browser.post('/settings/sign-up', { email: 'walk-in@example.com' })).status).toBe(404);
    expect(await closed.db.select().from(accounts)).toEqual([]);
    expect(await (await browser.get('/settings/sign-in')).text()).not.toContain('href="/settings/sign-up"');

    const { createAccount } = await import('../../src/accounts/store.ts');
    await createAccount(closed.db, { email: 'invited@example.com', plan: 'starter', emailConfirmed: false, now: closed.clock.now() });
    expect((await browser.post('/settings/sign-in', { email: 'invited@example.com' })).status).toBe(200);
    expect((await browser.useLink(inbox, 'invited@example.com')).status).toBe(303);
    expect(await (await browser.get('/settings')).text()).toContain('<dt>Plan</dt><dd>Starter</dd>');
  });

  it('answers sign-in and sign-up with a clear 503 page when no mail transport is configured', async () => {
    const noMail = await createTestApp();
    const browser = new SettingsBrowser(noMail);
    for (const path of ['/settings/sign-in', '/settings/sign-up']) {
      const answer = await browser.post(path, { email: 'someone@example.com' });
      expect(answer.status).toBe(503);
      expect(await answer.text()).toContain('Sign-in by email is not configured on this server');
    }
    expect(await noMail.db.select().from(accounts)).toEqual([]);
  });
});

describe('Settings: the mail goes out after the answer, which tells nothing of who has an account', () => {
  afterEach(() => vi.restoreAllMocks());

  /** The page for an address, with the address taken out (the page repeats it). */
  async function pageFor(target: TestApp, path: string, email: string, connection: Connection = {}) {
    const request = new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { Origin: new URL(BASE).origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    });
    const answer = await target.fetch(request, connection);
    return { status: answer.status, text: (await answer.text()).replace(email, 'X') };
  }

  it('answers an existing and an unknown address at once with the same page, even when the mail server never answers', async () => {
    const sent: string[] = [];
    const hanging = await createTestApp({
      awaitBackgroundTasks: false,
      mailer: {
        send: (message) => {
          sent.push(message.to);
          return new Promise(() => {});
        },
      },
    });
    await createAccount(hanging.db, { email: 'known@example.com', plan: 'free', emailConfirmed: true, now: hanging.clock.now() });
    const known = await pageFor(hanging, '/settings/sign-in', 'known@example.com');
    const unknown = await pageFor(hanging, '/settings/sign-in', 'nobody@example.com');
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    expect(known.text).toContain('<h1>Check your email</h1>');
    const existing = await pageFor(hanging, '/settings/sign-up', 'known@example.com');
    const created = await pageFor(hanging, '/settings/sign-up', 'new@example.com');
    expect(created).toEqual(existing);
    expect(existing).toEqual(known);
    await vi.waitFor(() => expect(sent).toEqual(['known@example.com', 'known@example.com', 'new@example.com']));
  });

  it('hands the sending to the runtime’s waitUntil when it has one (the Worker’s ctx.waitUntil), and answers first', async () => {
    const hanging = await createTestApp({ awaitBackgroundTasks: false, mailer: { send: () => new Promise(() => {}) } });
    await createAccount(hanging.db, { email: 'known@example.com', plan: 'free', emailConfirmed: true, now: hanging.clock.now() });
    const handed: Promise<unknown>[] = [];
    const waitUntil = (task: Promise<unknown>) => handed.push(task);
    const known = await pageFor(hanging, '/settings/sign-in', 'known@example.com', { waitUntil });
    expect(known.status).toBe(200);
    expect(handed).toHaveLength(1);
    expect(await pageFor(hanging, '/settings/sign-in', 'nobody@example.com', { waitUntil })).toEqual(known);
  });

  it('answers the same page when the mail server refuses the message, and logs the failure without the address or the link', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const failing = await createTestApp({
      awaitBackgroundTasks: false,
      mailer: {
        send: async (message) => {
          throw new Error(`550 <${message.to.toUpperCase()}>: mailbox unavailable (${message.text})`);
        },
      },
    });
    await createAccount(failing.db, { email: 'bounce@example.com', plan: 'free', emailConfirmed: true, now: failing.clock.now() });
    const known = await pageFor(failing, '/settings/sign-in', 'bounce@example.com');
    expect(known.status).toBe(200);
    expect(await pageFor(failing, '/settings/sign-in', 'nobody@example.com')).toEqual(known);
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      level: 'error',
      error: expect.stringMatching(/^Your sign-in link: mail not sent: Error: 550 <<recipient>>: mailbox unavailable/),
    });
    expect(lines[0]).not.toMatch(/bounce@example\.com/i);
    expect(lines[0]).toContain('token=<token>');
    expect(lines[0]).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it('logs a task that fails after the answer as one line without its message (which could name an address)', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const background = defineRoute({
      method: 'GET',
      path: '/settings/background-probe',
      access: { kind: 'public' },
      versioned: false,
      doc: { operationId: 'probe', summary: 'probe', description: 'probe', tag: 'Meta', responses: {} },
      handle(context) {
        context.waitUntil(Promise.reject(new Error('550 <victim@example.com> token=abc')));
        return new Response('answered');
      },
    });
    const probe = await createTestApp({ awaitBackgroundTasks: false, routes: [...ROUTES, background] });
    expect(await (await probe.call('/settings/background-probe')).text()).toBe('answered');
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', error: 'a task after the answer failed' });
    expect(lines[0]).not.toContain('victim@example.com');
    expect(lines[0]).not.toContain('token=abc');
  });
});

describe('Settings: addresses', () => {
  it('refuses an address that is none with the form again (400)', async () => {
    const browser = new SettingsBrowser(app);
    const controls = ['a\u0000b@example.com', 'a\u007fb@example.com', 'ab@example.com\u0085', 'a\u0009b@example.com'];
    const noMailbox = ['a:b@example.com', 'a[b]@example.com', 'a@exämple.com', 'a@[192.0.2.1]', 'a@example.com:25'];
    for (const email of [
      '',
      'no-at-sign',
      'a@b',
      'two@@example.com',
      'space @example.com',
      `${'a'.repeat(250)}@example.com`,
      ...controls,
      ...noMailbox,
    ]) {
      const answer = await browser.post('/settings/sign-up', { email });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('Enter your email address');
    }
    expect(inbox.messages).toEqual([]);
  });
});

describe('Settings: sessions', () => {
  it('rotates the session at each sign-in: a new token, the session the browser had is ended', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'rotate@example.com');
    const first = browser.cookie!;
    await browser.post('/settings/sign-in', { email: 'rotate@example.com', csrf: csrfIn(await (await browser.get('/settings')).text()) });
    expect((await browser.useLink(inbox, 'rotate@example.com')).status).toBe(303);
    expect(browser.cookie).not.toBe(first);
    const hashes = (await app.db.select().from(sessions)).map((row) => row.tokenHash);
    expect(hashes).toEqual([sha256Hex(browser.cookie!)]);
  });

  it('signs out everywhere: every session of the account ends, other accounts keep theirs', async () => {
    const laptop = new SettingsBrowser(app);
    const phone = new SettingsBrowser(app);
    const other = new SettingsBrowser(app);
    await laptop.signUp(inbox, 'everywhere@example.com');
    await phone.post('/settings/sign-in', { email: 'everywhere@example.com' });
    await phone.useLink(inbox, 'everywhere@example.com');
    await other.signUp(inbox, 'other@example.com');
    expect((await phone.get('/settings')).status).toBe(200);

    const ended = await laptop.postSignedIn('/settings/sign-out-everywhere');
    expect(ended.status).toBe(303);
    expect(ended.headers.get('Location')).toBe('/settings/sign-in');
    expect((await phone.get('/settings')).status).toBe(303);
    expect((await laptop.get('/settings')).status).toBe(303);
    expect((await other.get('/settings')).status).toBe(200);
    expect(await app.db.select().from(sessions)).toHaveLength(1);
  });

  it('signs out everywhere and voids the account’s unused sign-in links, not other accounts’', async () => {
    const laptop = new SettingsBrowser(app);
    await laptop.signUp(inbox, 'voided@example.com');
    await new SettingsBrowser(app).post('/settings/sign-in', { email: 'voided@example.com' });
    const waiting = inbox.linkFor('voided@example.com');
    await new SettingsBrowser(app).post('/settings/sign-up', { email: 'bystander@example.com' });
    const bystanders = inbox.linkFor('bystander@example.com');
    expect((await laptop.postSignedIn('/settings/sign-out-everywhere')).status).toBe(303);
    const stranger = new SettingsBrowser(app);
    expect((await stranger.post('/settings/sign-in/link', { token: SettingsBrowser.tokenOf(waiting) })).status).toBe(400);
    expect(await app.db.select().from(sessions)).toEqual([]);
    expect((await new SettingsBrowser(app).post('/settings/sign-in/link', { token: SettingsBrowser.tokenOf(bystanders) })).status).toBe(
      303,
    );
  });

  it('purges expired sessions and sign-in links, and only those', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'purge@example.com');
    await browser.post('/settings/sign-in', { email: 'purge@example.com', csrf: csrfIn(await (await browser.get('/settings')).text()) });
    app.clock.advance(15 * 60_000);
    expect(await purgeExpired(app.db, app.clock.now())).toMatchObject({ sessions: 0, sign_in_links: 2 });
    app.clock.advance(SESSION_LIFETIME_MS - 15 * 60_000);
    expect(await purgeExpired(app.db, app.clock.now() - 1)).toMatchObject({ sessions: 0, sign_in_links: 0 });
    expect(await purgeExpired(app.db, app.clock.now())).toMatchObject({ sessions: 1, sign_in_links: 0 });
    expect(await app.db.select().from(sessions)).toEqual([]);
  });

  it('ends a session after 7 days: signed out, the stale cookie cleared', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'week@example.com');
    app.clock.advance(SESSION_LIFETIME_MS - 1);
    expect((await browser.get('/settings')).status).toBe(200);
    app.clock.advance(1);
    const expired = await browser.get('/settings/keys');
    expect(expired.status).toBe(303);
    expect(expired.headers.get('Location')).toBe('/settings/sign-in');
    expect(expired.headers.get('Set-Cookie')).toMatch(/^__Secure-svc_session=; .*Max-Age=0/);
  });
});

describe('Settings: usage', () => {
  it('lists the history newest first, filters by reference, and pages with Older documents', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'usage@example.com');
    const secret = secretIn(await (await browser.postSignedIn('/settings/keys', { name: 'k', kind: 'full' }, '/settings/keys')).text())!;
    const ids: string[] = [];
    for (let index = 0; index < 22; index++) {
      app.clock.advance(1_000);
      const made = await makeDocument(secret, index % 2 ? 'ODD' : `EVEN-${index}`);
      ids.push(made.headers.get('Svc-Document-Id')!);
    }
    const first = await (await browser.get('/settings/usage')).text();
    expect(first).toContain(ids[21]);
    expect(first).not.toContain(ids[1]);
    const older = /<a href="([^"]+)">Older documents<\/a>/.exec(first)?.[1]?.replace(/&amp;/g, '&');
    expect(older).toBe(`/settings/usage?cursor=${ids[2]}`);
    const second = await (await browser.get(older!)).text();
    expect(second).toContain(ids[0]);
    expect(second).toContain(ids[1]);
    expect(second).not.toContain('Older documents');

    const filtered = await (await browser.get('/settings/usage?reference=ODD')).text();
    expect(filtered.match(/<td role="cell" data-label="Reference" class="reference">ODD<\/td>/g)).toHaveLength(11);
    expect(filtered).toContain('value="ODD"');
    expect((await app.db.select().from(documents)).length).toBe(22);
  });

  it('answers a cursor that is not the account’s document, or a reference too long, with a 400 page', async () => {
    const browser = new SettingsBrowser(app);
    await browser.signUp(inbox, 'cursor@example.com');
    expect((await browser.get('/settings/usage?cursor=doc_nope')).status).toBe(400);
    expect((await browser.get(`/settings/usage?reference=${'r'.repeat(129)}`)).status).toBe(400);
  });
});
