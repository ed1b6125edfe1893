import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/contract/errors.ts';
import { TOTALS_HEADERS } from '../../src/contract/headers.ts';

describe('contract constants derived from one definition', () => {
  it('names one Svc-Totals header per Totals member, currency first (section 4.2)', () => {
    expect(TOTALS_HEADERS).toEqual({
      currency: 'Svc-Totals-Currency',
      subtotal: 'Svc-Totals-Subtotal',
      discount: 'Svc-Totals-Discount',
      tax: 'Svc-Totals-Tax',
      total: 'Svc-Totals-Total',
      amount_paid: 'Svc-Totals-Amount-Paid',
      balance_due: 'Svc-Totals-Balance-Due',
    });
    expect(Object.keys(TOTALS_HEADERS)).toEqual(['currency', 'subtotal', 'discount', 'tax', 'total', 'amount_paid', 'balance_due']);
  });

  it('writes the limits into the error prose as the contract states them', () => {
    const validation = ERRORS.validation_failed.details;
    expect(validation.too_long).toBe(
      'The value is longer than its limit (text 200 code points, multiline 2,000, line items as text 12,000, url 300).',
    );
    expect(validation.too_many_digits).toBe('More than 10 digits before the decimal point or more than 4 after it.');
    expect(validation.too_many_items).toBe('More than 50 line items.');
    expect(validation.total_too_large).toBe('The subtotal is 10^15 or more.');
    expect(validation.too_many_fields).toBe('`fields` holds more than 64 names.');
    expect(ERRORS.invalid_request.details.malformed_json).toContain('nested deeper than 64 levels');
    expect(ERRORS.payload_too_large.action).toBe('Keep the body within 131,072 bytes.');
    expect(ERRORS.response_too_large.meaning).toContain('(JSON form limit 3,000,000 bytes before base64; file form 4,000,000 bytes)');
    expect(ERRORS.idempotency_in_progress.meaning).toBe('Same key still running; `Retry-After` in seconds (5).');
    expect(ERRORS.file_not_available.action).toContain('with the same Idempotency-Key within 24 hours');
    expect(ERRORS.document_not_found.action).toContain('kept 90 days');
    expect(ERRORS.commit_status_unknown.action).toBe(
      'Wait 35 seconds, then retry with the same Idempotency-Key; you are charged at most once.',
    );
    expect(ERRORS.rate_limited.details.auth_failure_limit).toBe('Failed sign-ins from this network in 10 minutes.');
  });
});
