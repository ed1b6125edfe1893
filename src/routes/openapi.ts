import { namingBaseUrl } from '../http/cors.ts';
import { json } from '../http/respond.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { buildOpenApi } from '../openapi/document.ts';

/** GET /api/v1/openapi.json; takes no Svc-Version header (section 4). */
export function getOpenApiRoute(allRoutes: () => readonly RouteSpec[]): RouteSpec {
  return defineRoute({
    method: 'GET',
    path: '/api/v1/openapi.json',
    access: { kind: 'public' },
    versioned: false,
    doc: {
      operationId: 'getOpenApi',
      summary: 'OpenAPI description',
      description: 'This document: the OpenAPI 3.1 description of the API.',
      tag: 'Meta',
      responses: { 200: { description: 'OpenAPI 3.1 JSON.', schema: { type: 'object', additionalProperties: true } } },
    },
    handle({ baseUrl, deps }) {
      return namingBaseUrl(json(buildOpenApi(allRoutes(), baseUrl)), deps.config);
    },
  });
}
