import { HEADERS } from '../contract/headers.ts';
import { NEWEST_API_VERSION } from '../contract/version.ts';
import type { ApiError } from '../http/api-error.ts';
import { newRequestId } from '../http/request-id.ts';
import { errorResponse } from '../http/respond.ts';

/**
 * A section 7 answer made by a runtime for a request the handler cannot be given (node:http could not read
 * it; the Worker's settings are invalid), with the headers every answer carries.
 */
export function answerWithoutHandler(error: ApiError, baseUrl: string): Response {
  const requestId = newRequestId();
  const response = errorResponse(error, { requestId, baseUrl });
  response.headers.set(HEADERS.version, NEWEST_API_VERSION);
  response.headers.set(HEADERS.requestId, requestId);
  return response;
}
