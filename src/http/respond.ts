import { LIMITS } from '../contract/limits.ts';
import { ApiError } from './api-error.ts';
import type { RequestContext } from './context.ts';

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set('Content-Type', 'application/json; charset=utf-8');
  return response;
}

export function docsUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/docs/api/errors#${code}`;
}

/** The section 7 error shape. `details` is capped at 50; the message is expected to count them all. */
export function errorResponse(error: ApiError, context: Pick<RequestContext, 'requestId' | 'baseUrl'>): Response {
  const body = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details.slice(0, LIMITS.errorDetails) } : {}),
      request_id: context.requestId,
      docs_url: docsUrl(context.baseUrl, error.code),
    },
    credit_used: error.creditUsed,
    ...error.body,
  };
  return json(body, error.status, error.headers);
}
