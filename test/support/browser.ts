import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { freePort, type RunningServer, startBun, startWorker, tempDir } from './processes.ts';
import { type ReceivedMail, type SmtpSink, signInLinkIn } from './smtp.ts';

/** Debian's chromium (`apt-get install chromium`): Playwright drives it without downloading a browser of its own. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** One headless Chromium for a whole test file or script; each case opens its own context (own cookie jar). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the browser tests need Chromium at ${CHROMIUM}: apt-get install chromium`);
  // No sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export type SettingsTarget = 'bun' | 'worker';

export interface SettingsServer {
  /** http://localhost:<port>: Chromium keeps Secure cookies on localhost, not on 127.0.0.1. */
  baseUrl: string;
  /** libSQL URL of the server's database file, for checking what was stored. */
  databaseUrl: string;
  server: RunningServer;
}

/** The server's mail settings: SMTP to the test's sink, in clear on loopback. */
function settingsEnv(baseUrl: string, sink: SmtpSink): Record<string, string> {
  return {
    PUBLIC_BASE_URL: baseUrl,
    LOG_REQUESTS: 'false',
    MAIL_TRANSPORT: 'smtp',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    SMTP_TLS: 'none',
    MAIL_FROM: 'svc <no-reply@svc.test>',
  };
}

/** The Bun server on a new database file, or the Worker in workerd on a new local D1, mailing through the sink. */
export async function startSettingsServer(target: SettingsTarget, sink: SmtpSink): Promise<SettingsServer> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const env = settingsEnv(baseUrl, sink);
  if (target === 'bun') {
    const databaseUrl = `file:${join(tempDir('svc-browser-'), 'svc.db')}`;
    return { baseUrl, databaseUrl, server: await startBun({ ...env, DATABASE_URL: databaseUrl }, port) };
  }
  const persist = tempDir('svc-browser-d1-');
  const server = await startWorker(port, undefined, { persist, vars: env });
  const folder = join(persist, 'v3/d1/miniflare-D1DatabaseObject');
  const file = readdirSync(folder).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  return { baseUrl, databaseUrl: `file:${join(folder, file!)}`, server };
}

/** The Bun server on a new database file, with no mail: enough for the documentation pages. */
export async function startDocsServer(): Promise<RunningServer & { baseUrl: string }> {
  const port = await freePort();
  const server = await startBun({ DATABASE_URL: `file:${join(tempDir('svc-docs-'), 'svc.db')}`, LOG_REQUESTS: 'false' }, port);
  return { ...server, baseUrl: `http://localhost:${port}` };
}

/**
 * The steps of the Settings path, shared by the browser test and the screenshot script; each waits until the
 * page it leads to is there, so that the caller can look at it. Elements are found by their label and role name
 * (docs: /work/plan/settings-pages.md), as a person or a screen reader finds them.
 */
export async function signUp(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/settings/sign-up`);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
}

export async function askForSignInLink(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/settings/sign-in`);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
}

/** Reads the link from the mail the sink received for the address; opens it (the page that asks to confirm). */
export async function openSignInLink(page: Page, sink: SmtpSink, email: string): Promise<{ mail: ReceivedMail; link: string }> {
  // workerd sends through its own TCP socket on a loaded machine: more than the sink's default wait.
  const mail = await sink.waitForMessage({ to: email, timeoutMs: 30_000 });
  const link = signInLinkIn(mail);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  return { mail, link };
}

/** Presses `Sign in` on the link's page: the session starts and the overview shows. */
export async function confirmSignIn(page: Page, baseUrl: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${baseUrl}/settings`);
}

/** Creates a key on the keys page; returns its secret, read from the one page that shows it. */
export async function createKey(page: Page, name: string, kind: 'Full access' | 'Preview only'): Promise<string> {
  await page.getByLabel('Key name', { exact: true }).fill(name);
  await page.getByLabel('Kind', { exact: true }).selectOption({ label: kind });
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.locator('#new-key-secret');
  await secret.waitFor();
  return (await secret.textContent())!.trim();
}
