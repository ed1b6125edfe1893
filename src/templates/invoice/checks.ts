import { LIMITS } from '../../contract/limits.ts';
import { Decimal } from '../../money/decimal.ts';
import type { Problem } from '../field-types.ts';
import type { CheckInput, CheckResult } from '../template.ts';
import { percentOf, sumOfLines } from '../totals.ts';
import type { INVOICE_FIELDS } from './fields.ts';

const SUBTOTAL_CEILING = new Decimal(`1e${LIMITS.subtotalDigits}`);

/** Invoice cross-field rules 3–7 of spec 2.5 and its totals. */
export function checkInvoice({ values, sent, currency, digits }: CheckInput<typeof INVOICE_FIELDS>): CheckResult {
  const problems: Problem[] = [];
  if (sent.has('tax_label') && !sent.has('tax_rate')) {
    problems.push({ code: 'requires_field', path: ['tax_label'], message: 'tax_label needs tax_rate.' });
  }
  const { items } = values;
  const refused = (name: keyof typeof INVOICE_FIELDS) => sent.has(name) && values[name] === undefined;
  if (!items || currency === undefined || digits === undefined) return { problems, totals: undefined };

  const subtotal = sumOfLines(items, digits);
  if (subtotal.isNegative()) {
    problems.push({
      code: 'negative_total',
      path: ['items'],
      message: `The subtotal is ${subtotal.toFixed(digits)}; it must be at least 0.`,
    });
    return { problems, totals: undefined };
  }
  if (subtotal.gte(SUBTOTAL_CEILING)) {
    problems.push({ code: 'total_too_large', path: ['items'], message: `The subtotal must be below 10^${LIMITS.subtotalDigits}.` });
    return { problems, totals: undefined };
  }

  const discount = values.discount
    ? values.discount.kind === 'amount'
      ? values.discount.amount
      : percentOf(subtotal, values.discount.rate, digits)
    : undefined;
  if (discount?.gt(subtotal)) {
    problems.push({ code: 'discount_too_large', path: ['discount'], message: 'The discount is larger than the subtotal.' });
  }
  const afterDiscount = subtotal.minus(discount ?? 0);
  const tax = values.tax_rate ? percentOf(afterDiscount, values.tax_rate, digits) : undefined;
  const total = afterDiscount.plus(tax ?? 0);
  const amountPaid = values.amount_paid;
  if (amountPaid?.gt(total)) {
    problems.push({ code: 'amount_paid_too_large', path: ['amount_paid'], message: 'The amount paid is larger than the total.' });
  }
  if (problems.length || refused('discount') || refused('tax_rate') || refused('amount_paid')) return { problems, totals: undefined };

  return {
    problems,
    totals: {
      currency,
      subtotal,
      ...(discount ? { discount } : {}),
      ...(tax ? { tax } : {}),
      total,
      ...(amountPaid ? { amount_paid: amountPaid } : {}),
      balance_due: total.minus(amountPaid ?? 0),
    },
  };
}
