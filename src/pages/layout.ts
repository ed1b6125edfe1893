import { isoSeconds } from '../clock.ts';
import { HEADERS } from '../contract/headers.ts';
import { csrfTokenFor, type Session } from '../settings/sessions.ts';
import { type Html, html } from './html.ts';
import { SETTINGS_PATH } from './security.ts';

export const PAGE_PATHS = {
  overview: SETTINGS_PATH,
  newDocument: `${SETTINGS_PATH}/documents/new`,
  keys: `${SETTINGS_PATH}/keys`,
  usage: `${SETTINGS_PATH}/usage`,
  account: `${SETTINGS_PATH}/account`,
  accountEmail: `${SETTINGS_PATH}/account/email`,
  accountDelete: `${SETTINGS_PATH}/account/delete`,
  signIn: `${SETTINGS_PATH}/sign-in`,
  signUp: `${SETTINGS_PATH}/sign-up`,
  signOut: `${SETTINGS_PATH}/sign-out`,
  signOutEverywhere: `${SETTINGS_PATH}/sign-out-everywhere`,
  stylesheet: `${SETTINGS_PATH}/assets/settings.css`,
  script: `${SETTINGS_PATH}/assets/settings.js`,
  home: '/',
  icon: '/favicon.svg',
  apiReference: '/docs/api',
} as const;

/** What the pages call the service, in their header and titles. */
export const SERVICE_NAME = 'Document service';

/** The hidden field every form of a signed-in page carries. */
export function csrfField(session: Session | undefined): Html {
  return session ? html`<input type="hidden" name="csrf" value="${csrfTokenFor(session.token)}">` : html``;
}

/** A form that is only a button, such as Revoke or Sign out. */
export function buttonForm(action: string, label: string, session: Session | undefined, className = ''): Html {
  return html`<form method="post" action="${action}" class="inline">${csrfField(session)}<button type="submit"${
    className ? html` class="${className}"` : ''
  }>${label}</button></form>`;
}

/** The navigation's links; each label is also the title of the page it leads to. */
const NAVIGATION = [
  { label: 'Overview', path: PAGE_PATHS.overview },
  { label: 'New document', path: PAGE_PATHS.newDocument },
  { label: 'API keys', path: PAGE_PATHS.keys },
  { label: 'Usage', path: PAGE_PATHS.usage },
  { label: 'Account', path: PAGE_PATHS.account },
] as const;

/** The navigation of a page signed out: where to start (sign-up, which may be closed, is offered by the pages that can tell). */
function signedOutNavigation(): Html {
  return html`<nav aria-label="Account"><ul>
<li><a href="${PAGE_PATHS.apiReference}">API reference</a></li>
<li><a href="${PAGE_PATHS.signIn}">Sign in</a></li>
</ul></nav>`;
}

/** The navigation of a signed-in page; the link to the page shown (by its title) is marked as the current one. */
function navigation(session: Session, title: string): Html {
  const links = NAVIGATION.map(
    (link) => html`<li><a href="${link.path}"${link.label === title ? html` aria-current="page"` : ''}>${link.label}</a></li>\n`,
  );
  return html`<nav aria-label="Settings"><ul>
${links}<li>${buttonForm(PAGE_PATHS.signOut, 'Sign out', session, 'link')}</li>
</ul></nav>`;
}

/** A whole page: the header (with the navigation when signed in) and the main content. */
export function pageResponse(input: { title: string; body: Html; session?: Session | undefined; status?: number }): Response {
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title} · ${SERVICE_NAME}</title>
<link rel="icon" href="${PAGE_PATHS.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${PAGE_PATHS.stylesheet}">
<script src="${PAGE_PATHS.script}" defer></script>
</head>
<body>
<header class="site">
<p class="brand"><a href="${input.session ? PAGE_PATHS.overview : PAGE_PATHS.home}">${SERVICE_NAME}</a></p>
${input.session ? navigation(input.session, input.title) : signedOutNavigation()}
</header>
<main>
${input.body}
</main>
</body>
</html>
`;
  return new Response(document.text, {
    status: input.status ?? 200,
    headers: { [HEADERS.contentType]: 'text/html; charset=utf-8' },
  });
}

/** After a POST: 303 to a page of Settings (a path only, never a secret). */
export function seeOther(path: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { [HEADERS.location]: path, ...headers } });
}

/** An ISO time of the contract (`2026-11-02T10:00:00Z`) as the pages show it, `2026-11-02 10:00 UTC`, in a <time>. */
export function isoTime(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export function time(ms: number): Html {
  return isoTime(isoSeconds(ms));
}
