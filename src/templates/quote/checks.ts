import type { CheckInput, CheckResult } from '../template.ts';
import { sumOfLines } from '../totals.ts';
import type { QUOTE_FIELDS } from './fields.ts';

/** Quote: exactly one of items and amount; no tax arithmetic; the total may be below zero with credit lines. */
export function checkQuote({ values, sent, currency, digits }: CheckInput<typeof QUOTE_FIELDS>): CheckResult {
  if (sent.has('items') === sent.has('amount')) {
    return {
      problems: [{ code: 'items_or_amount', path: sent.has('items') ? ['amount'] : [], message: 'Send exactly one of items and amount.' }],
      totals: undefined,
    };
  }
  if (currency === undefined || digits === undefined) return { problems: [], totals: undefined };
  if (values.items) {
    const subtotal = sumOfLines(values.items, digits);
    return { problems: [], totals: { currency, subtotal, total: subtotal } };
  }
  return { problems: [], totals: values.amount ? { currency, total: values.amount } : undefined };
}
