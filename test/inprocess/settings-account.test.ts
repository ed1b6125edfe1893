import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAccount, findAccount, findAccountByEmail } from '../../src/accounts/store.ts';
import { accounts, apiKeys, documents, emailChanges, sessions, signInLinks } from '../../src/db/schema.ts';
import { sha256Hex } from '../../src/hash.ts';
import { EMAIL_CHANGE_PATH } from '../../src/settings/email-change.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { finalInvoice } from '../support/documents.ts';
import { createInbox, type Inbox } from '../support/inbox.ts';
import { csrfIn, SettingsBrowser, secretIn } from '../support/settings-client.ts';

let app: TestApp;
let inbox: Inbox;
beforeEach(async () => {
  inbox = createInbox();
  app = await createTestApp({ mailer: inbox.mailer });
});

async function signedIn(email: string): Promise<SettingsBrowser> {
  const browser = new SettingsBrowser(app);
  await browser.signUp(inbox, email);
  return browser;
}

async function createKey(browser: SettingsBrowser, name: string): Promise<{ id: string; secret: string }> {
  const secret = secretIn(await (await browser.postSignedIn('/settings/keys', { name, kind: 'full' }, '/settings/keys')).text())!;
  const [row] = await app.db.select().from(apiKeys).where(eq(apiKeys.name, name));
  return { id: row!.id, secret };
}

function accountCall(secret: string) {
  return app.call('/api/v1/account', { headers: { Authorization: `Bearer ${secret}` } });
}

/** The address-change link in the newest mail to `email`, as a path with its query. */
function changeLinkFor(email: string): string {
  const message = inbox.messages.findLast((sent) => sent.to === email);
  const link = /^(https?:\/\/\S+)$/m.exec(message?.text ?? '')?.[1];
  if (!link) throw new Error(`no link was sent to ${email}`);
  const url = new URL(link);
  expect(url.pathname).toBe(EMAIL_CHANGE_PATH);
  return url.pathname + url.search;
}

describe('Settings: revoke and regenerate ask first', () => {
  it('the keys list leads to a page that names the key and asks; only its POST revokes', async () => {
    const browser = await signedIn('confirm@example.com');
    const key = await createKey(browser, 'Shop server');
    const list = await (await browser.get('/settings/keys')).text();
    expect(list).toContain(`<a class="button" href="/settings/keys/${key.id}/revoke">Revoke</a>`);
    expect(list).toContain(`<a class="button" href="/settings/keys/${key.id}/regenerate">Regenerate</a>`);
    expect(list).not.toMatch(/<form method="post" action="\/settings\/keys\/[^"]+\/(revoke|regenerate)"/);

    const asked = await browser.get(`/settings/keys/${key.id}/revoke`);
    expect(asked.status).toBe(200);
    const page = await asked.text();
    expect(page).toContain('<h1>Revoke this key?</h1>');
    expect(page).toContain('<dt>Name</dt><dd>Shop server</dd>');
    expect(page).toContain(`<form method="post" action="/settings/keys/${key.id}/revoke"`);
    expect(page).toContain('<button type="submit">Revoke key</button>');
    expect((await accountCall(key.secret)).status).toBe(200);

    const regenerate = await (await browser.get(`/settings/keys/${key.id}/regenerate`)).text();
    expect(regenerate).toContain('<h1>Regenerate this key?</h1>');
    expect(regenerate).toContain('<button type="submit">Regenerate key</button>');

    const revoked = await browser.post(`/settings/keys/${key.id}/revoke`, { csrf: csrfIn(page) });
    expect(revoked.status).toBe(303);
    expect((await accountCall(key.secret)).status).toBe(401);
    // A revoked key has nothing left to ask about.
    expect((await browser.get(`/settings/keys/${key.id}/revoke`)).status).toBe(404);
  });

  it('asks about a key of this account only', async () => {
    const owner = await signedIn('owner@example.com');
    const key = await createKey(owner, 'Owner key');
    const other = await signedIn('other@example.com');
    for (const action of ['revoke', 'regenerate']) {
      const page = await other.get(`/settings/keys/${key.id}/${action}`);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain('Owner key');
    }
  });

  it('hides revoked keys on asking, and offers to show them again', async () => {
    const browser = await signedIn('hide@example.com');
    await createKey(browser, 'Kept key');
    const gone = await createKey(browser, 'Old key');
    await browser.postSignedIn(`/settings/keys/${gone.id}/revoke`, {}, '/settings/keys');

    const all = await (await browser.get('/settings/keys')).text();
    expect(all).toContain('>Old key</th>');
    expect(all).toContain('<a href="/settings/keys?revoked=hide">Hide revoked keys (1)</a>');
    const hidden = await (await browser.get('/settings/keys?revoked=hide')).text();
    expect(hidden).not.toContain('Old key');
    expect(hidden).toContain('>Kept key</th>');
    expect(hidden).toContain('Active keys of this account');
    expect(hidden).toContain('<a href="/settings/keys">Show revoked keys (1)</a>');
  });
});

