import type { Decimal } from '../../money/decimal.ts';
import type { LineItem } from '../field-types.ts';
import { type CheckInput, type CheckResult, sumOfLines } from '../totals.ts';

/** Quote: exactly one of items and amount; no tax arithmetic; the total may be below zero with credit lines. */
export function checkQuote({ values, sent, currency, digits }: CheckInput): CheckResult {
  if (sent.has('items') === sent.has('amount')) {
    return {
      problems: [{ code: 'items_or_amount', path: sent.has('items') ? ['amount'] : [], message: 'Send exactly one of items and amount.' }],
      totals: undefined,
    };
  }
  if (currency === undefined || digits === undefined) return { problems: [], totals: undefined };
  const items = values.items as LineItem[] | undefined;
  const amount = values.amount as Decimal | undefined;
  if (items) {
    const subtotal = sumOfLines(items, digits);
    return { problems: [], totals: { currency, subtotal, total: subtotal } };
  }
  return { problems: [], totals: amount ? { currency, total: amount } : undefined };
}
