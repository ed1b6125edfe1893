import { toJsonSchema } from '@valibot/to-json-schema';
import { type DetailCode, ERRORS, type ErrorCode } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import { NEWEST_API_VERSION } from '../contract/version.ts';
import { ERRORS_PAGE_PATH } from '../http/respond.ts';
import type { RouteSpec } from '../http/route.ts';
import { RESPONSE_SCHEMAS } from './schemas.ts';

/** Typed as a detail code of the error table, so that renaming the code there fails the build here. */
const UNKNOWN_VERSION: DetailCode<'invalid_request'> = 'unsupported_version';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const COMMON_RESPONSE_HEADERS = {
  [HEADERS.version]: headerRef('SvcVersion'),
  [HEADERS.requestId]: headerRef('SvcRequestId'),
};

/** Error codes any route of a kind can answer with, besides the ones it lists itself. */
function errorCodesOf(route: RouteSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.doc.errors);
  if (route.versioned) codes.add('invalid_request');
  codes.add('not_found');
  codes.add('rate_limited');
  codes.add('internal_error');
  if (route.access.kind === 'key') {
    codes.add('unauthorized');
    if (route.access.scope) codes.add('forbidden_scope');
    codes.add('service_busy');
  }
  return [...codes];
}

function errorResponses(route: RouteSpec): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => {
        const headers: Record<string, unknown> = { ...COMMON_RESPONSE_HEADERS };
        if (codes.some((code) => 'retryAfter' in ERRORS[code])) headers[HEADERS.retryAfter] = headerRef('RetryAfter');
        return [
          String(status),
          {
            description: codes.map((code) => `\`${code}\`: ${ERRORS[code].meaning}`).join('\n\n'),
            headers,
            content: { 'application/json': { schema: ref('Error') } },
          },
        ];
      }),
  );
}

function successResponses(route: RouteSpec): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(route.doc.responses).map(([status, { description, schema, content, headers }]) => [
      status,
      {
        description,
        headers: { ...COMMON_RESPONSE_HEADERS, ...(headers as object | undefined) },
        ...(content ? { content } : schema ? { content: { 'application/json': { schema } } } : {}),
      },
    ]),
  );
}

function operation(route: RouteSpec): Record<string, unknown> {
  const parameters = [...(route.versioned ? [{ $ref: '#/components/parameters/SvcVersion' }] : []), ...(route.doc.parameters ?? [])];
  return {
    operationId: route.doc.operationId,
    summary: route.doc.summary,
    description: route.doc.description,
    tags: [route.doc.tag],
    security: route.access.kind === 'key' ? [{ bearerKey: [] }] : [],
    ...(route.access.kind === 'key' && route.access.scope ? { 'x-required-scope': route.access.scope } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.doc.requestBody ? { requestBody: route.doc.requestBody } : {}),
    responses: { ...successResponses(route), ...errorResponses(route) },
  };
}

function componentSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => {
      const { $schema: _dialect, ...jsonSchema } = toJsonSchema(schema, { target: 'draft-2020-12' }) as Record<string, unknown>;
      return [name, jsonSchema];
    }),
  );
}

/** The OpenAPI 3.1 description of the API, generated from the routes and the contract constants. */
export function buildOpenApi(routes: readonly RouteSpec[], baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Document Rendering Service API',
      version: NEWEST_API_VERSION,
      description:
        'Renders invoices, quotes and payment receipts as PDF from JSON. Errors are JSON of the form ' +
        '`{error: {code, message, details?, request_id, docs_url}, credit_used}`; clients key on `code` and treat ' +
        'an unknown code by its HTTP status. Error reference: ' +
        `${baseUrl}${ERRORS_PAGE_PATH}`,
    },
    servers: [{ url: baseUrl }],
    tags: [{ name: 'Templates' }, { name: 'Documents' }, { name: 'Account' }, { name: 'Meta' }],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: `${HEADERS.authorization}: Bearer <API_KEY>, a live key.` },
      },
      parameters: {
        SvcVersion: {
          name: HEADERS.version,
          in: 'header',
          required: false,
          description: `API version; without it the newest is used. An unknown version is ${ERRORS.invalid_request.status} ${UNKNOWN_VERSION}.`,
          schema: { type: 'string', enum: [NEWEST_API_VERSION] },
        },
      },
      headers: {
        SvcVersion: { description: 'API version that served the request.', schema: { type: 'string' } },
        SvcRequestId: { description: 'Opaque request id, same as error.request_id.', schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
        Allow: { description: 'Methods the path takes.', schema: { type: 'string' } },
        RateLimitLimit: { description: 'Quota of the reported bucket.', schema: { type: 'integer' } },
        RateLimitRemaining: { description: 'Requests left in the window of the reported bucket.', schema: { type: 'integer' } },
        RateLimitReset: { description: 'Seconds until the reported window resets.', schema: { type: 'integer' } },
      },
    },
  };
}
