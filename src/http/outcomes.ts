import type { ErrorCode } from '../contract/errors.ts';

/**
 * What a route's work can answer with beyond its access, parameters and body (RouteSpec `outcomes`), named once
 * per kind of work; the OpenAPI document and the API reference list them per operation (route.ts errorCodesOf).
 */

/** Making a PDF: the engine's refusals and limits, and an answer larger than the limit (section 7). */
export const RENDERING: readonly ErrorCode[] = [
  'response_too_large',
  'render_rejected',
  'engine_unavailable',
  'engine_busy',
  'render_timeout',
];

/** Charging a credit: none left, or a commit whose outcome the service could not learn. */
export const CHARGING: readonly ErrorCode[] = ['insufficient_credits', 'commit_status_unknown'];

/** A scope that depends on the body (a final needs documents:create, a preview documents:preview). */
export const SCOPE_BY_BODY: readonly ErrorCode[] = ['forbidden_scope'];
