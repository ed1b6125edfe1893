import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/contract/api-error.ts';
import { defineParameter, invalidQuery, openApiParameter, readParameters } from '../../src/http/parameters.ts';

const LIMIT = defineParameter({
  name: 'limit',
  in: 'query',
  description: '1 to 100; default 20.',
  schema: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number), v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
    '20',
  ),
  refusal: () => invalidQuery('limit is a whole number from 1 to 100.', 'limit'),
  errors: ['invalid_request'],
});
const KEY = defineParameter({
  name: 'Idempotency-Key',
  in: 'header',
  description: 'A key.',
  schema: v.optional(v.pipe(v.string(), v.minLength(1))),
  refusal: () => new ApiError('invalid_request'),
});
const request = (query: string, headers: Record<string, string> = {}) => ({
  params: {},
  url: new URL(`https://x.example/list${query}`),
  request: { headers: new Headers(headers) },
});
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? [error.code, error.details?.[0]?.code, error.details?.[0]?.field] : error;
  }
  return undefined;
};

describe('a route parameter declared once in valibot: read and published from the same declaration', () => {
  it('reads each value through its schema, an absent one as its default', () => {
    expect(readParameters([LIMIT, KEY] as const, request('?limit=7', { 'Idempotency-Key': 'k1' }))).toEqual({
      limit: 7,
      'Idempotency-Key': 'k1',
    });
    expect(readParameters([LIMIT, KEY] as const, request(''))).toEqual({ limit: 20, 'Idempotency-Key': undefined });
  });

  it('refuses a value its schema does not take, a name no declaration has, and a name given twice', () => {
    expect(refusal(() => readParameters([LIMIT], request('?limit=1e2')))).toEqual(['invalid_request', 'invalid_query', 'limit']);
    expect(refusal(() => readParameters([LIMIT], request('?limit=101')))).toEqual(['invalid_request', 'invalid_query', 'limit']);
    expect(refusal(() => readParameters([LIMIT], request('?page=2')))).toEqual(['invalid_request', 'invalid_query', 'page']);
    expect(refusal(() => readParameters([LIMIT], request('?limit=1&limit=2')))).toEqual(['invalid_request', 'invalid_query', 'limit']);
  });

  it('publishes the value it reads as: an integer with its bounds and its default as a number; required when absence is refused', () => {
    expect(openApiParameter(LIMIT)).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      description: '1 to 100; default 20.',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    const id = defineParameter({
      name: 'id',
      in: 'path',
      description: 'An id.',
      schema: v.string(),
      refusal: () => new ApiError('not_found'),
    });
    expect(openApiParameter(id)).toEqual({ name: 'id', in: 'path', required: true, description: 'An id.', schema: { type: 'string' } });
  });
});
