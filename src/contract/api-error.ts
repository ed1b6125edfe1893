import { type DetailCode, ERRORS, type ErrorCode } from './errors.ts';

export interface ErrorDetail {
  code: string;
  message: string;
  field?: string;
}

interface ApiErrorOptions<C extends ErrorCode> {
  detail?: DetailCode<C>;
  message?: string;
  field?: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  /** Extra top-level members of the body, such as `credits_remaining` on a 402. */
  body?: Record<string, unknown>;
  creditUsed?: boolean | null;
}

/** An answer of the contract's error table; thrown anywhere, turned into the section 7 shape once. */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
  readonly creditUsed: boolean | null;

  constructor(code: C, options: ApiErrorOptions<C> = {}) {
    const entry = ERRORS[code];
    const detailMeaning = options.detail ? (entry.details as Record<string, string>)[options.detail] : undefined;
    const message = options.message ?? detailMeaning ?? entry.meaning;
    super(message);
    this.code = code;
    this.status = entry.status;
    this.details =
      options.details ??
      (options.detail ? [{ code: options.detail, message, ...(options.field ? { field: options.field } : {}) }] : undefined);
    this.headers = options.headers ?? {};
    this.body = options.body ?? {};
    this.creditUsed = options.creditUsed === undefined ? (entry.creditUsed === 'null' ? null : false) : options.creditUsed;
  }
}
