import { eq, like, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCredits } from '../../src/accounts/store.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { accounts, documents, idempotencyKeys, rateLimitWindows } from '../../src/db/schema.ts';
import { sha256Hex } from '../../src/hash.ts';
import { MEMORY_MS } from '../../src/idempotency/lease.ts';
import { addKey } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createInbox, type Inbox } from '../support/inbox.ts';
import { csrfIn, formIdIn, SettingsBrowser } from '../support/settings-client.ts';
import { formOf, WEB_INVOICE } from '../support/web-invoice.ts';

let app: TestApp;
let inbox: Inbox;
/** Every line the service logged during the test. */
let logged: string[];

beforeEach(async () => {
  logged = [];
  for (const method of ['log', 'error', 'warn', 'info'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
  }
  inbox = createInbox();
  app = await createTestApp({ mailer: inbox.mailer, config: { rateLimitsEnabled: true, logRequests: true } });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const FORM = '/settings/documents/new/invoice';

/** Values that make a valid invoice, as the form names its inputs; each test changes what it needs. */
const INVOICE_FORM = formOf(WEB_INVOICE);

/** The API's body for the same invoice: what the form stands for. */
const INVOICE_BODY = WEB_INVOICE;

async function signedIn(email = `baker.${crypto.randomUUID()}@example.com`) {
  const browser = new SettingsBrowser(app);
  await browser.signUp(inbox, email);
  const [account] = await app.db.select().from(accounts).where(eq(accounts.email, email));
  return { browser, account: account! };
}

/** The form page's hidden fields, read as the browser would send them back. */
async function openForm(browser: SettingsBrowser, path = FORM) {
  const page = await (await browser.get(path)).text();
  return { csrf: csrfIn(page), form_id: formIdIn(page), item_rows: '3', page };
}

async function send(browser: SettingsBrowser, action: string, fields: Record<string, string>, hidden: Record<string, string>) {
  return browser.post(FORM, { ...hidden, ...fields, action });
}

describe('Web app: check, totals and problems', () => {
  it('shows every problem at its field and in a summary that links to it, with the API’s checks', async () => {
    const { browser } = await signedIn();
    const hidden = await openForm(browser);
    const answer = await send(
      browser,
      'check',
      { ...INVOICE_FORM, 'fields.date': '2026-02-30', 'fields.items[1].quantity': 'lots' },
      hidden,
    );
    expect(answer.status).toBe(422);
    const page = await answer.text();
    expect(page).toContain('There are 2 problems');
    expect(page).toContain('<a href="#f-fields-date">Date: A real calendar date YYYY-MM-DD.</a>');
    expect(page).toMatch(/<a href="#f-fields-items-1-quantity">Item 2 quantity: /);
    expect(page).toMatch(
      /<p class="field-error" id="f-fields-date-error">A real calendar date YYYY-MM-DD.<\/p><input id="f-fields-date" name="fields.date" type="date" value="2026-02-30" aria-describedby="f-fields-date-hint f-fields-date-error" aria-invalid="true"/,
    );
    // The values come back as sent, escaped.
    expect(page).toContain('value="Bäckerei Zeynep Öztürk"');
  });

  it('states the totals exactly as the document prints them', async () => {
    const { browser } = await signedIn();
    const hidden = await openForm(browser);
    const page = await (await send(browser, 'check', INVOICE_FORM, hidden)).text();
    // 48.00 + 54.00 + 7.00 = 109.00; 10% = 10.90; 98.10 × 7% = 6.867 → 6.87; total 104.97.
    expect(page).toContain('<tr><th scope="row">Subtotal</th><td>109.00</td></tr>');
    expect(page).toContain('<tr><th scope="row">Discount (10%)</th><td>\u221210.90</td></tr>');
    expect(page).toContain('<tr><th scope="row">VAT 7%</th><td>6.87</td></tr>');
    expect(page).toContain('<tr class="strong"><th scope="row">Total</th><td>EUR 104.97</td></tr>');
    expect(page).toContain('<tr class="emphasis"><th scope="row">Balance due</th><td>EUR 104.97</td></tr>');
  });

  it('refuses a pasted body larger than the API takes, as the API would', async () => {
    const { browser } = await signedIn();
    const { csrf } = await openForm(browser);
    const large = JSON.stringify({ ...INVOICE_BODY, fields: { ...INVOICE_BODY.fields, notes: 'x'.repeat(LIMITS.requestBodyBytes) } });
    const answer = await browser.post('/settings/documents/new', { csrf, json: large });
    expect(answer.status).toBe(413);
    expect(await answer.text()).toContain('at most 128 KiB');
  });

  it('escapes what it echoes: markup typed into a field stays text', async () => {
    const { browser } = await signedIn();
    const hidden = await openForm(browser);
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const page = await (
      await send(browser, 'check', { ...INVOICE_FORM, 'fields.client_name': hostile, 'fields.notes': `</textarea>${hostile}` }, hidden)
    ).text();
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('Web app: final', () => {
  it('charges one credit, records source web with no field value, gives the API’s bytes, and replays free', async () => {
    const { browser, account } = await signedIn();
    const hidden = await openForm(browser);
    const answer = await send(browser, 'final', INVOICE_FORM, hidden);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="invoice-WEB-0001.pdf"');
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect(answer.headers.get('svc-document-sha256')).toBe(sha256Hex(bytes));

    const [after] = await app.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(after!.creditsRemaining).toBe(account.creditsRemaining - 1);
    const rows = await app.db.select().from(documents).where(eq(documents.accountId, account.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'web', mode: 'final', creditsConsumed: 1, keyId: '', sha256: sha256Hex(bytes) });

    // The same form again (a reload of the answer, a double click): the same document, no credit.
    const again = await send(browser, 'final', INVOICE_FORM, hidden);
    expect(again.status).toBe(200);
    expect(again.headers.get('svc-idempotent-replay')).toBe('true');
    expect(sha256Hex(new Uint8Array(await again.arrayBuffer()))).toBe(sha256Hex(bytes));
    const [still] = await app.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(still!.creditsRemaining).toBe(account.creditsRemaining - 1);
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(1);
    // The replay is counted in the account's replay buckets, and in no key's.
    const replays = (await app.db.select().from(rateLimitWindows))
      .map((window) => window.bucket)
      .filter((name) => name.startsWith('replay:'));
    expect(replays.sort()).toEqual([`replay:final:account:${account.id}:hour`, `replay:final:account:${account.id}:minute`]);
  });
});

describe('Web app: what is counted and charged', () => {
  it('counts a preview in the account’s preview buckets and everyone’s, never a key’s, and frames it for the page only', async () => {
    const { browser, account } = await signedIn();
    const { keyId } = await addKey(app, account.id, 'full');
    const hidden = await openForm(browser);
    const answer = await send(browser, 'preview', INVOICE_FORM, hidden);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe('inline; filename="invoice-WEB-0001-preview.pdf"');
    expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const windows = await app.db.select().from(rateLimitWindows);
    const names = windows
      .map((window) => window.bucket)
      .filter((name) => !name.startsWith('sign-in-mail:'))
      .sort();
    expect(names).toEqual(
      [`preview:account:${account.id}:day`, `preview:account:${account.id}:hour`, 'preview:global:day', 'preview:global:hour'].sort(),
    );
    expect(names.some((name) => name.includes(keyId))).toBe(false);
    const [row] = await app.db.select().from(documents).where(eq(documents.accountId, account.id));
    expect(row).toMatchObject({ mode: 'preview', source: 'web', creditsConsumed: 0 });
    // Any other answer of the form still refuses framing.
    const checked = await send(browser, 'check', INVOICE_FORM, hidden);
    expect(checked.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses web previews past the account’s hourly limit with a page', async () => {
    const { browser, account } = await signedIn();
    const hidden = await openForm(browser);
    const start = Math.floor(app.clock.now() / 3_600_000) * 3_600_000;
    await app.db
      .insert(rateLimitWindows)
      .values({ bucket: `preview:account:${account.id}:hour`, windowStart: start, count: 60, expiresAt: start + 3_600_000 });
    const answer = await send(browser, 'preview', INVOICE_FORM, hidden);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBeTruthy();
    expect(await answer.text()).toContain('<h1>Too many requests</h1>');
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(0);
  });

  it('holds web finals to the plan’s new finals per minute, per account', async () => {
    const { browser, account } = await signedIn();
    for (let made = 0; made < 10; made++) {
      const hidden = await openForm(browser);
      const answer = await send(browser, 'final', { ...INVOICE_FORM, 'fields.invoice_number': `WEB-${made}` }, hidden);
      expect(answer.status, `final ${made}`).toBe(200);
    }
    const hidden = await openForm(browser);
    const refused = await send(browser, 'final', { ...INVOICE_FORM, 'fields.invoice_number': 'WEB-10' }, hidden);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('<h1>Too many requests</h1>');
    const [after] = await app.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(after!.creditsRemaining).toBe(account.creditsRemaining - 10);
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(10);
    const [counted] = await app.db
      .select()
      .from(rateLimitWindows)
      .where(eq(rateLimitWindows.bucket, `final:web:${account.id}`));
    expect(counted?.count).toBe(10);
    // The refused form's key was given back: after the minute, the same form makes its document.
    app.clock.advance(60_000);
    const later = await send(browser, 'final', { ...INVOICE_FORM, 'fields.invoice_number': 'WEB-10' }, hidden);
    expect(later.status).toBe(200);
  });

  it('makes one document and takes one credit for twenty submissions of one final form at once', async () => {
    const { browser, account } = await signedIn();
    const hidden = await openForm(browser);
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(browser, 'final', INVOICE_FORM, hidden)));
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.every((status) => status === 200 || status === 409),
      statuses.join(),
    ).toBe(true);
    const made = answers.filter((answer) => answer.status === 200);
    expect(made.length).toBeGreaterThan(0);
    expect(new Set(made.map((answer) => answer.headers.get('svc-document-id'))).size).toBe(1);
    expect(made.filter((answer) => answer.headers.get('svc-credit-used') === 'true')).toHaveLength(1);
    const [after] = await app.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(after!.creditsRemaining).toBe(account.creditsRemaining - 1);
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(1);
  });

  it('makes the same bytes as the API for the same request (9.7)', async () => {
    const { browser, account } = await signedIn();
    const { headers } = await addKey(app, account.id, 'full');
    const hidden = await openForm(browser);
    const web = await send(browser, 'final', INVOICE_FORM, hidden);
    const api = await app.call('/api/v1/documents', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...INVOICE_BODY, mode: 'final' }),
    });
    expect(api.status).toBe(201);
    expect(web.headers.get('svc-document-sha256')).toBe(api.headers.get('svc-document-sha256'));
    expect(sha256Hex(new Uint8Array(await web.arrayBuffer()))).toBe(sha256Hex(new Uint8Array(await api.arrayBuffer())));
  });

  it('says so on a page with the period end and the allowance when no credit is left; nothing is made', async () => {
    const { browser, account } = await signedIn();
    await setCredits(app.db, account.id, 0);
    const hidden = await openForm(browser);
    expect(hidden.page).toContain('No credit is left this period');
    const answer = await send(browser, 'final', INVOICE_FORM, hidden);
    expect(answer.status).toBe(402);
    const page = await answer.text();
    expect(page).toContain('<h1>No credit left</h1>');
    expect(page).toContain('<dt>Monthly allowance</dt><dd>50 credits</dd>');
    expect(page).toMatch(/<dt>Next allowance<\/dt><dd><time datetime="\d{4}-\d\d-\d\dT00:00:00Z">/);
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(0);
    // The form's key was given back: with credits again, the same form makes its document.
    await setCredits(app.db, account.id, 1);
    expect((await send(browser, 'final', INVOICE_FORM, hidden)).status).toBe(200);
  });

  it('refuses a final form older than the idempotency memory instead of charging it a second time', async () => {
    const { browser, account } = await signedIn();
    const hidden = await openForm(browser);
    expect((await send(browser, 'final', INVOICE_FORM, hidden)).status).toBe(200);
    app.clock.advance(MEMORY_MS);
    // The same form a day later (a tab restored, the back button): the record of its final is forgotten by now.
    const late = await send(browser, 'final', INVOICE_FORM, hidden);
    expect(late.status).toBe(409);
    const page = await late.text();
    expect(page).toContain('This form is more than 24 hours old, so nothing was made or charged.');
    expect(formIdIn(page)).not.toBe(hidden.form_id);
    const [after] = await app.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(after!.creditsRemaining).toBe(account.creditsRemaining - 1);
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(1);
  });

  it('asks before a form that made its final makes another with changed fields', async () => {
    const { browser, account } = await signedIn();
    const hidden = await openForm(browser);
    expect((await send(browser, 'final', INVOICE_FORM, hidden)).status).toBe(200);
    const changed = { ...INVOICE_FORM, 'fields.invoice_number': 'WEB-0002' };
    const asked = await send(browser, 'final', changed, hidden);
    expect(asked.status).toBe(409);
    const page = await asked.text();
    expect(page).toContain('This form already made its final document');
    const fresh = formIdIn(page);
    expect(fresh).not.toBe(hidden.form_id);
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(1);
    const second = await send(browser, 'final', changed, { ...hidden, form_id: fresh });
    expect(second.status).toBe(200);
    expect(second.headers.get('content-disposition')).toBe('attachment; filename="invoice-WEB-0002.pdf"');
    expect(await app.db.select().from(documents).where(eq(documents.accountId, account.id))).toHaveLength(2);
  });

  it('keeps every field value out of the database, the logs and every URL', async () => {
    const { browser } = await signedIn();
    const hidden = await openForm(browser);
    const answers = [
      await send(browser, 'check', INVOICE_FORM, hidden),
      await send(browser, 'preview', INVOICE_FORM, hidden),
      await send(browser, 'final', INVOICE_FORM, hidden),
      await send(browser, 'final', INVOICE_FORM, hidden),
    ];
    const values = ['Bäckerei', 'Lumière', 'WEB-0001', 'Croissants', 'Sourdough', 'Hauptstraße'];
    const tables = (await app.db.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table'`)).map(
      (table) => table.name,
    );
    for (const table of tables) {
      const rows = await app.db.all(sql.raw(`SELECT * FROM "${table}"`));
      const text = JSON.stringify(rows);
      for (const value of values) expect(text, `${table} holds ${value}`).not.toContain(value);
    }
    const lines = logged.join('\n');
    expect(lines).toContain('/settings/documents/new/{slug}');
    for (const value of values) expect(lines, `the log holds ${value}`).not.toContain(value);
    for (const answer of answers) {
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.url).not.toMatch(/Croissants|WEB-0001/);
    }
    expect(await app.db.select().from(idempotencyKeys).where(like(idempotencyKeys.key, 'web form %'))).toHaveLength(1);
  });
});

describe('Web app: records', () => {
  it('lists web documents in Settings with their source, not in GET /api/v1/documents, and shows their record by id', async () => {
    const { browser, account } = await signedIn();
    const { headers } = await addKey(app, account.id, 'full');
    const hidden = await openForm(browser);
    const web = await send(browser, 'final', INVOICE_FORM, hidden);
    const webId = web.headers.get('svc-document-id')!;
    const api = await app.call('/api/v1/documents', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...INVOICE_BODY, mode: 'preview' }),
    });
    const apiId = api.headers.get('svc-document-id')!;
    const list = await (await app.call('/api/v1/documents', { headers })).json();
    expect(list.data.map((document: { id: string }) => document.id)).toEqual([apiId]);
    const startingAfterWeb = await app.call(`/api/v1/documents?starting_after=${webId}`, { headers });
    expect(startingAfterWeb.status).toBe(400);
    expect((await startingAfterWeb.json()).error.details[0].code).toBe('invalid_query');
    const record = await (await app.call(`/api/v1/documents/${webId}`, { headers })).json();
    expect(record).toMatchObject({ id: webId, source: 'web', mode: 'final', credits_consumed: 1 });
    const usage = await (await browser.get('/settings/usage')).text();
    expect(usage).toContain(`<code>${webId}</code>`);
    expect(usage).toContain(`<code>${apiId}</code>`);
    expect(usage).toMatch(/data-label="Source">Web app</);
    expect(usage).toMatch(/data-label="Source">API</);
  });
});
