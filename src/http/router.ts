import { IttyRouter } from 'itty-router';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { isApiVersion, NEWEST_API_VERSION } from '../contract/version.ts';
import type { Guarded, RequestContext } from './context.ts';
import { preflight, withPublicCors } from './cors.ts';
import { errorResponse } from './respond.ts';
import type { RouteSpec } from './route.ts';

type Dispatch = (request: Request, context: Omit<RequestContext, 'params'>) => Promise<Response>;

/** Runs before a route's handler once it is matched; returns the caller's key and account where it takes one. */
type Guard = (route: RouteSpec, context: RequestContext) => Promise<Guarded>;

function checkVersion(request: Request): void {
  const version = request.headers.get(HEADERS.version);
  if (version !== null && !isApiVersion(version.trim())) {
    throw new ApiError('invalid_request', {
      detail: 'unsupported_version',
      message: `${HEADERS.version} names a version this API does not have; the current version is ${NEWEST_API_VERSION}.`,
    });
  }
}

function allowedMethods(group: readonly RouteSpec[]): string {
  const methods: string[] = group.map((route) => route.method);
  if (group.some((route) => route.access.kind === 'public')) methods.push('OPTIONS');
  return methods.join(', ');
}

/**
 * One itty-router entry per path; the methods of a path are dispatched here so that a path that exists
 * answers 405 with `Allow` for any other method, and public paths get CORS on every answer, errors included.
 */
export function buildRouter(routes: readonly RouteSpec[], guard: Guard): Dispatch {
  const router = IttyRouter();
  const paths = new Map<string, RouteSpec[]>();
  for (const route of routes) paths.set(route.path, [...(paths.get(route.path) ?? []), route]);

  for (const [path, group] of paths) {
    const isPublic = group.some((route) => route.access.kind === 'public');
    // Settings pages answer a refusal as a page, which the app makes: the router leaves theirs to it.
    const isPage = group.some((route) => route.access.kind === 'session');
    const ittyPath = path.replace(/\{(\w+)\}/g, ':$1');
    router.all(ittyPath, async (request: Request & { params: Record<string, string> }, base: RequestContext) => {
      const context: RequestContext = { ...base, params: request.params };
      context.trace.route = path;
      let response: Response;
      try {
        response = await dispatchMethod(group, isPublic, context, guard);
      } catch (error) {
        if (!(error instanceof ApiError) || isPage) throw error;
        response = errorResponse(error, context);
      }
      return isPublic ? withPublicCors(response) : response;
    });
  }

  return async (request, context) => (await router.fetch(request, context)) as Response;
}

async function dispatchMethod(group: readonly RouteSpec[], isPublic: boolean, context: RequestContext, guard: Guard): Promise<Response> {
  const method = context.request.method;
  const route = group.find((candidate) => candidate.method === method);
  if (!route) {
    if (isPublic && method === 'OPTIONS') return preflight();
    throw new ApiError('method_not_allowed', {
      message: `This path takes ${allowedMethods(group)}.`,
      headers: { [HEADERS.allow]: allowedMethods(group) },
    });
  }
  if (route.versioned) checkVersion(context.request);
  return route.handle({ ...context, ...(await guard(route, context)) });
}
