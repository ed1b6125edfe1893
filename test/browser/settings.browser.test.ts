import { createClient } from '@libsql/client';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../src/accounts/plans.ts';
import { KEY_KINDS } from '../../src/contract/scopes.ts';
import { sha256Hex } from '../../src/hash.ts';
import {
  confirmSignIn,
  createKey,
  launchChromium,
  openSignInLink,
  type SettingsServer,
  type SettingsTarget,
  signUp,
  startSettingsServer,
} from '../support/browser.ts';
import { expectFitsPhone, PHONE_WIDTH } from '../support/phone.ts';
import { finalBody, fixture } from '../support/requests.ts';
import { PAGE_HEADERS } from '../support/settings-client.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts';

let browser: Browser;
let sink: SmtpSink;

beforeAll(async () => {
  [browser, sink] = await Promise.all([launchChromium(), startSmtpSink()]);
});

afterAll(async () => {
  await browser?.close();
  await sink?.close();
});

/** What the server's database holds for an account, by its address: the check after each change of state. */
async function storedAccount(server: SettingsServer, email: string) {
  const client = createClient({ url: server.databaseUrl });
  try {
    const account = (await client.execute({ sql: 'SELECT * FROM accounts WHERE lower(email) = lower(?)', args: [email] })).rows[0];
    const keys = account
      ? (await client.execute({ sql: 'SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at', args: [account.id!] })).rows
      : [];
    return { account, keys };
  } finally {
    client.close();
  }
}

function api(server: SettingsServer, key: string, path: string, init: RequestInit = {}) {
  return fetch(`${server.baseUrl}${path}`, { ...init, headers: { ...init.headers, Authorization: `Bearer ${key}` } });
}

/** The number after "Credits left" on a page (overview and usage state it). */
async function creditsLeftOn(page: Page): Promise<number> {
  const text = await page.locator('main').innerText();
  const match = /Credits left\s*:?\s*([\d,]+)/i.exec(text);
  if (!match) throw new Error(`no "Credits left" on ${page.url()}:\n${text}`);
  return Number(match[1]!.replaceAll(',', ''));
}

/** Presses Tab until the element has the focus: it is reachable by keyboard, in the page's order. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 12; presses++) {
    await page.keyboard.press('Tab');
    if ((await target.and(page.locator(':focus')).count()) === 1) return;
  }
  throw new Error(`${target} is not reached by Tab on ${page.url()}`);
}

/**
 * On a desktop screen the page's tables need no sideways scroll: each `.table-scroll` box is as wide as what it
 * holds, so no column (such as the keys' Actions) is out of sight.
 */
async function expectTablesFit(page: Page, tables: number): Promise<void> {
  const boxes = await page
    .locator('main .table-scroll')
    .evaluateAll((elements) => elements.map((box) => ({ scrollWidth: box.scrollWidth, clientWidth: box.clientWidth })));
  expect(boxes, `tables on ${page.url()}`).toHaveLength(tables);
  for (const box of boxes) expect(box.scrollWidth, `a table on ${page.url()} scrolls sideways`).toBeLessThanOrEqual(box.clientWidth);
}

function newEmail(target: SettingsTarget, what: string) {
  return `${what}.${target}.${crypto.randomUUID().slice(0, 8)}@example.com`;
}

/**
 * The whole customer path in Chromium, once against each real server: each server starts once (workerd takes a
 * while under `wrangler dev`), every case in its own browser context, so with its own cookies.
 */
