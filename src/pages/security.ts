/**
 * What every Settings answer carries, pages, assets, redirects and errors alike: no script or style but the
 * service's own files, no framing, no referrer (a sign-in link's URL holds its token), nothing cached.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export const SETTINGS_PATH = '/settings';

export function isSettingsPath(pathname: string): boolean {
  return pathname === SETTINGS_PATH || pathname.startsWith(`${SETTINGS_PATH}/`);
}

export function withPageSecurityHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const SESSION_COOKIE = 'svc_session';
const COOKIE_ATTRIBUTES = `HttpOnly; Secure; SameSite=Lax; Path=${SETTINGS_PATH}`;

export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; ${COOKIE_ATTRIBUTES}; Max-Age=${maxAgeSeconds}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;
}

/** The session cookie's value as the browser sent it, if it sent one. */
export function sessionCookieValue(request: Request): string | undefined {
  const header = request.headers.get('Cookie');
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const [name, ...value] = pair.split('=');
    if (name?.trim() === SESSION_COOKIE) return value.join('=').trim() || undefined;
  }
  return undefined;
}

/**
 * Whether a form was sent by a page of this service: its Origin is the service's. Under
 * `Referrer-Policy: no-referrer` browsers send a form's POST with `Origin: null` (Fetch standard, "append a
 * request Origin header"), so `null` is taken when `Sec-Fetch-Site: same-origin` vouches for it: a header no
 * page can set, sent by every current browser.
 */
export function isSameOriginForm(request: Request, baseUrl: string): boolean {
  const origin = request.headers.get('Origin');
  if (origin === new URL(baseUrl).origin) return true;
  return origin === 'null' && request.headers.get('Sec-Fetch-Site') === 'same-origin';
}
