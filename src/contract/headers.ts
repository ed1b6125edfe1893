/** Header names of the contract (sections 4.2, 7, 8, 9). The service prefix is `Svc-`. */
export const HEADERS = {
  version: 'Svc-Version',
  requestId: 'Svc-Request-Id',
  documentId: 'Svc-Document-Id',
  documentSha256: 'Svc-Document-Sha256',
  template: 'Svc-Template',
  templateVersion: 'Svc-Template-Version',
  mode: 'Svc-Mode',
  creditUsed: 'Svc-Credit-Used',
  creditsRemaining: 'Svc-Credits-Remaining',
  idempotentReplay: 'Svc-Idempotent-Replay',
  reference: 'Svc-Reference',
  idempotencyKey: 'Idempotency-Key',
  authorization: 'Authorization',
  location: 'Location',
  contentDisposition: 'Content-Disposition',
  forwardedFor: 'X-Forwarded-For',
  cloudflareClientAddress: 'CF-Connecting-IP',
  retryAfter: 'Retry-After',
  allow: 'Allow',
  rateLimitLimit: 'RateLimit-Limit',
  rateLimitRemaining: 'RateLimit-Remaining',
  rateLimitReset: 'RateLimit-Reset',
} as const;

/** One `Svc-Totals-*` header per Totals member (section 4.2). */
export const TOTALS_HEADERS = {
  currency: 'Svc-Totals-Currency',
  subtotal: 'Svc-Totals-Subtotal',
  discount: 'Svc-Totals-Discount',
  tax: 'Svc-Totals-Tax',
  total: 'Svc-Totals-Total',
  amount_paid: 'Svc-Totals-Amount-Paid',
  balance_due: 'Svc-Totals-Balance-Due',
} as const;
