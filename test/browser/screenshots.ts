/**
 * Screenshots of every Settings page and of the API reference, at desktop width (1280 px) and phone width
 * (390 px), into dist/screenshots/: `npm run screenshots` (`npm run screenshots -- docs` for the reference only).
 * Walks the customer path of the browser test against the Bun server (a new database file, mail through a test
 * SMTP sink) and prints each file, with a warning for a page wider than the screen.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  askForSignInLink,
  confirmSignIn,
  createKey,
  launchChromium,
  openSignInLink,
  type SettingsServer,
  signUp,
  startDocsServer,
  startSettingsServer,
} from '../support/browser.ts';
import { ROOT } from '../support/processes.ts';
import { finalBody, fixture } from '../support/requests.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts';

const OUT = join(ROOT, 'dist/screenshots');
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * A full-page PNG. Also reports what a screenshot shows only in part: a page wider than the screen, and a box
 * that scrolls sideways (a wide table whose last columns are out of sight until the reader scrolls it).
 */
async function shoot(page: Page, file: string, fullPage = true): Promise<void> {
  const path = join(OUT, `${file}.png`);
  await page.screenshot({ path, fullPage });
  const findings = await page.evaluate(() => {
    const root = document.documentElement;
    const found = root.scrollWidth > root.clientWidth ? [`page ${root.scrollWidth} px wide on a ${root.clientWidth} px screen`] : [];
    for (const element of document.querySelectorAll('main *')) {
      const overflowX = getComputedStyle(element).overflowX;
      if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        const table = element.querySelector('table');
        const titleId = table?.getAttribute('aria-labelledby');
        const title = table?.querySelector('caption') ?? (titleId ? document.getElementById(titleId) : null);
        const what = title?.textContent ?? element.tagName.toLowerCase();
        found.push(`"${what}" scrolls sideways: ${element.scrollWidth} px in ${element.clientWidth} px`);
      }
    }
    return found;
  });
  console.log([path, ...findings.map((finding) => `  ${finding}`)].join('\n'));
}