describe('Settings: change the email address, confirmed by a link to the new one', () => {
  it('changes nothing until the link mailed to the new address is used, then tells the old address', async () => {
    const browser = await signedIn('before@example.com');
    const account = (await findAccountByEmail(app.db, 'before@example.com'))!;
    await browser.post('/settings/sign-in', { email: 'before@example.com', csrf: csrfIn(await (await browser.get('/settings')).text()) });
    const asked = await browser.postSignedIn('/settings/account/email', { email: 'After@Example.com' }, '/settings/account');
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('<h1>Check your new address</h1>');
    expect((await findAccount(app.db, account.id))!.email).toBe('before@example.com');
    const path = changeLinkFor('After@Example.com');
    expect(inbox.messages.findLast((sent) => sent.to === 'After@Example.com')!.text).toContain('of the account b•••@example.com');
    // The current address hears of it at once, with how to cancel it.
    const asking = inbox.messages.findLast((sent) => sent.to === 'before@example.com')!;
    expect(asking.subject).toBe('A change of your email address was asked for');
    expect(asking.text).toContain('to A•••@Example.com');
    expect(asking.text).toContain('Sign out everywhere');
    expect((await app.db.select().from(emailChanges))[0]).toMatchObject({ accountId: account.id, newEmail: 'After@Example.com' });
    // The token is stored only as its hash.
    expect(JSON.stringify(await app.db.select().from(emailChanges))).not.toContain(new URL(path, 'http://x').searchParams.get('token'));

    // Opening the link (a mail scanner) changes nothing; its page says what the button does.
    const linkPage = await new SettingsBrowser(app, '203.0.113.9').get(path);
    const shown = await linkPage.text();
    expect(shown).toContain('Change the address of the account <strong>b•••@example.com</strong> to <strong>After@Example.com</strong>');
    expect((await findAccount(app.db, account.id))!.email).toBe('before@example.com');

    // Used from another browser, signed out (the phone that reads the new mailbox).
    const phone = new SettingsBrowser(app, '203.0.113.9');
    const token = new URL(path, 'http://x').searchParams.get('token')!;
    const changed = await phone.post(EMAIL_CHANGE_PATH, { token });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('<h1>Your email address is changed</h1>');
    expect(await findAccount(app.db, account.id)).toMatchObject({ email: 'After@Example.com', emailConfirmed: true });
    // Sign-in links mailed to the old address before the change no longer work.
    expect((await app.db.select().from(signInLinks)).every((link) => link.usedAt !== null)).toBe(true);
    const notice = inbox.messages.findLast((sent) => sent.to === 'before@example.com')!;
    expect(notice.subject).toBe('Your email address was changed');
    expect(notice.text).toContain('changed to After@Example.com');

    expect((await phone.post(EMAIL_CHANGE_PATH, { token })).status).toBe(400);
    // The session goes on; sign-in links now go to the new address.
    expect(await (await browser.get('/settings/account')).text()).toContain('<strong>After@Example.com</strong>');
    const fresh = new SettingsBrowser(app, '203.0.113.10');
    await fresh.post('/settings/sign-in', { email: 'after@example.com' });
    expect((await fresh.useLink(inbox, 'After@Example.com')).status).toBe(303);
  });

  it('refuses an address another account has, on the link’s page only, and changes nothing', async () => {
    await createAccount(app.db, { email: 'taken@example.com', plan: 'free', emailConfirmed: true, now: app.clock.now() });
    const browser = await signedIn('mover@example.com');
    const asked = await browser.postSignedIn('/settings/account/email', { email: 'TAKEN@example.com' }, '/settings/account');
    // The asker learns nothing of the other account: the same page as for a free address.
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('<h1>Check your new address</h1>');
    const token = new URL(changeLinkFor('TAKEN@example.com'), 'http://x').searchParams.get('token')!;
    const used = await new SettingsBrowser(app).post(EMAIL_CHANGE_PATH, { token });
    expect(used.status).toBe(409);
    const refusal = await used.text();
    expect(refusal).toContain('<h1>This address belongs to another account</h1>');
    expect(refusal).toContain('Another account has the address <strong>TAKEN@example.com</strong>');
    expect(await findAccountByEmail(app.db, 'mover@example.com')).toBeDefined();
    expect((await app.db.select().from(accounts).where(eq(accounts.email, 'taken@example.com'))).length).toBe(1);
  });

  it('is cancelled by Sign out everywhere: a change asked for from a stolen session cannot be used after it', async () => {
    const browser = await signedIn('victim@example.com');
    await browser.postSignedIn('/settings/account/email', { email: 'thief@example.com' }, '/settings/account');
    const token = new URL(changeLinkFor('thief@example.com'), 'http://x').searchParams.get('token')!;
    expect((await browser.postSignedIn('/settings/sign-out-everywhere')).status).toBe(303);
    const used = await new SettingsBrowser(app, '203.0.113.66').post(EMAIL_CHANGE_PATH, { token });
    expect(used.status).toBe(400);
    expect(await findAccountByEmail(app.db, 'victim@example.com')).toBeDefined();
    expect(await findAccountByEmail(app.db, 'thief@example.com')).toBeUndefined();
  });

  it('refuses its own address and a malformed one at the field, mailing nothing', async () => {
    const browser = await signedIn('same@example.com');
    const sent = inbox.messages.length;
    for (const email of ['SAME@example.com', 'not an address']) {
      const refused = await browser.postSignedIn('/settings/account/email', { email }, '/settings/account');
      expect(refused.status).toBe(400);
      const page = await refused.text();
      expect(page).toContain('aria-invalid="true" aria-describedby="form-error"');
      expect(page).toContain('role="alert" id="form-error"');
    }
    expect(inbox.messages).toHaveLength(sent);
    expect(await app.db.select().from(emailChanges)).toEqual([]);
  });
});

