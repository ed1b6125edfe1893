import { TOTALS_MEMBERS, type TotalsMember } from './totals.ts';

/** Header names of the contract (sections 4.2, 7, 8, 9), then of the Settings pages. The service prefix is `Svc-`. */
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
  accept: 'Accept',
  vary: 'Vary',
  accessControlAllowOrigin: 'Access-Control-Allow-Origin',
  accessControlAllowMethods: 'Access-Control-Allow-Methods',
  accessControlAllowHeaders: 'Access-Control-Allow-Headers',
  accessControlMaxAge: 'Access-Control-Max-Age',
  contentType: 'Content-Type',
  contentLength: 'Content-Length',
  cacheControl: 'Cache-Control',
  cookie: 'Cookie',
  setCookie: 'Set-Cookie',
  origin: 'Origin',
  fetchSite: 'Sec-Fetch-Site',
  contentSecurityPolicy: 'Content-Security-Policy',
  referrerPolicy: 'Referrer-Policy',
  contentTypeOptions: 'X-Content-Type-Options',
  frameOptions: 'X-Frame-Options',
  strictTransportSecurity: 'Strict-Transport-Security',
  etag: 'ETag',
  ifNoneMatch: 'If-None-Match',
} as const;

/** `amount_paid` → `Amount-Paid`. */
const headerCase = (name: string) =>
  name
    .split('_')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('-');

/** One `Svc-Totals-*` header per Totals member (section 4.2), named after the member. */
export const TOTALS_HEADERS = Object.fromEntries(
  ['currency', ...TOTALS_MEMBERS].map((member) => [member, `Svc-Totals-${headerCase(member)}`]),
) as Readonly<Record<'currency' | TotalsMember, string>>;
