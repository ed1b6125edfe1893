import type { ApiError } from '../contract/api-error.ts';
import { newRequestId } from '../http/request-id.ts';
import { errorResponse, withAnswerHeaders } from '../http/respond.ts';

/**
 * A section 7 answer made by a runtime for a request the handler cannot be given (node:http could not read
 * it; the Worker's settings are invalid), with the headers every answer carries.
 */
export function answerWithoutHandler(error: ApiError, baseUrl: string): Response {
  const requestId = newRequestId();
  return withAnswerHeaders(errorResponse(error, { requestId, baseUrl }), requestId);
}