describe('Settings: delete the account', () => {
  it('asks for the address; then revokes every key, ends every session, removes the address, keeps the records', async () => {
    const browser = await signedIn('leaving@example.com');
    const account = (await findAccountByEmail(app.db, 'leaving@example.com'))!;
    const key = await createKey(browser, 'Leaving key');
    const made = await app.call('/api/v1/documents', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key.secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(finalInvoice()),
    });
    expect(made.status).toBe(201);
    const otherDevice = new SettingsBrowser(app, '203.0.113.20');
    await otherDevice.post('/settings/sign-in', { email: 'leaving@example.com' });
    expect((await otherDevice.useLink(inbox, 'leaving@example.com')).status).toBe(303);

    const asked = await (await browser.get('/settings/account/delete')).text();
    expect(asked).toContain('<h1>Delete your account?</h1>');
    expect(asked).toContain('Unused credits are lost');
    expect(asked).toContain('are kept until their 90 days end');

    const wrong = await browser.postSignedIn('/settings/account/delete', { email: 'someone@example.com' }, '/settings/account/delete');
    expect(wrong.status).toBe(400);
    expect((await findAccount(app.db, account.id))!.deletedAt).toBeNull();
    expect((await accountCall(key.secret)).status).toBe(200);

    const deleted = await browser.postSignedIn('/settings/account/delete', { email: ' Leaving@Example.com ' }, '/settings/account/delete');
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toContain('<h1>Your account is deleted</h1>');
    expect(browser.cookie).toBeUndefined();

    const row = (await findAccount(app.db, account.id))!;
    expect(row).toMatchObject({ email: `deleted:${account.id}`, emailConfirmed: false, creditsRemaining: 0 });
    expect(row.deletedAt).not.toBeNull();
    expect(JSON.stringify(await app.db.select().from(accounts))).not.toContain('leaving@');
    expect((await app.db.select().from(apiKeys)).every((stored) => stored.revokedAt !== null)).toBe(true);
    expect(await app.db.select().from(sessions).where(eq(sessions.accountId, account.id))).toEqual([]);
    expect(await app.db.select().from(signInLinks).where(eq(signInLinks.accountId, account.id))).toEqual([]);
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(1);

    expect((await accountCall(key.secret)).status).toBe(401);
    expect((await otherDevice.get('/settings')).status).toBe(303);
    // The address is free again: signing up with it makes a new account.
    const again = await signedIn('leaving@example.com');
    const newAccount = (await findAccountByEmail(app.db, 'leaving@example.com'))!;
    expect(newAccount.id).not.toBe(account.id);
    expect(await (await again.get('/settings')).text()).toContain('50 of 50 this period');
  });

  it('leaves no way back in: a link or a session made in a race with the deletion signs no one in', async () => {
    const browser = await signedIn('raced@example.com');
    const account = (await findAccountByEmail(app.db, 'raced@example.com'))!;
    const cookie = browser.cookie!;
    await browser.postSignedIn('/settings/account/delete', { email: 'raced@example.com' }, '/settings/account/delete');
    // What a sign-in asked for just before the deletion could still write after it: a link, a session.
    const token = 'a'.repeat(43);
    const now = app.clock.now();
    await app.db
      .insert(signInLinks)
      .values({ tokenHash: sha256Hex(token), accountId: account.id, createdAt: now, expiresAt: now + 60_000 });
    await app.db.insert(sessions).values({ tokenHash: sha256Hex(cookie), accountId: account.id, createdAt: now, expiresAt: now + 60_000 });
    const link = await new SettingsBrowser(app).post('/settings/sign-in/link', { token });
    expect(link.status).toBe(400);
    browser.cookie = cookie;
    expect((await browser.get('/settings')).status).toBe(303);
  });
});
