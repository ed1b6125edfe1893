import { SESSION_COOKIE } from '../../src/pages/security.ts';
import { BASE, type TestApp } from './app.ts';
import type { Inbox } from './inbox.ts';

/** The session cookie's value in a Set-Cookie header, `''` when it clears it, undefined when it sets none. */
/** The headers every Settings answer carries (the page contract), as `Headers` reports them. */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** The new key's secret on the page that answers a create or a regenerate. */
export const secretIn = (page: string) => /<code id="new-key-secret">([^<]+)<\/code>/.exec(page)?.[1];

export function sessionCookieIn(response: Response): string | undefined {
  const header = response.headers.get('Set-Cookie');
  if (!header) return undefined;
  if (!header.startsWith(`${SESSION_COOKIE}=`)) return undefined;
  const match = /^[^=]+=([^;]*)/.exec(header);
  if (!match) return undefined;
  return /Max-Age=0/i.test(header) ? '' : match[1];
}

/** The CSRF token a page's forms carry. */
export function csrfIn(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('the page has no csrf field');
  return match[1]!;
}

/** The create-key form's one-time id (a form sent twice makes one key). */
export function formIdIn(page: string): string {
  const match = /name="form_id" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('the page has no form_id field');
  return match[1]!;
}

/**
 * One browser on the Settings pages: keeps the session cookie, sends forms as a same-origin page would
 * (Origin, url-encoded), from one client address.
 */
export class SettingsBrowser {
  cookie: string | undefined;
  private readonly app: TestApp;
  private readonly clientAddress: string;

  constructor(app: TestApp, clientAddress = '198.51.100.7') {
    this.app = app;
    this.clientAddress = clientAddress;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.cookie ? { Cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}), ...extra };
  }

  private async send(request: Request): Promise<Response> {
    const response = await this.app.fetch(request, { clientAddress: this.clientAddress });
    const cookie = sessionCookieIn(response);
    if (cookie !== undefined) this.cookie = cookie || undefined;
    return response;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(new Request(`${BASE}${path}`, { headers: this.headers(headers) }));
  }

  /** A form POST; `origin: null` leaves the Origin header out. */
  post(path: string, fields: Record<string, string>, options: { origin?: string | null; headers?: Record<string, string> } = {}) {
    const origin = options.origin === undefined ? new URL(BASE).origin : options.origin;
    const headers = this.headers({
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(origin === null ? {} : { Origin: origin }),
      ...options.headers,
    });
    return this.send(new Request(`${BASE}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() }));
  }

  /** A form POST of a signed-in page: the csrf field (and a create form's form_id) read from `fromPage` first. */
  async postSignedIn(path: string, fields: Record<string, string> = {}, fromPage = '/settings'): Promise<Response> {
    const page = await (await this.get(fromPage)).text();
    const formId: Record<string, string> = /name="form_id"/.test(page) ? { form_id: formIdIn(page) } : {};
    return this.post(path, { csrf: csrfIn(page), ...formId, ...fields });
  }

  /** The link's token, from the link in the newest mail to the address. */
  static tokenOf(link: string): string {
    return new URL(link).searchParams.get('token')!;
  }

  /** Follows the newest sign-in link mailed to the address: opens its page, presses Sign in. */
  async useLink(inbox: Inbox, email: string): Promise<Response> {
    const link = inbox.linkFor(email);
    await this.get(new URL(link).pathname + new URL(link).search);
    return this.post('/settings/sign-in/link', { token: SettingsBrowser.tokenOf(link), ...(await this.csrfIfSignedIn()) });
  }

  private async csrfIfSignedIn(): Promise<Record<string, string>> {
    if (!this.cookie) return {};
    const page = await this.get('/settings');
    return page.status === 200 ? { csrf: csrfIn(await page.text()) } : {};
  }

  /** Signs up (or in, for a taken address) and follows the link: signed in afterwards. */
  async signUp(inbox: Inbox, email: string): Promise<void> {
    const answered = await this.post('/settings/sign-up', { email, ...(await this.csrfIfSignedIn()) });
    if (answered.status !== 200) throw new Error(`sign-up answered ${answered.status}`);
    const used = await this.useLink(inbox, email);
    if (used.status !== 303) throw new Error(`the sign-in link answered ${used.status}`);
  }
}
