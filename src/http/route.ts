import type { SigningIn } from '../auth/authenticate.ts';
import type { SignInAnswers, SignInPart } from '../auth/sign-in-batch.ts';
import type { ErrorCode } from '../contract/errors.ts';
import type { Scope } from '../contract/scopes.ts';
import type { RequestContext } from './context.ts';
import type { ParameterDeclaration } from './parameters.ts';

/** OpenAPI fragments a route states about itself; the OpenAPI document is assembled from them and its declarations. */
interface RouteDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: string;
  /** Success answers by status: description, schema reference name or content map, and response headers. */
  readonly responses: Readonly<Record<string, Record<string, unknown>>>;
}

/** A request body a route reads: its OpenAPI request body, and the errors reading and checking it can answer with. */
export interface BodyDeclaration {
  readonly openApi: Record<string, unknown>;
  readonly errors: readonly ErrorCode[];
}

/**
 * `public` API routes need no key and send CORS headers; `key` routes need a valid key and, when `scope` is
 * set, that scope (a route whose scope depends on the body checks it itself); `page` is human documentation
 * outside /api/v1, left out of the OpenAPI document; `operator` routes need the operator secret (and exist only
 * when one is configured), are never cached and never get CORS; `session` is a Settings page (GET or POST,
 * outside the OpenAPI document) signed in by the session cookie, which the page layer (src/pages) reads and
 * guards itself: Origin and CSRF checks, answers as HTML pages; `probe` is the load balancers' health check outside
 * /api/v1 and the OpenAPI document, with no key, no CORS, counted in no limit. Neither a key nor a cookie is
 * accepted anywhere else.
 */
export type Access =
  | { readonly kind: 'public' }
  | { readonly kind: 'key'; readonly scope?: Scope }
  | { readonly kind: 'page' }
  | { readonly kind: 'operator' }
  | { readonly kind: 'session' }
  | { readonly kind: 'probe' };

export interface RouteSpec {
  /** HEAD only where a route says so (the health check); elsewhere it is a method the path does not take. */
  readonly method: 'GET' | 'HEAD' | 'POST';
  /** OpenAPI path template, such as `/api/v1/templates/{slug}`. */
  readonly path: string;
  readonly access: Access;
  /** False only for GET /api/v1/openapi.json, which takes no `Svc-Version` (section 4). */
  readonly versioned: boolean;
  readonly doc: RouteDoc;
  /** Its path, query and header parameters (parameters.ts): read by readParameters, published from the same. */
  readonly parameters?: readonly ParameterDeclaration[];
  readonly body?: BodyDeclaration;
  /**
   * What the route's work can answer with beyond its access, parameters and body (outcomes.ts: rendering, charging);
   * errorCodesOf adds the rest.
   */
  readonly outcomes?: readonly ErrorCode[];
  /**
   * A key route's statements, sent in the sign-in's round trip: built from the request and the caller as SQL before
   * the key is known, their answers given to the handler by name (RouteDefinition). None (undefined, as for a
   * request the handler will refuse), the handler reads for itself.
   */
  readonly withSignIn?: (context: RequestContext, caller: SigningIn) => Promise<SignInPart<string, unknown> | undefined>;
  handle(context: RequestContext): Response | Promise<Response>;
}

/** A route as written: its handler gets the answers of its own withSignIn part, typed by the names it added. */
export interface RouteDefinition<Name extends string, Prepared> extends Omit<RouteSpec, 'withSignIn' | 'handle'> {
  readonly withSignIn?: (context: RequestContext, caller: SigningIn) => Promise<SignInPart<Name, Prepared> | undefined>;
  handle(context: RequestContext, sent: SignInAnswers<Name, Prepared> | undefined): Response | Promise<Response>;
}

export function defineRoute<Name extends string = never, Prepared = undefined>(route: RouteDefinition<Name, Prepared>): RouteSpec {
  // The guard holds every route's answers as SignInAnswers<string, unknown>: this route's are the part it made.
  return { ...route, handle: (context) => route.handle(context, context.signedIn as SignInAnswers<Name, Prepared> | undefined) };
}

/** A page of human documentation the service serves itself (no CDN): GET, no `Svc-Version`, outside the OpenAPI document. */
export function definePage(page: { path: string; operationId: string; summary: string; handle: RouteSpec['handle'] }): RouteSpec {
  return defineRoute({
    method: 'GET',
    path: page.path,
    access: { kind: 'page' },
    versioned: false,
    doc: {
      operationId: page.operationId,
      summary: page.summary,
      description: page.summary,
      tag: 'Meta',
      responses: { 200: { description: 'HTML page.' } },
    },
    handle: page.handle,
  });
}

/**
 * Every error code a route can answer with: what its access, its version header, its parameters, its body and its
 * outcomes can give, and what every route can (an unknown path, a rate limit, a fault).
 */
export function errorCodesOf(route: RouteSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (route.versioned) codes.add('invalid_request');
  for (const parameter of route.parameters ?? []) for (const code of parameter.errors ?? []) codes.add(code);
  for (const code of route.body?.errors ?? []) codes.add(code);
  for (const code of route.outcomes ?? []) codes.add(code);
  codes.add('not_found');
  codes.add('rate_limited');
  codes.add('internal_error');
  if (route.access.kind === 'key' || route.access.kind === 'operator') {
    codes.add('unauthorized');
    if (route.access.kind === 'key' && route.access.scope) codes.add('forbidden_scope');
    codes.add('service_busy');
  }
  return [...codes];
}
