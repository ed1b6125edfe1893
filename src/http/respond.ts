import type { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { LIMITS } from '../contract/limits.ts';
import { NEWEST_API_VERSION } from '../contract/version.ts';
import type { RequestContext } from './context.ts';

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set(HEADERS.contentType, 'application/json; charset=utf-8');
  return response;
}

/** The page every error answer's `docs_url` points into, one anchor per error code. */
export const ERRORS_PAGE_PATH = '/docs/api/errors';

function docsUrl(baseUrl: string, code: string): string {
  return `${baseUrl}${ERRORS_PAGE_PATH}#${code}`;
}

/** The section 7 error shape (also the OpenAPI document's examples). `details` is capped at 50; the message is expected to count them all. */
export function errorBody(error: ApiError, context: Pick<RequestContext, 'requestId' | 'baseUrl'>): Record<string, unknown> {
  return {
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
}

export function errorResponse(error: ApiError, context: Pick<RequestContext, 'requestId' | 'baseUrl'>): Response {
  const body = errorBody(error, context);
  // docs_url names {base_url}, the request's own origin when PUBLIC_BASE_URL is unset; and an error is an
  // answer to that moment (a limit, a busy engine), so no cache keeps one.
  return json(body, error.status, { [HEADERS.cacheControl]: 'no-store', ...error.headers });
}

/** The headers every answer carries (section 9.1 and 7), whoever made it: the handler or a runtime. */
export function withAnswerHeaders(response: Response, requestId: string): Response {
  response.headers.set(HEADERS.version, NEWEST_API_VERSION);
  response.headers.set(HEADERS.requestId, requestId);
  return response;
}
