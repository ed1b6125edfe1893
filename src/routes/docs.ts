import { apiPage } from '../docs/api-page.ts';
import { errorsPage } from '../docs/errors-page.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { buildOpenApi } from '../openapi/document.ts';

const pageDoc = (operationId: string, summary: string) => ({
  operationId,
  summary,
  description: summary,
  tag: 'Meta',
  responses: { 200: { description: 'HTML page.' } },
  errors: [],
});

/** Human documentation served by the service itself (no CDN). */
export function docsPages(apiRoutes: () => readonly RouteSpec[]): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/docs/api/errors',
      access: { kind: 'page' },
      versioned: false,
      doc: pageDoc('errorsPage', 'Error reference'),
      handle: () => errorsPage(),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs/api',
      access: { kind: 'page' },
      versioned: false,
      doc: pageDoc('apiPage', 'API reference'),
      // Built with a relative base: the page then names no Host, so any cache may keep it for anyone.
      handle: () => apiPage(buildOpenApi(apiRoutes(), '') as Parameters<typeof apiPage>[0]),
    }),
  ];
}
