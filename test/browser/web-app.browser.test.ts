import { readFile } from 'node:fs/promises';
import { createClient } from '@libsql/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts';
import { WEB_INVOICE } from '../support/web-invoice.ts';

let browser: Browser;
let sink: SmtpSink;

beforeAll(async () => {
  [browser, sink] = await Promise.all([launchChromium(), startSmtpSink()]);
});

afterAll(async () => {
  await browser?.close();
  await sink?.close();
});

/** One query against the server's database file: the judge of what was charged and recorded. */
async function query(server: SettingsServer, sql: string, args: (string | number)[] = []) {
  const client = createClient({ url: server.databaseUrl });
  try {
    return (await client.execute({ sql, args })).rows;
  } finally {
    client.close();
  }
}

async function creditsOf(server: SettingsServer, email: string): Promise<number> {
  const [row] = await query(server, 'SELECT credits_remaining FROM accounts WHERE lower(email) = lower(?)', [email]);
  return Number(row!.credits_remaining);
}

/** The invoice of the first path, as a JSON body pasted into the form: three items, a discount, a tax rate, a wrong date. */
const INVOICE = { ...WEB_INVOICE, mode: 'final', fields: { ...WEB_INVOICE.fields, date: '2026-02-30' } };

/** Presses a button by the keyboard: focus it, then Enter (no pointer anywhere). */
async function pressButton(page: Page, name: string): Promise<void> {
  const button = page.getByRole('button', { name, exact: true });
  await button.focus();
  await page.keyboard.press('Enter');
}

async function typeInto(page: Page, label: string, value: string): Promise<void> {
  const input = page.getByLabel(label, { exact: false }).first();
  await input.focus();
  await page.keyboard.type(value);
}

