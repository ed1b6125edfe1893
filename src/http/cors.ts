import type { AppConfig } from '../config.ts';
import { HEADERS } from '../contract/headers.ts';
import { PUBLIC_CACHE_SECONDS } from '../contract/limits.ts';

const SHARED_CACHE = `public, max-age=${PUBLIC_CACHE_SECONDS}`;

/**
 * Marks a public answer whose body names `{base_url}`. Without PUBLIC_BASE_URL that is the origin the request
 * named (its Host), so only the client's own cache may keep it: a shared cache in front must never hand the
 * answer made for one Host to a request for another.
 */
export function namingBaseUrl(response: Response, config: Pick<AppConfig, 'publicBaseUrl'>): Response {
  response.headers.set(
    HEADERS.cacheControl,
    config.publicBaseUrl === undefined ? `private, max-age=${PUBLIC_CACHE_SECONDS}` : SHARED_CACHE,
  );
  return response;
}

/** CORS of the public routes (section 4.1); routes that take a key never get these headers. */
export function withPublicCors(response: Response): Response {
  response.headers.set(HEADERS.accessControlAllowOrigin, '*');
  response.headers.set(HEADERS.vary, HEADERS.version);
  if (response.status === 200 && !response.headers.has(HEADERS.cacheControl)) response.headers.set(HEADERS.cacheControl, SHARED_CACHE);
  return response;
}

export function preflight(): Response {
  return withPublicCors(
    new Response(null, {
      status: 204,
      headers: {
        [HEADERS.accessControlAllowMethods]: 'GET, OPTIONS',
        [HEADERS.accessControlAllowHeaders]: HEADERS.version,
        [HEADERS.accessControlMaxAge]: String(PUBLIC_CACHE_SECONDS),
      },
    }),
  );
}