async function walk(browser: Browser, server: SettingsServer, sink: SmtpSink, viewport: (typeof VIEWPORTS)[number]) {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    ...(viewport.name === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const at = (step: string) => shoot(page, `${viewport.name}-${step}`);
  const email = `ada.lovelace.${viewport.name}@example.com`;

  await page.goto(`${server.baseUrl}/settings/sign-up`);
  await at('01-sign-up');
  await signUp(page, server.baseUrl, email);
  await at('02-check-email');
  await openSignInLink(page, sink, email);
  await at('03-sign-in-link');
  await confirmSignIn(page, server.baseUrl);
  await at('04-overview');

  await page.goto(`${server.baseUrl}/settings/keys`);
  await at('05-keys-empty');
  const secret = await createKey(page, 'Production server', 'Full access');
  await at('06-new-key-secret');
  await page.goto(`${server.baseUrl}/settings/keys`);
  await createKey(page, 'Preview tool', 'Preview only');
  await page.goto(`${server.baseUrl}/settings/keys`);
  await page.getByRole('row').filter({ hasText: 'Preview tool' }).getByRole('link', { name: 'Revoke' }).click();
  await at('07a-revoke-key-confirm');
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await page.waitForURL(`${server.baseUrl}/settings/keys`);
  await at('07-keys-active-and-revoked');

  for (const reference of ['order-1001', 'order-1002', 'a-rather-long-customer-reference-2026-11-24-0001']) {
    const response = await fetch(`${server.baseUrl}/api/v1/documents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(finalBody('invoice', fixture('reference-invoice.json').fields, { reference })),
    });
    if (response.status !== 201) throw new Error(`POST /api/v1/documents answered ${response.status}: ${await response.text()}`);
  }
  await page.goto(`${server.baseUrl}/settings/keys`);
  await page.getByRole('row').filter({ hasText: 'Production server' }).getByRole('link', { name: 'Regenerate' }).click();
  await page.getByRole('button', { name: 'Regenerate key' }).click();
  await page.locator('#new-key-secret').waitFor();
  await at('08-regenerated-key');
  for (const name of ['Staging server', 'Laptop']) {
    await page.goto(`${server.baseUrl}/settings/keys`);
    await createKey(page, name, 'Full access');
  }
  await page.goto(`${server.baseUrl}/settings/keys`);
  await at('09-keys-limit-reached');

  await page.goto(`${server.baseUrl}/settings/usage`);
  await at('10-usage');
  await page.getByLabel('Reference', { exact: true }).fill('order-1002');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/reference=/);
  await at('11-usage-filtered');

  // The web app: the chooser, a form with its problems, its totals, its request to copy, the out-of-credits page.
  await page.goto(`${server.baseUrl}/settings/documents/new`);
  await at('20-new-document');
  await page.getByRole('link', { name: 'Invoice', exact: true }).click();
  await at('21-invoice-form');
  await page.getByLabel('Seller name (required)').fill('Bäckerei Zeynep Öztürk');
  await page.getByLabel('Client name (required)').fill('Café Lumière');
  await page.getByLabel('Invoice number (required)').fill('WEB-0001');
  await page.getByLabel('Description').first().fill('Croissants');
  await page.getByLabel('Quantity').first().fill('forty');
  await page.getByLabel('Unit price').first().fill('1.20');
  await page.getByRole('button', { name: 'Check and show totals' }).click();
  await page.locator('#problems').waitFor();
  await at('22-invoice-problems');
  await page.getByLabel('Date (required)').fill('2026-12-01');
  await page.getByLabel('Currency (required)').selectOption('EUR');
  await page.getByLabel('Quantity').first().fill('40');
  await page.getByLabel('Discount').fill('10%');
  await page.getByLabel('Tax rate').fill('7');
  await page.getByRole('button', { name: 'Check and show totals' }).click();
  await page.locator('#totals').waitFor();
  await at('23-invoice-totals');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.waitForTimeout(1_000);
  await at('24-invoice-preview');
  await page.getByRole('button', { name: 'Copy as API request' }).click();
  await page.locator('#copy').waitFor();
  await at('25-invoice-copy');
  await page.goto(`${server.baseUrl}/`);
  await at('26-front-door');
  await page.goto(`${server.baseUrl}/settings`);
  await at('27-overview-next-steps');

  // The account: a new address confirmed by a link to it, and the page that asks before deleting.
  const moved = `ada.king.${viewport.name}@example.com`;
  await page.goto(`${server.baseUrl}/settings/account`);
  await at('28-account');
  await page.getByLabel('New email address').fill(moved);
  await page.getByRole('button', { name: 'Email me a link to confirm' }).click();
  await page.getByRole('heading', { name: 'Check your new address' }).waitFor();
  await at('29-check-new-address');
  const changeMail = await sink.waitForMessage({ to: moved });
  await page.goto(/https?:\/\/\S+\/settings\/account\/email\/confirm\?token=\S+/.exec(changeMail.text)![0]);
  await at('30-confirm-new-address');
  await page.getByRole('button', { name: 'Change my email address' }).click();
  await page.getByRole('heading', { name: 'Your email address is changed' }).waitFor();
  await at('31-address-changed');
  await page.goto(`${server.baseUrl}/settings/account/delete`);
  await page.getByLabel('To confirm, type your email address').fill(email);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await page.locator('#form-error').waitFor();
  await at('32-delete-account-wrong-address');

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${server.baseUrl}/settings/sign-in`);
  await at('12-sign-in');
  await askForSignInLink(page, server.baseUrl, email);
  await sink.waitForMessage({ to: email });

  await page.goto(`${server.baseUrl}/settings/sign-in/link?token=expired-or-unknown`);
  await at('13-expired-link');
  await page.goto(`${server.baseUrl}/settings/no-such-page`);
  await at('14-not-found');

  await askForSignInLink(page, server.baseUrl, moved);
  await openSignInLink(page, sink, moved);
  await confirmSignIn(page, server.baseUrl);
  await page.goto(`${server.baseUrl}/settings/account/delete`);
  await page.getByLabel('To confirm, type your email address').fill(moved);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor();
  await at('33-account-deleted');
  await context.close();
}

/**
 * The API reference is one long page: a screen at each of its kinds of section (the top, an operation with a
 * body per template, a list, the errors, an object), as the reader lands there from the navigation.
 */
const DOCS_STOPS = ['', '#createDocument', '#createDocument.body.invoice', '#listDocuments', '#errors', '#schema-Error'];
/** The errors page at the longest of its codes. */
const ERRORS_STOPS = ['#idempotency_replay_unavailable', '#validation_failed'];

async function walkDocs(browser: Browser, baseUrl: string, viewport: (typeof VIEWPORTS)[number]) {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    ...(viewport.name === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  for (const [index, stop] of DOCS_STOPS.entries()) {
    await page.goto(`${baseUrl}/docs/api${stop}`);
    await shoot(page, `${viewport.name}-docs-api-${String(index + 1).padStart(2, '0')}${stop.replace(/[#.]/g, '-')}`, false);
  }
  for (const [index, stop] of ERRORS_STOPS.entries()) {
    await page.goto(`${baseUrl}/docs/api/errors${stop}`);
    await shoot(page, `${viewport.name}-docs-errors-${String(index + 1).padStart(2, '0')}${stop.replace(/[#.]/g, '-')}`, false);
  }
  if (viewport.name === 'phone') {
    await page.goto(`${baseUrl}/docs/api`);
    await page.getByText('Contents', { exact: true }).click();
    await shoot(page, 'phone-docs-api-contents-open', false);
  }
  await context.close();
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  const docs = await startDocsServer();
  try {
    for (const viewport of VIEWPORTS) await walkDocs(browser, docs.baseUrl, viewport);
  } finally {
    await docs.stop();
  }
  if (process.argv[2] !== 'docs') {
    const sink = await startSmtpSink();
    const server = await startSettingsServer('bun', sink);
    try {
      for (const viewport of VIEWPORTS) await walk(browser, server, sink, viewport);
    } finally {
      await server.server.stop();
      await sink.close();
    }
  }
} finally {
  await browser.close();
}
