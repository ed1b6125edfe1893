import { describe, expect, it } from 'vitest';
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
});
