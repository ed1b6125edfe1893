import { apiPageHtml } from '../docs/api-page.ts';
import { htmlAnswer } from '../docs/html.ts';
import { definePage, type RouteSpec } from '../http/route.ts';
import { buildOpenApi } from '../openapi/document.ts';

/**
 * The API reference page, made from the routes it describes: once per process (or isolate), since nothing in it
 * changes while it runs, and building it costs several milliseconds of CPU.
 */
export function getApiPageRoute(apiRoutes: () => readonly RouteSpec[]): RouteSpec {
  let html: string | undefined;
  return definePage({
    path: '/docs/api',
    operationId: 'getApiPage',
    summary: 'API reference',
    // Built with a relative base: the page then names no Host, so any cache may keep it for anyone.
    handle: () => {
      html ??= apiPageHtml(buildOpenApi(apiRoutes(), '') as Parameters<typeof apiPageHtml>[0]);
      return htmlAnswer(html);
    },
  });
}
