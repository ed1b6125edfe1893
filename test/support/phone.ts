import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The phone width the pages are held to. */
export const PHONE_WIDTH = 390;

/** The page fits a phone's width: nothing to scroll sideways but a wide table inside its own box. */
export async function expectFitsPhone(page: Page): Promise<void> {
  const [scrollWidth, clientWidth] = await page.locator('html').evaluate((root) => [root.scrollWidth, root.clientWidth]);
  expect(clientWidth, page.url()).toBe(PHONE_WIDTH);
  expect(scrollWidth, `${page.url()} is wider than the phone`).toBeLessThanOrEqual(clientWidth!);
}
