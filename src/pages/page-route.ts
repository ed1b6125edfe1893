import { ApiError } from '../contract/api-error.ts';
import type { ErrorCode } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import type { RequestContext, RequestTrace } from '../http/context.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { isCsrfTokenValid, readSession, type Session } from '../settings/sessions.ts';
import { PageError } from './errors.ts';
import { field, readForm } from './form.ts';
import { html } from './html.ts';
import { PAGE_PATHS, pageResponse, seeOther } from './layout.ts';
import { clearedSessionCookie, isSameOriginForm, sessionCookieValue, withPageSecurityHeaders } from './security.ts';

/** What a Settings page handler gets: the request, the session when signed in, and the form of a POST. */
export interface PageRequest {
  readonly context: RequestContext;
  readonly session: Session | undefined;
  /** The fields of a POST's form; empty on GET. */
  readonly form: URLSearchParams;
}

export interface SignedInPageRequest extends PageRequest {
  readonly session: Session;
}

interface PageSpec<S extends 'required' | 'optional'> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  /** `required`: signed-out requests are sent to sign in; `optional`: the page serves both. */
  readonly session: S;
  /** The largest form a POST may send; FORM_MAX_BYTES by default (Settings' forms are a few short fields). */
  readonly formMaxBytes?: number;
  /**
   * Whether the answer to this form may be shown in a frame of the service's own pages (the web app's preview);
   * every other answer refuses framing.
   */
  readonly frameable?: (form: URLSearchParams) => boolean;
  handle(page: S extends 'required' ? SignedInPageRequest : PageRequest): Response | Promise<Response>;
}

/**
 * A Settings page. Before the handler: a POST must come from a page of this service (Origin), its form is read
 * (small, url-encoded), and when signed in it must carry the session's CSRF token. Every answer, errors and
 * redirects included, carries the pages' security headers; errors are pages, never the API's JSON.
 */
export function settingsPage<S extends 'required' | 'optional'>(spec: PageSpec<S>): RouteSpec {
  return defineRoute({
    method: spec.method,
    path: spec.path,
    access: { kind: 'session' },
    versioned: false,
    doc: {
      operationId: spec.operationId,
      summary: spec.summary,
      description: spec.summary,
      tag: 'Settings',
      responses: { 200: { description: 'HTML page.' } },
    },
    async handle(context) {
      // The session, once read, so that an error page still shows the navigation of a signed-in holder; the form, for
      // whether its answer may be framed.
      const seen: { session?: Session; form?: URLSearchParams } = {};
      let response: Response;
      try {
        response = await answer(spec, context, seen);
      } catch (error) {
        response = errorPage(error, seen.session, context.trace);
      }
      const frameable = seen.form !== undefined && (spec.frameable?.(seen.form) ?? false);
      return withPageSecurityHeaders(response, context.baseUrl, { frameable });
    },
  });
}

async function answer<S extends 'required' | 'optional'>(
  spec: PageSpec<S>,
  context: RequestContext,
  seen: { session?: Session; form?: URLSearchParams },
): Promise<Response> {
  const { request, deps } = context;
  const isPost = request.method === 'POST';
  if (isPost && !isSameOriginForm(request, context.baseUrl)) {
    throw new PageError(403, 'Refused', 'This form was not sent from a page of this service, so nothing was done.');
  }
  const cookie = sessionCookieValue(request);
  const session = await liveSession(deps, cookie);
  if (session) {
    context.trace.accountId = session.account.id;
    seen.session = session;
  }
  // A cookie of an ended or expired session is cleared, so the browser stops sending it.
  const clearStale: Record<string, string> = cookie !== undefined && !session ? { [HEADERS.setCookie]: clearedSessionCookie() } : {};
  if (spec.session === 'required' && !session) return seeOther(PAGE_PATHS.signIn, clearStale);
  const form = isPost ? await readForm(request, spec.formMaxBytes) : new URLSearchParams();
  seen.form = form;
  if (isPost && session && !isCsrfTokenValid(session.token, field(form, 'csrf'))) {
    throw new PageError(
      403,
      'Refused',
      'This form is out of date or was not sent from your Settings page, so nothing was done. Reload the page and try again.',
    );
  }
  const response = await spec.handle({ context, session, form } as SignedInPageRequest);
  for (const [name, value] of Object.entries(clearStale)) if (!response.headers.has(name)) response.headers.set(name, value);
  return response;
}

/** The session the cookie names, while it lasts. */
async function liveSession(deps: RequestContext['deps'], cookie: string | undefined): Promise<Session | undefined> {
  return cookie === undefined ? undefined : await readSession(deps.db, cookie, deps.clock.now());
}

/**
 * The answer to a path under Settings that no route serves, whatever its method: a Settings page with the pages'
 * headers (and the navigation when signed in), where the router alone would answer the API's JSON 404.
 */
/**
 * The page of an error the router or the app answers on a Settings path. No session is read: the database may be
 * what failed.
 */
export function settingsErrorPage(error: ApiError, context: Pick<RequestContext, 'baseUrl' | 'trace'>): Response {
  return withPageSecurityHeaders(errorPage(error, undefined, context.trace), context.baseUrl);
}

export async function settingsNotFoundPage(context: Omit<RequestContext, 'params'>): Promise<Response> {
  const session = await liveSession(context.deps, sessionCookieValue(context.request));
  const notFound = new PageError(404, 'Page not found', 'There is no Settings page at this address.');
  return withPageSecurityHeaders(errorPage(notFound, session, context.trace), context.baseUrl);
}

/** The title of a page for each refusal of the contract a Settings page can meet. */
const API_ERROR_TITLES: Partial<Record<ErrorCode, string>> = {
  rate_limited: 'Too many requests',
  service_busy: 'The service is busy',
  method_not_allowed: 'Method not allowed',
  internal_error: 'Something went wrong',
};

/**
 * A page for what the handler refused, the rate limiter included (429 or 503 with Retry-After, as in the API),
 * and for the answers the router and the app make for a Settings path (405 with Allow, 500, 503). A refusal of the
 * contract leaves its code in the trace for the request's log line; the pages' own refusals have none.
 */
function errorPage(error: unknown, session: Session | undefined, trace: RequestTrace): Response {
  if (error instanceof ApiError) {
    trace.errorCode = error.code;
    const title = API_ERROR_TITLES[error.code as ErrorCode] ?? 'Refused';
    const response = pageResponse({ title, status: error.status, session, body: html`<h1>${title}</h1><p>${error.message}</p>` });
    for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
    return response;
  }
  if (!(error instanceof PageError)) throw error;
  const response = pageResponse({
    title: error.title,
    status: error.status,
    session,
    body: html`<h1>${error.title}</h1><p>${error.message}</p><p><a href="${PAGE_PATHS.overview}">Back to Settings</a></p>`,
  });
  for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
  return response;
}
