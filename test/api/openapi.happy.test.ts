import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS } from '../../src/contract/errors.ts';
import { API_ROUTES } from '../../src/routes/index.ts';
import { BASE, createTestApp, type TestApp } from '../support/app.ts';

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
