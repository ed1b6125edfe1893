import { HEADERS } from '../contract/headers.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { SETTINGS_CSS, SETTINGS_JS } from '../pages/assets.ts';
import { PAGE_PATHS } from '../pages/layout.ts';
import { withPageSecurityHeaders } from '../pages/security.ts';

function asset(path: string, operationId: string, contentType: string, body: string): RouteSpec {
  return defineRoute({
    method: 'GET',
    path,
    access: { kind: 'session' },
    versioned: false,
    doc: { operationId, summary: operationId, description: operationId, tag: 'Settings', responses: {} },
    handle: ({ baseUrl }) => withPageSecurityHeaders(new Response(body, { headers: { [HEADERS.contentType]: contentType } }), baseUrl),
  });
}

export const settingsStylesheetRoute = asset(PAGE_PATHS.stylesheet, 'settingsStylesheet', 'text/css; charset=utf-8', SETTINGS_CSS);
export const settingsScriptRoute = asset(PAGE_PATHS.script, 'settingsScript', 'text/javascript; charset=utf-8', SETTINGS_JS);
