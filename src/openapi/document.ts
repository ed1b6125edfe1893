import { type OverrideSchemaContext, toJsonSchemaDefs } from '@valibot/to-json-schema';
import { type DetailCode, ERRORS, type ErrorCode } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import { PUBLIC_CACHE_SECONDS } from '../contract/limits.ts';
import { NEWEST_API_VERSION } from '../contract/version.ts';
import { openApiParameter } from '../http/parameters.ts';
import { ERRORS_PAGE_PATH } from '../http/respond.ts';
import { errorCodesOf, type RouteSpec } from '../http/route.ts';
import { PUBLISHED_JSON_SCHEMA_CONFIG } from '../templates/template.ts';
import { errorExample } from './examples.ts';
import { COMPONENT_SCHEMAS } from './schemas.ts';

/** Typed as a detail code of the error table, so that renaming the code there fails the build here. */
const UNKNOWN_VERSION: DetailCode<'invalid_request'> = 'unsupported_version';

const SCHEMAS_PATH = '#/components/schemas/';
const ref = (name: keyof typeof COMPONENT_SCHEMAS) => ({ $ref: `${SCHEMAS_PATH}${name}` });
const headerRef = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });
const errorExampleName = (code: ErrorCode) => `Error_${code}`;

/** The response headers several answers share, as components. */
const RESPONSE_HEADERS = {
  SvcVersion: {
    description: 'API version that served the request (every answer).',
    schema: { type: 'string', enum: [NEWEST_API_VERSION] },
  },
  SvcRequestId: { description: 'Opaque request id, the same as `error.request_id`; quote it to support.', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before sending the request again.', schema: { type: 'integer', minimum: 0 } },
  RateLimitLimit: {
    description:
      'Quota of the reported bucket (section 8 of the contract): of the buckets the request was counted in, the one with the fewest requests left. Sent on every answer to a request counted after its key was accepted; absent where the operator has switched rate limits off.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: {
    description: 'Requests left in the current window of the reported bucket.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: { description: 'Seconds until the window of the reported bucket resets.', schema: { type: 'integer', minimum: 0 } },
  CacheControl: {
    description: `\`no-store\` on errors; on a public route's 200 \`public, max-age=${PUBLIC_CACHE_SECONDS}\`, or \`private\` when the body names the request's own origin.`,
    schema: { type: 'string' },
  },
  AccessControlAllowOrigin: { description: 'Public routes answer any origin (CORS).', schema: { type: 'string', enum: ['*'] } },
  Vary: { description: `Public answers vary by \`${HEADERS.version}\`.`, schema: { type: 'string', enum: [HEADERS.version] } },
} as const;

/** Headers of every answer of a route: the version and request id; CORS on public routes; RateLimit once a key was accepted. */
function routeHeaders(route: RouteSpec, status: number): Record<string, unknown> {
  return {
    [HEADERS.version]: headerRef('SvcVersion'),
    [HEADERS.requestId]: headerRef('SvcRequestId'),
    ...(route.access.kind === 'public'
      ? { [HEADERS.accessControlAllowOrigin]: headerRef('AccessControlAllowOrigin'), [HEADERS.vary]: headerRef('Vary') }
      : {}),
    ...(route.access.kind === 'key' && status !== ERRORS.unauthorized.status
      ? {
          [HEADERS.rateLimitLimit]: headerRef('RateLimitLimit'),
          [HEADERS.rateLimitRemaining]: headerRef('RateLimitRemaining'),
          [HEADERS.rateLimitReset]: headerRef('RateLimitReset'),
        }
      : {}),
  };
}

/** The contract's order of error codes (section 7's table), in which each status lists its codes. */
const CONTRACT_ORDER = Object.keys(ERRORS) as ErrorCode[];

function errorResponses(route: RouteSpec): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  const codes = errorCodesOf(route).sort((a, b) => CONTRACT_ORDER.indexOf(a) - CONTRACT_ORDER.indexOf(b));
  for (const code of codes) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => {
        const headers: Record<string, unknown> = { ...routeHeaders(route, status), [HEADERS.cacheControl]: headerRef('CacheControl') };
        if (codes.some((code) => 'retryAfter' in ERRORS[code])) headers[HEADERS.retryAfter] = headerRef('RetryAfter');
        return [
          String(status),
          {
            description: codes.map((code) => `\`${code}\`: ${ERRORS[code].meaning}`).join('\n\n'),
            headers,
            content: {
              'application/json': {
                schema: ref('Error'),
                examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${errorExampleName(code)}` }])),
              },
            },
          },
        ];
      }),
  );
}

function successResponses(route: RouteSpec): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(route.doc.responses).map(([status, { description, schema, example, content, headers }]) => [
      status,
      {
        description,
        headers: {
          ...routeHeaders(route, Number(status)),
          ...(route.access.kind === 'public' ? { [HEADERS.cacheControl]: headerRef('CacheControl') } : {}),
          ...(headers as object | undefined),
        },
        ...(content ? { content } : schema ? { content: { 'application/json': { schema, ...(example ? { example } : {}) } } } : {}),
      },
    ]),
  );
}

function operation(route: RouteSpec): Record<string, unknown> {
  const parameters = [
    ...(route.versioned ? [{ $ref: '#/components/parameters/SvcVersion' }] : []),
    ...(route.parameters ?? []).map(openApiParameter),
  ];
  return {
    operationId: route.doc.operationId,
    summary: route.doc.summary,
    description: route.doc.description,
    tags: [route.doc.tag],
    security: route.access.kind === 'key' ? [{ bearerKey: [] }] : [],
    ...(route.access.kind === 'key' && route.access.scope ? { 'x-required-scope': route.access.scope } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: route.body.openApi } : {}),
    responses: { ...successResponses(route), ...errorResponses(route) },
  };
}

/** A JSON value's JSON Schema type, for a `const` that has none beside it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Valibot's JSON Schema as OpenAPI 3.1 publishes it: references into `#/components/schemas/` (not `$defs`), and
 * a `type` beside every `const`, which generators need to type `true` as a boolean rather than as text.
 */
function forOpenApi(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith('#/$defs/') ? `${SCHEMAS_PATH}${value.slice('#/$defs/'.length)}` : value;
  if (Array.isArray(value)) return value.map(forOpenApi);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, member]) => [key, key === 'const' ? member : forOpenApi(member)]);
  const schema = Object.fromEntries(entries);
  if ('const' in schema && !('type' in schema)) schema.type = jsonType(schema.const);
  return schema;
}

/** A valibot variant as `oneOf` with its discriminator: the key's literal in each option names that option's component. */
function withDiscriminator({ valibotSchema, jsonSchema }: OverrideSchemaContext) {
  if (valibotSchema.type !== 'variant' || !('key' in valibotSchema) || !('options' in valibotSchema)) return undefined;
  const key = valibotSchema.key as string;
  const options = valibotSchema.options as { entries: Record<string, { literal: string }> }[];
  const refs = (jsonSchema.oneOf ?? []) as { $ref?: string }[];
  if (!refs.every((option) => option.$ref)) return undefined;
  return {
    ...jsonSchema,
    discriminator: {
      propertyName: key,
      mapping: Object.fromEntries(options.map((option, index) => [option.entries[key]!.literal, refs[index]!.$ref!])),
    },
  };
}

function componentSchemas(): Record<string, unknown> {
  const definitions = toJsonSchemaDefs(COMPONENT_SCHEMAS, {
    ...PUBLISHED_JSON_SCHEMA_CONFIG,
    overrideSchema: (context) => PUBLISHED_JSON_SCHEMA_CONFIG.overrideSchema?.(context) ?? withDiscriminator(context),
  });
  return forOpenApi(definitions) as Record<string, unknown>;
}

/** One example per error code the routes list, shared by every answer that can carry it. */
function errorExamples(routes: readonly RouteSpec[], baseUrl: string): Record<string, unknown> {
  const codes = new Set(routes.flatMap(errorCodesOf));
  return Object.fromEntries(
    [...codes].map((code) => [errorExampleName(code), { summary: `${code} (${ERRORS[code].status})`, value: errorExample(code, baseUrl) }]),
  );
}

const TAGS = [
  { name: 'Templates', description: 'The document templates: their fields, rules and a complete example request. Public, no key.' },
  {
    name: 'Documents',
    description:
      'Making documents (PDF) and validating requests, and the 90-day history of the documents made. Submitted fields and PDFs are never stored.',
  },
  { name: 'Account', description: 'The plan, credits and limits of the account the calling key belongs to.' },
  { name: 'Meta', description: 'This description of the API.' },
];

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
      description: [
        'Renders invoices, quotes and payment receipts as PDF from JSON.',
        'Errors are JSON of the form `{error: {code, message, details?, request_id, docs_url}, credit_used}`; clients key on `code` and treat an unknown code by its HTTP status. ' +
          `Every code, with what to do: ${baseUrl}${ERRORS_PAGE_PATH}.`,
        `A method a path does not take is answered \`${ERRORS.method_not_allowed.status}\` \`method_not_allowed\` with an \`${HEADERS.allow}\` header listing the methods it takes; no operation below lists it, since it is never the answer to one of them.`,
        'Within this API version only additions occur: ignore unknown response fields and headers.',
      ].join('\n\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: baseUrl }],
    tags: TAGS,
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: `\`${HEADERS.authorization}: Bearer <API_KEY>\`, a live key.` },
      },
      parameters: {
        SvcVersion: {
          name: HEADERS.version,
          in: 'header',
          required: false,
          description: `API version; without it the newest is used. An unknown version is ${ERRORS.invalid_request.status} \`${UNKNOWN_VERSION}\`.`,
          schema: { type: 'string', enum: [NEWEST_API_VERSION] },
        },
      },
      headers: RESPONSE_HEADERS,
      examples: errorExamples(routes, baseUrl),
    },
  };
}
