import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS } from '../../src/contract/errors.ts';
import { TOTALS_HEADERS } from '../../src/contract/headers.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { API_ROUTES } from '../../src/routes/index.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { BASE, createTestApp, type TestApp } from '../support/app.ts';
import { publishedSchemaValidator } from '../support/openapi.ts';

let app: TestApp;
let spec: Record<string, any>;
beforeAll(async () => {
  app = await createTestApp();
  spec = await (await app.call('/api/v1/openapi.json')).json();
});

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(spec));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(spec.servers).toEqual([{ url: BASE }]);
  });

  it('describes every route of the service', () => {
    for (const route of API_ROUTES) {
      expect(spec.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
  });

  it('names every error code of section 7 in the Error schema', () => {
    expect(spec.components.schemas.Error.properties.error.properties.code.enum).toEqual(ERROR_CODES);
  });

  it('states the error statuses a public route can answer with, and no 400 for openapi.json', () => {
    const templates = spec.paths['/api/v1/templates'].get.responses;
    expect(Object.keys(templates)).toEqual(['200', '400', '404', '429', '500']);
    const openapi = spec.paths['/api/v1/openapi.json'].get.responses;
    expect(Object.keys(openapi)).toEqual(['200', '404', '429', '500']);
    expect(templates['404'].description).toContain('`not_found`');
    expect(templates['429'].headers['Retry-After']).toBeDefined();
  });

  it('uses the status of the constants for every error code it lists', () => {
    for (const operations of Object.values(spec.paths) as Record<string, any>[]) {
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses) as [string, any][]) {
          for (const [, code] of (response.description as string).matchAll(/`([a-z_]+)`: /g)) {
            expect(ERRORS[code as keyof typeof ERRORS].status).toBe(Number(status));
          }
        }
      }
    }
  });
});

type Json = Record<string, any>;
const HTTP_METHODS = ['get', 'post'];
const operations = () =>
  Object.entries(spec.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Json })),
  );
const byId = (operationId: string) => operations().find(({ operation }) => operation.operationId === operationId)!.operation;
const component = (pointer: string) =>
  pointer
    .replace('#/components/', '')
    .split('/')
    .reduce((node: Json, name) => node[name], spec.components);

/** Every value of the document with the path that leads to it. */
function* walk(value: unknown, path = '#'): Generator<[string, Json]> {
  if (value === null || typeof value !== 'object') return;
  yield [path, value as Json];
  for (const [key, member] of Object.entries(value)) yield* walk(member, `${path}/${key}`);
}

