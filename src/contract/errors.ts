import { HEADERS } from './headers.ts';
import { AUTH_FAILURE_LIMIT, IDEMPOTENCY_MEMORY_HOURS, IN_PROGRESS_RETRY_AFTER_SECONDS, LIMITS } from './limits.ts';
import { DRAWN_SCRIPTS } from './scripts.ts';

/**
 * The closed set of error codes of this API version (spec section 7), with their detail codes.
 * Responses, the OpenAPI document and the /docs/api/errors page are all generated from this table; the numbers
 * and header names its prose quotes are read from their definitions.
 */

/** What `credit_used` says on an error answer; `false_or_null` is null once a charge had started. */
export type CreditUsedOnError = 'false' | 'null' | 'false_or_null' | 'not_stated';

/** A number as the contract's prose writes it, in groups of three digits: `3,000,000`. */
const inProse = (count: number) => String(count).replace(/\B(?=(\d{3})+$)/g, ',');

interface ErrorEntry {
  readonly status: number;
  readonly meaning: string;
  readonly creditUsed: CreditUsedOnError;
  /** What a client should do when it gets this code. */
  readonly action: string;
  readonly retryAfter?: boolean;
  readonly details: Readonly<Record<string, string>>;
}

const VALIDATION_DETAILS = {
  wrong_type: 'The value has the wrong JSON type.',
  required: 'A required field is missing, null or blank.',
  unknown_field: 'The template has no field of that name, or a line item has a name other than description, quantity and unit_price.',
  too_long: `The value is longer than its limit (text ${inProse(LIMITS.textChars)} code points, multiline ${inProse(LIMITS.multilineChars)}, line items as text ${inProse(LIMITS.lineItemsTextChars)}, url ${inProse(LIMITS.urlChars)}).`,
  line_break_not_allowed: 'A one-line text value contains a line break.',
  invalid_characters:
    'The value contains a bidi control (U+202A–U+202E, U+2066–U+2069), U+FEFF, U+200B, another control character, or a CR not followed by LF.',
  invalid_date: 'Not a real calendar date in the form YYYY-MM-DD.',
  not_one_of: 'Not one of the listed values (exact and case-sensitive).',
  not_a_number: 'Not a decimal number in an accepted form.',
  too_many_digits: `More than ${LIMITS.integerDigits} digits before the decimal point or more than ${LIMITS.fractionDigits} after it.`,
  too_many_decimals: "More decimals than the currency's minor unit allows.",
  out_of_range: 'A negative amount, or a percentage above 100.',
  must_be_positive: 'The amount must be greater than 0.',
  unsupported_currency: 'Not one of the 155 accepted ISO 4217 currency codes.',
  no_items: 'An items list has no line item.',
  too_many_items: `More than ${LIMITS.maxLineItems} line items.`,
  items_or_amount: 'A quote needs exactly one of items and amount.',
  requires_field: 'This field needs another field that was not sent (tax_label needs tax_rate).',
  conflicting_fields: 'Two fields that mean the same thing were both sent (related_document and invoice_reference).',
  discount_too_large: 'The discount is larger than the subtotal.',
  amount_paid_too_large: 'The amount paid is larger than the total.',
  negative_total: 'The subtotal is below zero.',
  total_too_large: `The subtotal is 10^${LIMITS.subtotalDigits} or more.`,
  too_many_fields: `\`fields\` holds more than ${LIMITS.fieldNames} names.`,
  invalid_url: 'Not an https:// link that follows the url rules.',
  invalid_iban:
    "Not an IBAN: a country code, two check digits and the account, as long as that country's IBANs are, whose ISO 13616 check (mod 97) holds; spaces are allowed.",
  invalid_bic: 'Not a BIC (ISO 9362): 8 or 11 letters and digits.',
  invalid_creditor_reference: 'Not an ISO 11649 creditor reference: RF, two check digits (mod 97) and 1 to 21 letters and digits.',
  invalid_upi_id: 'Not a UPI id (virtual payment address) such as name@bank.',
  invalid_pix_key:
    'Not a PIX key: an email address, a phone number +55 and 10 or 11 digits, a CPF (11 digits), a CNPJ (14 digits) or a random key (a UUID).',
  payment_code_currency:
    "The payment code's scheme does not take the document's currency (sepa: EUR, upi: INR, pix: BRL, swiss_qr_bill: CHF or EUR).",
  payment_code_amount: "The balance due is more than the payment code's scheme carries (sepa and swiss_qr_bill: 999,999,999.99).",
  too_long_for_payment_code:
    "The value is longer than the payment code's scheme carries (the seller's name: sepa and swiss_qr_bill 70, pix 25 characters; the invoice number as sepa's remittance: 140; `Invoice ` and the invoice number as a Swiss QR-bill's message: 140).",
  invalid_qr_reference:
    'Not a QR reference: 27 digits, not all zeros, the last the modulo 10 recursive check digit of the others; spaces are allowed.',
  invalid_country: 'Not a country code: two letters (ISO 3166-1 alpha-2).',
  payment_code_account:
    "The account does not suit the Swiss QR-bill: its IBAN is not Swiss or Liechtenstein's (CH, LI), or a QR-IBAN was sent without qr_reference, or a qr_reference or creditor_reference that its IBAN does not take (a QR-IBAN takes a QR reference only, another IBAN a creditor reference or none).",
  payment_code_characters:
    "A value the Swiss QR-bill carries (the seller's name and address, the invoice number) has characters outside its set: Latin letters, digits and punctuation (Basic Latin, Latin-1 Supplement, Latin Extended-A, Ș ș Ț ț, €).",
} as const;

