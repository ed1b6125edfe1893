import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../src/routes/index.ts';
import { launchChromium, startDocsServer } from '../support/browser.ts';

/**
 * The API reference in Chromium, with scripts off (the page needs none): it fits a phone, its navigation leads
 * to each section, and every link it holds inside the service leads somewhere.
 */
const PHONE_WIDTH = 390;

let browser: Browser;
let server: Awaited<ReturnType<typeof startDocsServer>>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startDocsServer()]);
}, 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

async function openReference(phone: boolean, path = '/docs/api'): Promise<Page> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    ...(phone
      ? { viewport: { width: PHONE_WIDTH, height: 844 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 900 } }),
  });
  contexts.push(context);
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const response = await page.goto(`${server.baseUrl}${path}`);
  expect(response!.status()).toBe(200);
  return page;
}

/** Where an element is on the screen, after the browser has moved to it. */
function boxOf(page: Page, id: string) {
  return page.evaluate((target) => {
    const box = document.getElementById(target)!.getBoundingClientRect();
    return { top: box.top, height: window.innerHeight };
  }, id);
}

/** Clicks the navigation link to an operation: the address names its anchor and its section is at the top of the screen. */
async function expectNavigationLeadsTo(page: Page, nav: string, operationId: string): Promise<void> {
  await page.locator(`${nav} a[href="#${operationId}"]`).click();
  await page.waitForURL(`${server.baseUrl}/docs/api#${operationId}`);
  const box = await boxOf(page, operationId);
  expect(box.top, operationId).toBeGreaterThanOrEqual(0);
  expect(box.top, operationId).toBeLessThan(box.height / 4);
}

/** The elements of `main` (or the body) that reach past the right edge of the screen: cut off, or widening the page. */
function pastTheRightEdge(page: Page, within: string): Promise<string[]> {
  return page.evaluate(
    (scope) =>
      [...document.querySelectorAll(`${scope} *`)]
        .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .filter((element) => !element.closest('details:not([open])'))
        .map((element) => `${element.tagName} ${element.textContent?.slice(0, 60)}`),
    within,
  );
}

describe('/docs/api in Chromium', { timeout: 60_000 }, () => {
  it('on a desktop screen: the navigation column stays in view and leads to each operation', async () => {
    const page = await openReference(false);
    const sidebar = page.locator('nav.sidebar');
    await expect(sidebar.isVisible()).resolves.toBe(true);
    expect(await page.locator('details.phone-nav').isVisible()).toBe(false);
    for (const route of [API_ROUTES.at(-1)!, API_ROUTES[0]!, API_ROUTES[3]!]) {
      await expectNavigationLeadsTo(page, 'nav.sidebar', route.doc.operationId);
      // Sticky: the column is still on screen, at its top, after the page has scrolled.
      expect((await sidebar.boundingBox())!.y).toBe(0);
    }
  });

  it('shows one sample at a time: curl first, the TypeScript one after a click on its tab (no script)', async () => {
    const page = await openReference(false);
    const curl = page.getByLabel('curl createDocument', { exact: true });
    const typeScript = page.getByLabel('TypeScript createDocument', { exact: true });
    expect(await curl.isVisible()).toBe(true);
    expect(await typeScript.isVisible()).toBe(false);
    await page.locator('#createDocument .tabs label', { hasText: 'TypeScript' }).click();
    expect(await typeScript.isVisible()).toBe(true);
    expect(await curl.isVisible()).toBe(false);
    expect(await typeScript.innerText()).toContain('await svc.createDocument(');
  });

  it('on a phone: nothing wider than the screen, the contents open from the top and lead to each operation', async () => {
    const page = await openReference(true);
    const [scrollWidth, clientWidth] = await page.locator('html').evaluate((root) => [root.scrollWidth, root.clientWidth]);
    expect(clientWidth).toBe(PHONE_WIDTH);
    expect(scrollWidth, 'the page is wider than the phone').toBeLessThanOrEqual(clientWidth!);
    expect(await page.locator('nav.sidebar').isVisible()).toBe(false);
    expect(await pastTheRightEdge(page, 'main'), 'elements that reach past the right edge').toEqual([]);
    for (const route of API_ROUTES) {
      // The contents stay open after a choice (no script closes them): open them only the first time.
      if (!(await page.locator('details.phone-nav').evaluate((contents) => (contents as HTMLDetailsElement).open))) {
        await page.locator('details.phone-nav > summary').click();
      }
      await expectNavigationLeadsTo(page, 'details.phone-nav', route.doc.operationId);
    }
  });

  it('the errors page on a phone: every detail table and code fits the screen, nothing cut or scrolled sideways', async () => {
    const page = await openReference(true, '/docs/api/errors');
    const [scrollWidth, clientWidth] = await page.locator('html').evaluate((root) => [root.scrollWidth, root.clientWidth]);
    expect(clientWidth).toBe(PHONE_WIDTH);
    expect(scrollWidth, 'the page is wider than the phone').toBeLessThanOrEqual(clientWidth!);
    expect(await pastTheRightEdge(page, 'body'), 'elements that reach past the right edge').toEqual([]);
    const scrolled = await page.evaluate(() =>
      [...document.querySelectorAll('table')]
        .filter((table) => table.scrollWidth > table.clientWidth)
        .map((table) => table.textContent?.slice(0, 60)),
    );
    expect(scrolled, 'tables that scroll sideways').toEqual([]);
  });

  it('every link inside the page leads to an element with that id, every error link to its entry on the errors page', async () => {
    const page = await openReference(false);
    const hrefs = [...new Set(await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')!)))];
    const local = hrefs.filter((href) => href.startsWith('#'));
    const missing = await page.evaluate(
      (ids) => ids.filter((id) => !document.getElementById(id)),
      local.map((href) => decodeURIComponent(href.slice(1))),
    );
    expect(missing, 'anchors with no element').toEqual([]);

    const onErrorsPage = hrefs
      .filter((href) => href.startsWith('/docs/api/errors#'))
      .map((href) => decodeURIComponent(href.split('#')[1]!));
    expect(onErrorsPage.length).toBeGreaterThan(50);
    const errors = await page.context().newPage();
    expect((await errors.goto(`${server.baseUrl}/docs/api/errors`))!.status()).toBe(200);
    const absent = await errors.evaluate((ids) => ids.filter((id) => !document.getElementById(id)), onErrorsPage);
    expect(absent, 'error links with no entry on /docs/api/errors').toEqual([]);

    for (const href of hrefs.filter((href) => href.startsWith('/') && !href.includes('#'))) {
      const response = await fetch(`${server.baseUrl}${href}`, { redirect: 'manual' });
      expect(response.status, href).toBeLessThan(400);
    }
  });
});