describe.each(['bun', 'worker'] as const)('Settings in Chromium on %s', { timeout: 180_000 }, (target) => {
  let server: SettingsServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startSettingsServer(target, sink);
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    if (server && server.server.process.exitCode !== null) console.error(server.server.output().slice(-4000));
    await server?.server.stop();
  });

  async function newPage(options: { javaScriptEnabled: boolean; phone?: boolean }) {
    const context = await browser.newContext({
      javaScriptEnabled: options.javaScriptEnabled,
      ...(options.phone
        ? { viewport: { width: PHONE_WIDTH, height: 844 }, isMobile: true, hasTouch: true }
        : { viewport: { width: 1280, height: 900 } }),
    });
    contexts.push(context);
    // A missing element fails the case in 15 s, not Playwright's 30 s per step.
    context.setDefaultTimeout(15_000);
    return { context, page: await context.newPage() };
  }

  it('signs up, confirms by the emailed link, makes a key, spends a credit with it, revokes it, signs out', async () => {
    const { context, page } = await newPage({ javaScriptEnabled: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const email = newEmail(target, 'ada');

    const signUpPage = await page.goto(`${server.baseUrl}/settings/sign-up`);
    expect(signUpPage!.status()).toBe(200);
    expect(signUpPage!.headers()).toMatchObject(PAGE_HEADERS);
    await signUp(page, server.baseUrl, email);
    expect((await storedAccount(server, email)).account).toMatchObject({ plan: 'free', email_confirmed: 0 });

    const { mail, link } = await openSignInLink(page, sink, email);
    expect(mail.subject).toBe('Your sign-in link');
    expect(link.startsWith(`${server.baseUrl}/settings/sign-in/link?token=`)).toBe(true);
    // Opening the link (as a mail scanner would) neither signs in nor confirms: only the button does.
    expect(await context.cookies()).toEqual([]);
    expect((await storedAccount(server, email)).account).toMatchObject({ email_confirmed: 0 });

    await confirmSignIn(page, server.baseUrl);
    expect((await storedAccount(server, email)).account).toMatchObject({ email_confirmed: 1 });
    const overview = await page.locator('main').innerText();
    expect(overview).toContain(email);
    expect(overview).toMatch(/free/i);
    expect(await creditsLeftOn(page)).toBe(PLANS.free.monthlyAllowance);

    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ name: '__Secure-svc_session', httpOnly: true, secure: true, sameSite: 'Lax', path: '/settings' });
    expect(cookies[0]!.value).not.toBe('');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${server.baseUrl}/settings/keys`);
    const [keyPage, secret] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url() === `${server.baseUrl}/settings/keys`),
      createKey(page, 'Browser key', 'Full access'),
    ]);
    expect(keyPage.status()).toBe(200);
    expect(keyPage.headers()).toMatchObject(PAGE_HEADERS);
    expect(secret).toMatch(/^\S{20,}$/);
    expect(page.url()).not.toContain(secret);
    await expect.poll(() => page.locator('main').innerText()).toMatch(/only (once|time)/i);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const stored = await storedAccount(server, email);
    expect(stored.keys).toHaveLength(1);
    expect(stored.keys[0]).toMatchObject({ name: 'Browser key', kind: 'full', hash: sha256Hex(secret), revoked_at: null });
    expect(JSON.stringify(stored)).not.toContain(secret);

    // Long, as customers' references can be: the history must still fit the screen.
    const reference = `browser-${target}-a-rather-long-customer-reference-2026-11-24-0001`;
    const created = await api(server, secret, '/api/v1/documents', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(finalBody('invoice', fixture('reference-invoice.json').fields, { reference })),
    });
    expect(created.status).toBe(201);
    const documentId = created.headers.get('Svc-Document-Id')!;
    expect(documentId).toMatch(/^doc_/);

    await page.getByRole('link', { name: 'Usage' }).click();
    await page.waitForURL(`${server.baseUrl}/settings/usage`);
    // The usage page has more than one table: the history is the one with a Document id column.
    const history = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Document id' }) });
    await expect.poll(() => history.innerText()).toContain(documentId);
    expect(await history.innerText()).toContain(reference);
    expect(await creditsLeftOn(page)).toBe(PLANS.free.monthlyAllowance - 1);
    // The plan's limits and the history.
    await expectTablesFit(page, 2);
    await page.getByLabel('Reference', { exact: true }).fill(reference);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/[?&]reference=/);
    await expect.poll(() => history.innerText()).toContain(documentId);
    await page.getByLabel('Reference', { exact: true }).fill('no-such-reference');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/[?&]reference=no-such-reference/);
    expect(await page.locator('main').innerText()).not.toContain(documentId);

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${server.baseUrl}/settings/keys`);
    const row = page.getByRole('row').filter({ hasText: 'Browser key' });
    await row.getByRole('link', { name: 'Revoke' }).click();
    await page.getByRole('heading', { name: 'Revoke this key?' }).waitFor();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL(`${server.baseUrl}/settings/keys`);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Browser key' }).innerText()).toMatch(/Revoked/);
    // Its widest state: a last use, and a status with the time of revocation.
    await expectTablesFit(page, 1);
    expect((await storedAccount(server, email)).keys[0]!.revoked_at).not.toBeNull();
    expect((await api(server, secret, '/api/v1/account')).status).toBe(401);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/settings/sign-in`);
    expect(await context.cookies()).toEqual([]);
    await page.goto(`${server.baseUrl}/settings`);
    expect(page.url()).toBe(`${server.baseUrl}/settings/sign-in`);
    // The session ended on the server too: its cookie, put back, signs nobody in.
    await context.addCookies(cookies);
    await page.goto(`${server.baseUrl}/settings`);
    expect(page.url()).toBe(`${server.baseUrl}/settings/sign-in`);
  });

  it('works on a phone with JavaScript off and by keyboard: signs up, signs in and creates a key with the forms alone', async () => {
    const { context, page } = await newPage({ javaScriptEnabled: false, phone: true });
    const email = newEmail(target, 'grace');
    await page.goto(`${server.baseUrl}/settings/sign-up`);
    await expectFitsPhone(page);
    await tabTo(page, page.getByLabel('Email address', { exact: true }));
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await expectFitsPhone(page);
    const { link } = await openSignInLink(page, sink, email);
    await expectFitsPhone(page);
    await tabTo(page, page.getByRole('button', { name: 'Sign in', exact: true }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/settings`);
    await expectFitsPhone(page);
    expect((await context.cookies()).map((cookie) => cookie.name)).toEqual(['__Secure-svc_session']);

    await page.goto(`${server.baseUrl}/settings/keys`);
    await expectFitsPhone(page);
    const secret = await createKey(page, 'Forms key', 'Preview only');
    await expectFitsPhone(page);
    // Without the script there is no Copy button that would do nothing.
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    for (const path of ['/settings/keys', '/settings/usage']) {
      await page.goto(`${server.baseUrl}${path}`);
      await expectFitsPhone(page);
    }
    const account = await api(server, secret, '/api/v1/account');
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ plan: 'free', key: { name: 'Forms key', scopes: KEY_KINDS.preview.scopes } });
    expect((await storedAccount(server, email)).keys[0]).toMatchObject({ name: 'Forms key', kind: 'preview', hash: sha256Hex(secret) });

    const usedAgain = await page.goto(link);
    expect(usedAgain!.status()).toBe(400);
    await page.getByRole('heading', { name: 'This sign-in link has expired or was already used' }).waitFor();
    await expectFitsPhone(page);
  });

  it('on a phone with JavaScript off: asks before revoking, changes the address by a link to the new one, deletes the account', async () => {
    const { context, page } = await newPage({ javaScriptEnabled: false, phone: true });
    const email = newEmail(target, 'ada');
    const moved = newEmail(target, 'ada-moved');
    await signUp(page, server.baseUrl, email);
    await openSignInLink(page, sink, email);
    await confirmSignIn(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/settings/keys`);
    const secret = await createKey(page, 'Phone key', 'Full access');
    await page.goto(`${server.baseUrl}/settings/keys`);
    await page.getByRole('row').filter({ hasText: 'Phone key' }).getByRole('link', { name: 'Revoke' }).click();
    await page.getByRole('heading', { name: 'Revoke this key?' }).waitFor();
    await expectFitsPhone(page);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${server.baseUrl}/settings/keys`);
    expect((await api(server, secret, '/api/v1/account')).status).toBe(200);

    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL(`${server.baseUrl}/settings/account`);
    await expectFitsPhone(page);
    await tabTo(page, page.getByLabel('New email address'));
    await page.keyboard.type(moved);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your new address' }).waitFor();
    await expectFitsPhone(page);
    const mail = await sink.waitForMessage({ to: moved, timeoutMs: 30_000 });
    expect(mail.subject).toBe('Confirm your new email address');
    const link = /https?:\/\/\S+\/settings\/account\/email\/confirm\?token=\S+/.exec(mail.text)![0];
    await page.goto(link);
    await page.getByRole('heading', { name: 'Change your email address' }).waitFor();
    await expectFitsPhone(page);
    await page.getByRole('button', { name: 'Change my email address' }).click();
    await page.getByRole('heading', { name: 'Your email address is changed' }).waitFor();
    expect((await storedAccount(server, moved)).account).toMatchObject({ email: moved, email_confirmed: 1 });
    const toOldAddress = () =>
      sink
        .messages()
        .filter((sent) => sent.to.includes(email.toLowerCase()))
        .map((sent) => sent.subject);
    await expect.poll(toOldAddress, { timeout: 30_000 }).toContain('Your email address was changed');

    await page.goto(`${server.baseUrl}/settings/account`);
    await page.getByRole('link', { name: 'Delete the account…' }).click();
    await page.getByRole('heading', { name: 'Delete your account?' }).waitFor();
    await expectFitsPhone(page);
    await page.getByLabel('To confirm, type your email address').fill(moved);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor();
    await expectFitsPhone(page);
    expect(await context.cookies()).toEqual([]);
    expect((await storedAccount(server, moved)).account).toBeUndefined();
    expect((await api(server, secret, '/api/v1/account')).status).toBe(401);
  });
});