describe.each(['bun', 'worker'] as const)('The web app in Chromium on %s', { timeout: 240_000 }, (target: SettingsTarget) => {
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

  async function signedInPage(options: { javaScriptEnabled: boolean; phone?: boolean }, email: string) {
    const context = await browser.newContext({
      javaScriptEnabled: options.javaScriptEnabled,
      acceptDownloads: true,
      ...(options.phone ? { viewport: { width: PHONE_WIDTH, height: 844 }, isMobile: true } : { viewport: { width: 1280, height: 900 } }),
    });
    contexts.push(context);
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await signUp(page, server.baseUrl, email);
    await openSignInLink(page, sink, email);
    await confirmSignIn(page, server.baseUrl);
    return { context, page, consoleErrors };
  }

  it('makes an invoice: a wrong date shown, fixed, totals, preview, final charged once, the API’s bytes, history, out of credits', async () => {
    const email = `baker.${target}.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { page, consoleErrors } = await signedInPage({ javaScriptEnabled: true }, email);

    await page.getByRole('link', { name: 'New document' }).click();
    await page.getByRole('link', { name: 'Invoice', exact: true }).click();
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    // Start from a JSON body: the bridge from the API.
    await page.getByText('Start from a JSON request body').click();
    await page.getByLabel('A JSON request body').fill(JSON.stringify(INVOICE, null, 2));
    await page.getByRole('button', { name: 'Fill the form from it' }).click();
    // The body is checked as it is filled in: its wrong date is named at the field and in the summary at once.
    await expect.poll(() => page.getByLabel('Seller name').inputValue()).toBe('Bäckerei Zeynep Öztürk');
    const summary = page.locator('#problems');
    await summary.waitFor();
    expect(await summary.innerText()).toContain('Date: A real calendar date YYYY-MM-DD.');
    // The script moves focus to the summary once it is shown: waited for, not read at once (a busy machine is slower).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('problems');
    expect(await page.locator('#f-fields-date-error').innerText()).toBe('A real calendar date YYYY-MM-DD.');
    expect(await page.getByLabel('Date (required)').getAttribute('aria-describedby')).toContain('f-fields-date-error');
    await summary.getByRole('link', { name: /Date/ }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('f-fields-date');

    await page.getByLabel('Date (required)').fill('2026-12-01');
    await page.getByRole('button', { name: 'Check and show totals' }).click();
    const totals = page.locator('#totals');
    await totals.waitFor();
    expect(await totals.innerText()).toMatch(/Balance due\s+EUR 104\.97/);

    const previewAnswer = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.headers()['content-type'] === 'application/pdf',
    );
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = await previewAnswer;
    expect(preview.headers()['content-disposition']).toBe('inline; filename="invoice-WEB-0001-preview.pdf"');
    expect(preview.frame().name()).toBe('preview');

    expect(await page.locator('#final-cost').innerText()).toContain('You have 50 credits left');
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Make final PDF (1 credit)' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('invoice-WEB-0001.pdf');
    const webSha = sha256Hex(new Uint8Array(await readFile((await download.path())!)));
    expect(await creditsOf(server, email)).toBe(49);
    const [record] = await query(server, "SELECT * FROM documents WHERE source = 'web' AND mode = 'final' AND sha256 = ?", [webSha]);
    expect(record).toBeDefined();

    // The same form sent again (the answer reloaded, the button pressed twice): the same file, nothing charged.
    const again = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Make final PDF (1 credit)' }).click();
    expect(sha256Hex(new Uint8Array(await readFile((await (await again).path())!)))).toBe(webSha);
    expect(await creditsOf(server, email)).toBe(49);
    expect(await query(server, "SELECT id FROM documents WHERE source = 'web' AND mode = 'final'")).toHaveLength(1);

    // The API makes the same bytes for the same body (section 9.7).
    await page.getByRole('link', { name: 'API keys' }).click();
    const key = await createKey(page, 'Back office', 'Full access');
    const api = await fetch(`${server.baseUrl}/api/v1/documents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        ...INVOICE,
        paper: 'a4',
        fields: { ...INVOICE.fields, date: '2026-12-01', seller_details: 'Hauptstraße 5\r\n10115 Berlin' },
      }),
    });
    expect(api.status).toBe(201);
    expect(api.headers.get('svc-document-sha256')).toBe(webSha);

    await page.getByRole('link', { name: 'Usage' }).click();
    const row = page.locator('tr', { has: page.locator(`code:text("${record!.id}")`) });
    expect(await row.locator('[data-label="Source"]').innerText()).toBe('Web app');

    // A form shown while credits were left, sent once none are: the out-of-credits page, nothing made.
    await page.goto(`${server.baseUrl}/settings/documents/new/invoice`);
    await page.getByText('Start from a JSON request body').click();
    const second = { ...INVOICE, fields: { ...INVOICE.fields, date: '2026-12-01', invoice_number: 'WEB-0002' } };
    await page.getByLabel('A JSON request body').fill(JSON.stringify(second));
    await page.getByRole('button', { name: 'Fill the form from it' }).click();
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    await query(server, 'UPDATE accounts SET credits_remaining = 0 WHERE lower(email) = lower(?)', [email]);
    await page.getByRole('button', { name: 'Make final PDF (1 credit)' }).click();
    await page.getByRole('heading', { name: 'No credit left' }).waitFor();
    expect(await page.locator('main').innerText()).toMatch(/Monthly allowance\s+50 credits/);
    expect(await query(server, "SELECT id FROM documents WHERE source = 'web' AND mode = 'final'")).toHaveLength(1);
    await page.goto(`${server.baseUrl}/settings/documents/new/invoice`);
    expect(await page.locator('main').innerText()).toContain('No credit is left this period');
    // A draft lives in this browser: typed, the page opened again, it is back; after signing out it is gone.
    await page.getByLabel('Seller name (required)').fill('Draft Bakery');
    await page.goto(`${server.baseUrl}/settings/documents/new/invoice`);
    expect(await page.getByLabel('Seller name (required)').inputValue()).toBe('Draft Bakery');
    expect(await page.getByRole('button', { name: 'Preview', exact: true }).getAttribute('value')).toBe('preview');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/settings/sign-in`);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((name) => name.startsWith('svc-draft:')))).toEqual([]);
    // Chromium reports each page answered 4xx (the 422 of the problems, the 402) as a failed load; nothing else, no
    // refusal of the Content-Security-Policy, no missing icon.
    expect(consoleErrors.filter((message) => !/responded with a status of (422|402)\b/.test(message))).toEqual([]);
  });

  it('makes a quote and a receipt with JavaScript off, by keyboard, on a 390 px phone', async () => {
    const email = `plumber.${target}.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { page } = await signedInPage({ javaScriptEnabled: false, phone: true }, email);

    await page.goto(`${server.baseUrl}/settings/documents/new/quote`);
    await expectFitsPhone(page);
    await page.getByLabel('Document title (required)').selectOption('Estimate');
    await typeInto(page, 'Seller name', 'Plomberie Dupont');
    await typeInto(page, 'Client name', 'M. Martin');
    await typeInto(page, 'Quote number', 'Q-17');
    await page.getByLabel('Date (required)').fill('2026-12-03');
    await typeInto(page, 'Scope', 'Replace the kitchen tap and the pipes under the sink.');
    await page.getByLabel('Currency (required)').selectOption('EUR');
    await typeInto(page, 'Amount', '480.00');
    await page.getByLabel('Show acceptance').check();
    await pressButton(page, 'Check and show totals');
    await page.locator('#totals').waitFor();
    expect(await page.locator('#totals').innerText()).toMatch(/Fixed price\s+EUR 480\.00/);
    await expectFitsPhone(page);

    const quote = page.waitForEvent('download');
    await pressButton(page, 'Make final PDF (1 credit)');
    expect((await quote).suggestedFilename()).toBe('quote-Q-17.pdf');
    expect(await creditsOf(server, email)).toBe(49);

    await page.goto(`${server.baseUrl}/settings/documents/new/receipt`);
    await expectFitsPhone(page);
    await typeInto(page, 'Seller name', 'Plomberie Dupont');
    await typeInto(page, 'Client name', 'M. Martin');
    await typeInto(page, 'Receipt number', 'R-17');
    await page.getByLabel('Payment date (required)').fill('2026-12-05');
    await typeInto(page, 'Description', 'Kitchen tap replaced (estimate Q-17).');
    await page.getByLabel('Currency (required)').selectOption('EUR');
    await typeInto(page, 'Amount', '480.00');
    await typeInto(page, 'Payment method', 'Bank transfer');
    // A missing required field first: the page says so without any script.
    await page.getByLabel('Payment method (required)').fill('');
    await pressButton(page, 'Make final PDF (1 credit)');
    await page.locator('#problems').waitFor();
    expect(await page.locator('#problems').innerText()).toContain('Payment method');
    await expectFitsPhone(page);
    await page.getByLabel('Payment method (required)').fill('Bank transfer');
    const receipt = page.waitForEvent('download');
    await pressButton(page, 'Make final PDF (1 credit)');
    expect((await receipt).suggestedFilename()).toBe('receipt-R-17.pdf');
    expect(await creditsOf(server, email)).toBe(48);
    const sources = await query(server, "SELECT template FROM documents WHERE source = 'web' AND mode = 'final' ORDER BY created_at");
    expect(sources.map((row) => row.template)).toEqual(expect.arrayContaining(['quote', 'receipt']));
  });
});
