import { ERRORS, type ErrorCode } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import type { ErrorBody, ErrorDetail } from './types.ts';

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERRORS, code);

/** `Retry-After` in seconds: delay-seconds, or an HTTP date (RFC 9110 10.2.3) counted from now; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function errorBodyOf(body: unknown): ErrorBody | undefined {
  const error = (body as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === 'string' ? (body as ErrorBody) : undefined;
}

/**
 * Every answer outside 2xx. `code` is null when the answer is not the API's error object (a 429 or 5xx from a
 * firewall or proxy in front of it) or names a code this client does not know (a later addition, spec 9.2): then
 * `status` says what happened, and `body` holds the answer as read.
 */
export class SvcApiError extends Error {
  override readonly name = 'SvcApiError';
  readonly status: number;
  readonly code: ErrorCode | null;
  readonly details: readonly ErrorDetail[];
  /** The answer's `request_id`, else its Svc-Request-Id header; quote it to support. */
  readonly requestId: string | null;
  readonly docsUrl: string | null;
  /** false: nothing was charged; null: the charge is unconfirmed (retry with the same key); undefined: not stated. */
  readonly creditUsed: boolean | null | undefined;
  /** Seconds the answer's Retry-After asks to wait, when it has one. */
  readonly retryAfter: number | null;
  /** The answer's JSON, or its text when it is not JSON. */
  readonly body: unknown;

  constructor(status: number, headers: Headers, body: unknown) {
    const answer = errorBodyOf(body);
    super(answer?.error.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = isErrorCode(answer?.error.code) ? answer.error.code : null;
    this.details = answer?.error.details ?? [];
    this.requestId = answer?.error.request_id ?? headers.get(HEADERS.requestId);
    this.docsUrl = answer?.error.docs_url ?? null;
    this.creditUsed = answer ? answer.credit_used : undefined;
    this.retryAfter = retryAfterSeconds(headers.get(HEADERS.retryAfter));
    this.body = body;
  }

  /** Reads the error answer's body (JSON, or text when it is not JSON). */
  static async of(response: Response): Promise<SvcApiError> {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: something in front of the API answered; the text is kept as the body.
    }
    return new SvcApiError(response.status, response.headers, body);
  }
}

/** No answer came: the connection failed or broke while the answer was read. `cause` is what fetch threw. */
export class SvcNetworkError extends Error {
  override readonly name = 'SvcNetworkError';
  constructor(cause: unknown) {
    super(`The request got no answer: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
