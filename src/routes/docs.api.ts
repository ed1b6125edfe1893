import { apiPage } from '../docs/api-page.ts';
import { definePage, type RouteSpec } from '../http/route.ts';
import { buildOpenApi } from '../openapi/document.ts';

/** The API reference page, made from the routes it describes. */
export function getApiPageRoute(apiRoutes: () => readonly RouteSpec[]): RouteSpec {
  return definePage({
    path: '/docs/api',
    operationId: 'getApiPage',
    summary: 'API reference',
    // Built with a relative base: the page then names no Host, so any cache may keep it for anyone.
    handle: () => apiPage(buildOpenApi(apiRoutes(), '') as Parameters<typeof apiPage>[0]),
  });
}
