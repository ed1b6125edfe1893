import { HEADERS } from '../contract/headers.ts';

/** The pages' Content-Security-Policy, by who may frame the answer. */
function pagePolicy(frameAncestors: "'none'" | "'self'"): string {
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors ${frameAncestors}; base-uri 'none'`;
}

/**
 * What every Settings answer carries, pages, assets, redirects and errors alike: no script or style but the
 * service's own files, frames only of the service's own pages, no framing, no referrer (a sign-in link's URL
 * holds its token), nothing cached.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  [HEADERS.contentSecurityPolicy]: pagePolicy("'none'"),
  [HEADERS.referrerPolicy]: 'no-referrer',
  [HEADERS.cacheControl]: 'no-store',
  [HEADERS.contentTypeOptions]: 'nosniff',
  [HEADERS.frameOptions]: 'DENY',
};

/** The same for the one answer a page of the service may frame: the web app's preview (and its refusal). */
const FRAMEABLE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_SECURITY_HEADERS,
  [HEADERS.contentSecurityPolicy]: pagePolicy("'self'"),
  [HEADERS.frameOptions]: 'SAMEORIGIN',
};

export const SETTINGS_PATH = '/settings';

export function isSettingsPath(pathname: string): boolean {
  return pathname === SETTINGS_PATH || pathname.startsWith(`${SETTINGS_PATH}/`);
}

/** One year: browsers then reach the service by https only, and a network cannot strip TLS to plant a cookie. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** The pages' headers; and Strict-Transport-Security when the service's base URL is https. */
export function withPageSecurityHeaders(response: Response, baseUrl: string, options: { frameable?: boolean } = {}): Response {
  const headers = options.frameable ? FRAMEABLE_PAGE_HEADERS : PAGE_SECURITY_HEADERS;
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  if (new URL(baseUrl).protocol === 'https:') response.headers.set(HEADERS.strictTransportSecurity, STRICT_TRANSPORT_SECURITY);
  return response;
}

/**
 * `__Secure-`: browsers take a cookie of this name only from an https page (or localhost) and only with Secure, so
 * a network attacker on plain http cannot plant one; Path=/settings is still allowed (`__Host-` would need Path=/).
 */
export const SESSION_COOKIE = '__Secure-svc_session';
const COOKIE_ATTRIBUTES = `HttpOnly; Secure; SameSite=Lax; Path=${SETTINGS_PATH}`;

export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; ${COOKIE_ATTRIBUTES}; Max-Age=${maxAgeSeconds}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;
}

/**
 * The session cookie's value as the browser sent it, if it sent exactly one. Two mean one was planted beside the
 * service's own (a sibling domain, a narrower Path), and the browser's order says nothing of which is which: then
 * neither is taken, rather than maybe the planted one.
 */
export function sessionCookieValue(request: Request): string | undefined {
  const header = request.headers.get(HEADERS.cookie);
  if (!header) return undefined;
  const values = header
    .split(';')
    .map((pair) => pair.split('='))
    .filter(([name]) => name?.trim() === SESSION_COOKIE)
    .map(([, ...value]) => value.join('=').trim());
  return values.length === 1 ? values[0] || undefined : undefined;
}

/**
 * Whether a form was sent by a page of this service: its Origin is the service's. Under
 * `Referrer-Policy: no-referrer` browsers send a form's POST with `Origin: null` (Fetch standard, "append a
 * request Origin header"), so `null` is taken when `Sec-Fetch-Site: same-origin` vouches for it: a header no
 * page can set, sent by every current browser.
 */
export function isSameOriginForm(request: Request, baseUrl: string): boolean {
  const origin = request.headers.get(HEADERS.origin);
  if (origin === new URL(baseUrl).origin) return true;
  return origin === 'null' && request.headers.get(HEADERS.fetchSite) === 'same-origin';
}