describe('the OpenAPI document for generators', () => {
  it('keeps the operationIds typed clients name their methods after', () => {
    const published = operations().map(({ operation }) => operation.operationId);
    expect(published.sort()).toEqual(API_ROUTES.map((route) => route.doc.operationId).sort());
    expect(API_ROUTES.map((route) => route.doc.operationId)).toEqual([
      'listTemplates',
      'getTemplate',
      'getOpenApi',
      'createDocument',
      'validateDocument',
      'listDocuments',
      'getDocument',
      'getDocumentFile',
      'getAccount',
    ]);
  });

  it('names one request component per template and a DocumentRequest told apart by `template`, used by create and validate', () => {
    const names = TEMPLATES.map((template) => `${template.slug[0]!.toUpperCase()}${template.slug.slice(1)}Request`);
    expect(Object.keys(spec.components.schemas).sort()).toEqual(
      [
        ...names,
        'DocumentRequest',
        'Template',
        'TemplateList',
        'Document',
        'DocumentList',
        'DocumentJson',
        'ValidateAnswer',
        'Totals',
        'Account',
        'Error',
      ].sort(),
    );
    const documentRequest = spec.components.schemas.DocumentRequest;
    expect(documentRequest.oneOf).toEqual(names.map((name) => ({ $ref: `#/components/schemas/${name}` })));
    expect(documentRequest.discriminator).toEqual({
      propertyName: 'template',
      mapping: Object.fromEntries(TEMPLATES.map((template, index) => [template.slug, `#/components/schemas/${names[index]}`])),
    });
    TEMPLATES.forEach((template, index) => {
      const variant = spec.components.schemas[names[index]!];
      expect(variant.title).toBe(names[index]);
      expect(variant.properties.template).toMatchObject({ const: template.slug, type: 'string' });
      expect(variant.required).toContain('template');
    });
    for (const operationId of ['createDocument', 'validateDocument']) {
      expect(byId(operationId).requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DocumentRequest' });
    }
  });

  it('gives every `const` its type, so that `valid: true` is a boolean and not text', () => {
    const consts = [...walk(spec)].filter(([, node]) => 'const' in node && !Array.isArray(node));
    expect(consts.length).toBeGreaterThan(0);
    for (const [path, node] of consts) expect(node.type, path).toBe(node.const === null ? 'null' : typeof node.const);
    expect(spec.components.schemas.ValidateAnswer.properties.valid).toEqual({ const: true, type: 'boolean' });
    expect(spec.components.schemas.ValidateAnswer.properties.credit_used).toEqual({ const: false, type: 'boolean' });
  });

  it('attaches the RateLimit headers to every answer of a route that takes a key, once the key is accepted', () => {
    for (const { path, method, operation } of operations()) {
      const keyed = operation.security.length > 0;
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const names = Object.keys(response.headers);
        const expected = keyed && status !== String(ERRORS.unauthorized.status);
        for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
          expect(names.includes(header), `${method} ${path} ${status} ${header}`).toBe(expected);
        }
        expect(names, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(['Svc-Version', 'Svc-Request-Id']));
        const codes = [...(response.description as string).matchAll(/`([a-z_]+)`: /g)].map(([, code]) => code as keyof typeof ERRORS);
        const retries = codes.some((code) => 'retryAfter' in ERRORS[code]);
        expect(names.includes('Retry-After'), `${method} ${path} ${status} Retry-After`).toBe(retries);
      }
    }
  });

  it('lists every header of the 201 of POST /api/v1/documents, the Svc-Totals-* ones included', () => {
    const created = byId('createDocument').responses['201'];
    expect(Object.keys(created.headers)).toEqual(expect.arrayContaining([...Object.values(TOTALS_HEADERS), 'Location', 'Svc-Document-Id']));
  });

  it('uses every component it declares', () => {
    const text = JSON.stringify({ ...spec, components: undefined });
    const components = JSON.stringify(spec.components);
    for (const [kind, entries] of Object.entries(spec.components as Json)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(entries)) {
        const pointer = `"#/components/${kind}/${name}"`;
        expect(text.includes(pointer) || components.includes(pointer), pointer).toBe(true);
      }
    }
  });

  it('describes the PDF as binary and the Accept header that chooses the JSON form instead', () => {
    const create = byId('createDocument');
    expect(create.responses['201'].content['application/pdf'].schema).toEqual({
      type: 'string',
      format: 'binary',
      contentMediaType: 'application/pdf',
    });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DocumentJson' });
    const accept = create.parameters.find((parameter: Json) => parameter.name === 'Accept');
    expect(accept).toMatchObject({ in: 'header', required: false });
    expect(accept.description).toContain('`application/json` and none of `application/pdf`, `application/*`, `*/*`');
  });

  it('publishes Idempotency-Key with the length of the contract, and says why a quoted value is longer', () => {
    const key = byId('createDocument').parameters.find((parameter: Json) => parameter.name === 'Idempotency-Key');
    expect(key.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: LIMITS.idempotencyKeyChars });
    expect(key.description).toContain(`${LIMITS.idempotencyKeyChars + 2} characters, quotes included`);
  });

  it('writes no Markdown emphasis character outside code spans in its descriptions', () => {
    for (const [path, node] of walk(spec)) {
      for (const key of ['description', 'summary']) {
        if (typeof node[key] !== 'string') continue;
        expect(node[key].replace(/`[^`]*`/g, ''), `${path}/${key}`).not.toMatch(/\*/);
      }
    }
  });

  it('has a success answer on every operation but the reserved file route, which says why it has none', () => {
    for (const { operation } of operations()) {
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      expect(successes.length > 0, operation.operationId).toBe(operation.operationId !== 'getDocumentFile');
    }
    const file = byId('getDocumentFile');
    expect(file.description).toContain('no success answer');
    expect(file.responses['404'].description).toContain('`file_not_available`');
  });

  it('has a licence, a description for every tag and a summary and description for every operation', () => {
    expect(spec.info.license.name).toBeTruthy();
    const tags = new Set(operations().flatMap(({ operation }) => operation.tags));
    expect(spec.tags.map((tag: Json) => tag.name).sort()).toEqual([...tags].sort());
    for (const tag of spec.tags) expect(tag.description, tag.name).toBeTruthy();
    for (const { operation } of operations()) {
      expect(operation.summary, operation.operationId).toBeTruthy();
      expect(operation.description, operation.operationId).toBeTruthy();
    }
  });

  it('gives examples that are valid against their schemas: every answer, every error code it lists, every request', () => {
    let checked = 0;
    for (const { path, method, operation } of operations()) {
      const contents = [
        ...Object.entries(operation.responses as Json).map(([status, response]) => [status, response.content] as const),
        ['request', operation.requestBody?.content] as const,
      ];
      for (const [status, content] of contents) {
        const media = content?.['application/json'];
        if (!media || (status === '200' && operation.operationId === 'getOpenApi')) continue;
        const validate = publishedSchemaValidator(spec as never, media.schema);
        const examples =
          media.example !== undefined
            ? [media.example]
            : Object.values(media.examples ?? {}).map((entry: any) => (entry.$ref ? component(entry.$ref) : entry).value);
        expect(examples.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
        for (const example of examples) {
          expect(validate(example), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
          checked++;
        }
        if (Number(status) >= 400) {
          const codes = [...(operation.responses[status].description as string).matchAll(/`([a-z_]+)`: /g)].map(([, code]) => code);
          expect(
            examples.map((example) => example.error.code),
            `${method} ${path} ${status}`,
          ).toEqual(codes);
          for (const example of examples) expect(example.error.docs_url).toBe(`${BASE}/docs/api/errors#${example.error.code}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(ERROR_CODES.length);
  });
});