export const ERRORS = {
  invalid_request: {
    status: 400,
    meaning: 'Malformed request: bad JSON, unknown or missing top-level name, bad header, query or option value.',
    creditUsed: 'false',
    action: 'Fix the request as the detail code says; retrying it unchanged gives the same answer.',
    details: {
      malformed_json: `Not valid JSON or UTF-8, nested deeper than ${LIMITS.jsonDepth} levels, or a repeated name inside one object.`,
      wrong_type: 'Wrong JSON type; includes null for an optional top-level parameter.',
      unknown_parameter: 'Unknown top-level name.',
      required: '`template`, `mode` or `fields` missing, null or blank.',
      unsupported_value: 'Value outside the list for `mode`, `paper`, `locale` or `output`.',
      unsupported_version: `\`${HEADERS.version}\` names a version the API lacks.`,
      invalid_idempotency_key: 'Empty, too long, or outside visible ASCII.',
      invalid_reference: 'Empty, too long, non-printable-ASCII, or leading or trailing space.',
      invalid_template_version: 'Not a major version as digits.',
      invalid_query: 'Bad query value on the list route, or `starting_after` not the caller’s.',
    },
  },
  reserved_field: {
    status: 400,
    meaning: 'A reserved name was used; returned alone.',
    creditUsed: 'false',
    action: 'Remove the reserved name; it is held for a later version.',
    details: { reserved: 'Name held for a later version.' },
  },
  unauthorized: {
    status: 401,
    meaning: 'Key missing, malformed, unknown or revoked.',
    creditUsed: 'false',
    action: `Send \`${HEADERS.authorization}: Bearer <API_KEY>\` with an active key.`,
    details: {
      missing_authorization: `No ${HEADERS.authorization} header was sent.`,
      invalid_key: `The ${HEADERS.authorization} header does not hold an active key.`,
    },
  },
  insufficient_credits: {
    status: 402,
    meaning: 'No credit for a final; body adds `credits_remaining` and `period_end`.',
    creditUsed: 'false',
    action: 'Wait for the period end, upgrade the plan, or send a preview instead.',
    details: {},
  },
  forbidden_scope: {
    status: 403,
    meaning: 'Key lacks the scope (for example a Preview only key asking for a final).',
    creditUsed: 'false',
    action: 'Use a key whose kind grants the scope the route needs.',
    details: { missing_scope: 'Scope lacking.' },
  },
  not_found: {
    status: 404,
    meaning: 'No such path under /api/v1 (also every path while the API is switched off).',
    creditUsed: 'false',
    action: 'Check the path against the API reference.',
    details: {},
  },
  template_not_found: {
    status: 404,
    meaning: 'No API template with that slug.',
    creditUsed: 'false',
    action: 'Use a slug from GET /api/v1/templates.',
    details: {},
  },
  document_not_found: {
    status: 404,
    meaning: "No such document in the caller's history.",
    creditUsed: 'not_stated',
    action: `Records are kept ${LIMITS.historyRetentionDays} days and are visible only to the account that made them.`,
    details: {},
  },
  file_not_available: {
    status: 404,
    meaning: 'File route always answers this.',
    creditUsed: 'not_stated',
    action: `Files are not stored. Repeat the POST /api/v1/documents request with the same ${HEADERS.idempotencyKey} within ${IDEMPOTENCY_MEMORY_HOURS} hours to get the file again free.`,
    details: {},
  },
  method_not_allowed: {
    status: 405,
    meaning: `Method not taken by the path; \`${HEADERS.allow}\` header lists methods.`,
    creditUsed: 'false',
    action: `Use one of the methods in the ${HEADERS.allow} header.`,
    details: {},
  },
  template_version_unavailable: {
    status: 409,
    meaning: 'Pinned major is not the current one; never renders another version.',
    creditUsed: 'false',
    action: 'Read the current version from GET /api/v1/templates/{slug}, adapt the fields, and pin the new major.',
    details: { major_mismatch: 'Pinned major differs from the current major.' },
  },
  idempotency_in_progress: {
    status: 409,
    meaning: `Same key still running; \`${HEADERS.retryAfter}\` in seconds (${IN_PROGRESS_RETRY_AFTER_SECONDS}).`,
    creditUsed: 'false',
    action: `Retry with the same key after ${HEADERS.retryAfter} seconds.`,
    retryAfter: true,
    details: {},
  },
  idempotency_replay_unavailable: {
    status: 409,
    meaning: 'Template changed; retry with a new key (that is a new document and uses a credit).',
    creditUsed: 'false',
    action: `Send the request with a new ${HEADERS.idempotencyKey}; that makes a new document and uses a credit.`,
    details: {
      template_version_changed: 'Template has a newer version.',
      output_changed: 'Re-making no longer gives the recorded bytes.',
    },
  },
  payload_too_large: {
    status: 413,
    meaning: 'Body over the size limit.',
    creditUsed: 'false',
    action: `Keep the body within ${inProse(LIMITS.requestBodyBytes)} bytes.`,
    details: {},
  },
  response_too_large: {
    status: 413,
    meaning: `PDF too large to return (JSON form limit ${inProse(LIMITS.pdfJsonBytes)} bytes before base64; file form ${inProse(LIMITS.pdfFileBytes)} bytes); nothing charged; ask for the file form.`,
    creditUsed: 'false',
    action: 'Ask for the binary form (Accept: application/pdf), or shorten the document.',
    details: {},
  },
  unsupported_media_type: {
    status: 415,
    meaning: 'Body not sent as JSON.',
    creditUsed: 'false',
    action: `Send the body with ${HEADERS.contentType}: application/json.`,
    details: {},
  },
  validation_failed: {
    status: 422,
    meaning: 'One or more fields refused; all problems listed at once.',
    creditUsed: 'false',
    action: 'Fix every field listed in details (each names its field path), then send again.',
    details: VALIDATION_DETAILS,
  },
  idempotency_key_reused: {
    status: 422,
    meaning: 'Key used for a different request (a changed `reference` counts).',
    creditUsed: 'false',
    action: `Use a new ${HEADERS.idempotencyKey} for a different request.`,
    details: {},
  },
  render_rejected: {
    status: 422,
    meaning: 'The template refused input that validation had accepted; a fault of the service, nothing charged.',
    creditUsed: 'false',
    action: 'Report the request id to support; change the text the message names if you need the document now.',
    details: {
      undrawable_characters: `A value holds characters no bundled font draws; the detail names the field and the characters. Drawn: ${DRAWN_SCRIPTS}. Not drawn: scripts not listed.`,
    },
  },
  rate_limited: {
    status: 429,
    meaning: `A limit reached; \`${HEADERS.retryAfter}\` in seconds; a 429 that is not JSON comes from a firewall in front of the API.`,
    creditUsed: 'false',
    action: `Wait ${HEADERS.retryAfter} seconds before sending again.`,
    retryAfter: true,
    details: {
      final_key_limit: 'New finals per key per minute.',
      request_key_limit: 'Authenticated requests per key per minute.',
      preview_user_limit: 'Previews per account per hour or day.',
      preview_key_limit: 'Previews per key per hour or day.',
      auth_failure_limit: `Failed sign-ins from this network in ${AUTH_FAILURE_LIMIT.windowMinutes} minutes.`,
      replay_limit: 'Idempotent replays per account or per key.',
    },
  },
  commit_status_unknown: {
    status: 500,
    meaning: `Document made, credit outcome unconfirmed; wait ${LIMITS.idempotencyTakeoverSeconds} seconds, retry with same key.`,
    creditUsed: 'null',
    action: `Wait ${LIMITS.idempotencyTakeoverSeconds} seconds, then retry with the same ${HEADERS.idempotencyKey}; you are charged at most once.`,
    details: {},
  },
  internal_error: {
    status: 500,
    meaning: 'Failure on the service side.',
    creditUsed: 'false_or_null',
    action: `Retry later with the same ${HEADERS.idempotencyKey}; report the request id if it persists.`,
    details: {},
  },
  engine_unavailable: {
    status: 502,
    meaning: 'PDF engine unreachable; nothing charged.',
    creditUsed: 'false',
    action: `Retry later with the same ${HEADERS.idempotencyKey}.`,
    details: {},
  },
  engine_busy: {
    status: 503,
    meaning: `PDF engine at capacity; \`${HEADERS.retryAfter}\`.`,
    creditUsed: 'false',
    action: `Retry after ${HEADERS.retryAfter} seconds.`,
    retryAfter: true,
    details: {},
  },
  service_busy: {
    status: 503,
    meaning: `Shared limit reached or a needed part unreachable; \`${HEADERS.retryAfter}\`; request not processed.`,
    creditUsed: 'false',
    action: `Retry after ${HEADERS.retryAfter} seconds.`,
    retryAfter: true,
    details: {
      preview_global_limit: 'Everyone’s previews together over the ceiling.',
      limiter_unavailable: 'Rate limiter unreachable, request not processed.',
    },
  },
  render_timeout: {
    status: 504,
    meaning: 'Rendering took too long; nothing charged.',
    creditUsed: 'false',
    action: `Retry later with the same ${HEADERS.idempotencyKey}, or shorten the document.`,
    details: {},
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;
export type DetailCode<C extends ErrorCode = ErrorCode> = C extends ErrorCode ? keyof (typeof ERRORS)[C]['details'] & string : never;
export type ValidationDetailCode = DetailCode<'validation_failed'>;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
