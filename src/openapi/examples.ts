import { accountLimits, planOf } from '../accounts/plans.ts';
import { ApiError } from '../contract/api-error.ts';
import { ERRORS, type ErrorCode } from '../contract/errors.ts';
import { KEY_KINDS } from '../contract/scopes.ts';
import { documentFilename } from '../documents/filename.ts';
import { documentObject } from '../documents/record.ts';
import { type DocumentRequest, parseDocumentRequest } from '../documents/request.ts';
import { errorBody } from '../http/respond.ts';
import { parseJson } from '../json/parse.ts';
import { TEMPLATES } from '../templates/registry.ts';
import { templateObject } from '../templates/template.ts';
import { totalsObject } from '../templates/totals.ts';

/**
 * Examples of the OpenAPI document, made by the service's own code from the first template's example request:
 * the validator reads it, and the answers are the objects the routes build from what it read. Only what a
 * request cannot decide (ids, times, the PDF's hash and size) is a fixed sample value.
 */
const CREATED_AT = Date.UTC(2026, 9, 1, 9, 30, 0);
const SAMPLE = {
  // Made at CREATED_AT: its first ten characters are that millisecond (newTimeOrderedId).
  documentId: 'doc_01m3vcs7e06t1v5r0c8m',
  requestId: 'req_4f7k2m9q3w8x1d6t0v5b',
  keyId: 'key_2d9x4k7m1q8w3t6v0r5c',
  sha256: '3f9a1c4e7b2d8f6a0c5e9b1d4f7a2c8e6b0d3f9a1c4e7b2d8f6a0c5e9b1d4f7a',
  bytes: 18342,
  creditsRemaining: 42,
  // The first bytes of every PDF the service makes (`%PDF-1.7`), base64-encoded; a real answer holds the whole file.
  fileBase64: 'JVBERi0xLjc=',
} as const;

const [exampleTemplate] = TEMPLATES;
const exampleRequest: DocumentRequest = parseDocumentRequest(parseJson(JSON.stringify(exampleTemplate!.example)));
const exampleTotals = totalsObject(exampleRequest.totals, exampleRequest.digits);

export const TEMPLATE_EXAMPLE = templateObject(exampleTemplate!);
export const TEMPLATE_LIST_EXAMPLE = TEMPLATES.map(templateObject);

export const DOCUMENT_EXAMPLE = documentObject({
  id: SAMPLE.documentId,
  accountId: 'acct_example',
  keyId: SAMPLE.keyId,
  template: exampleRequest.template.slug,
  templateVersion: exampleRequest.template.version,
  mode: exampleRequest.mode,
  paper: exampleRequest.paper,
  locale: exampleRequest.locale,
  reference: exampleRequest.reference,
  source: 'api',
  creditsConsumed: exampleRequest.mode === 'final' ? 1 : 0,
  sha256: SAMPLE.sha256,
  bytes: SAMPLE.bytes,
  createdAt: CREATED_AT,
});

export const DOCUMENT_LIST_EXAMPLE = { object: 'list', data: [DOCUMENT_EXAMPLE], has_more: false };

export const DOCUMENT_JSON_EXAMPLE = {
  document: DOCUMENT_EXAMPLE,
  filename: documentFilename(exampleRequest),
  file_base64: SAMPLE.fileBase64,
  credit_used: exampleRequest.mode === 'final',
  credits_remaining: SAMPLE.creditsRemaining,
  idempotent_replay: false,
  totals: exampleTotals,
};

export const VALIDATE_ANSWER_EXAMPLE = {
  valid: true,
  template: exampleRequest.template.slug,
  template_version: exampleRequest.template.version,
  totals: exampleTotals,
  credit_used: false,
};

const examplePlan = planOf('free');
export const ACCOUNT_EXAMPLE = {
  object: 'account',
  plan: 'free',
  credits: { remaining: SAMPLE.creditsRemaining, monthly_allowance: examplePlan.monthlyAllowance, period_end: '2026-11-01T00:00:00Z' },
  key: {
    id: SAMPLE.keyId,
    name: 'Production',
    prefix: 'svc_live_2d9x',
    scopes: [...KEY_KINDS.full.scopes],
    created_at: '2026-09-15T08:00:00Z',
    last_used_at: '2026-10-01T09:30:00Z',
  },
  limits: accountLimits(examplePlan),
};

/** The answer the service gives for an error code, as errorResponse writes it, with the first of its detail codes when it has any. */
export function errorExample(code: ErrorCode, baseUrl: string): Record<string, unknown> {
  const [detail] = Object.keys(ERRORS[code].details);
  return errorBody(new ApiError(code, detail ? { detail: detail as never } : {}), { requestId: SAMPLE.requestId, baseUrl });
}
