import { HEADERS } from '../contract/headers.ts';
import { PUBLIC_CACHE_SECONDS } from '../contract/limits.ts';

/** CORS of the public routes (section 4.1); routes that take a key never get these headers. */
export function withPublicCors(response: Response): Response {
  response.headers.set('Access-Control-Allow-Origin', '*');
  response.headers.set('Vary', HEADERS.version);
  if (response.status === 200) response.headers.set('Cache-Control', `public, max-age=${PUBLIC_CACHE_SECONDS}`);
  return response;
}

export function preflight(): Response {
  return withPublicCors(
    new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': 'GET, OPTIONS',
        'Access-Control-Allow-Headers': HEADERS.version,
        'Access-Control-Max-Age': String(PUBLIC_CACHE_SECONDS),
      },
    }),
  );
}
