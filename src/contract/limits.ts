/** Size and content limits of section 8; fixed within the API version. */
export const LIMITS = {
  requestBodyBytes: 131_072,
  fieldNames: 64,
  textChars: 200,
  multilineChars: 2_000,
  minLineItems: 1,
  maxLineItems: 50,
  lineItemDescriptionChars: 200,
  lineItemsTextChars: 12_000,
  urlChars: 300,
  integerDigits: 10,
  fractionDigits: 4,
  /** A subtotal has at most this many digits before the point: it is below 10^15 (422 total_too_large). */
  subtotalDigits: 15,
  referenceChars: 128,
  idempotencyKeyChars: 255,
  idempotencyMemorySeconds: 24 * 60 * 60,
  pdfFileBytes: 4_000_000,
  pdfJsonBytes: 3_000_000,
  historyRetentionDays: 90,
  errorDetails: 50,
  listLimitMin: 1,
  listLimitMax: 100,
  listLimitDefault: 20,
  idempotencyTakeoverSeconds: 35,
  startingAfterChars: 64,
  /** Not in the contract: deeper JSON is refused as malformed_json (a valid body is 4 levels deep). */
  jsonDepth: 64,
} as const;

/** How long an Idempotency-Key is remembered, in the hours the texts quote. */
export const IDEMPOTENCY_MEMORY_HOURS = LIMITS.idempotencyMemorySeconds / 3600;
/** Seconds a client is told to wait on 409 idempotency_in_progress (section 3). */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 5;
/**
 * Failed sign-ins counted per client network (section 8): past `failures` within the window, a further failure
 * is answered 429 auth_failure_limit instead of 401. A valid key is never refused by it.
 */
export const AUTH_FAILURE_LIMIT = { failures: 20, windowMinutes: 10 } as const;
/** Public routes may be cached for 5 minutes (section 4.1). */
export const PUBLIC_CACHE_SECONDS = 300;
/**
 * Sign-in emails Settings sends (sign-in and sign-up), per hour: per address (counted whether or not an account
 * has it, so a refusal tells nothing) and per client network. Shown on the page that refuses one.
 */
export const SIGN_IN_MAIL_LIMIT = { perAddressPerHour: 5, perNetworkPerHour: 20 } as const;
